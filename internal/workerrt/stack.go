package workerrt

// A poll's goroutine is new for every poll and starts on the smallest
// stack; decoding a poll response (a history, through the protobuf
// library's recursive decoder) then grows it several times over, each time
// copying the whole stack and walking its frames: 5-8% of a worker's CPU
// in the side-by-side benchmark. growStack, called first, grows it in one
// step while it is still shallow and cheap to copy.
//
// The frame is the size a poll response's decoding needs: the runtime
// doubles the stack until the frame fits, so the goroutine gets a 16 KiB
// stack, the largest the runtime keeps in its per-processor caches.
//
//go:noinline
func growStack() byte {
	var frame [8 << 10]byte
	return frame[stackIndex] // an index the compiler cannot know keeps the frame
}

var stackIndex = 0
