package converter

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// The codec server handler bounds the memory of all the requests it
// serves at once, not only each one's: each request is charged, before
// it reads its body, for what it may need, and waits while the requests
// in flight hold too much of the budget. A body of B bytes costs about
// 3B (the body and the payloads decoded from it), and an answer of P
// bytes of payloads about 5P (what a codec makes, and the JSON written).
// A request first sets aside room for a modest answer (its allowance):
// the zlib codec inflates no more than that, and a request that needs
// more gives its charge back and asks for eight times the room, up to the
// largest answer (maxCodecResultBytes), waiting with nothing held, then
// decodes again.
// A codec of the user's own is charged for what it returned, once it
// returned. A request that cannot get its charge within codecMemoryWait
// is answered 503, one that needs more than the whole budget 413.
const (
	// codecServerMemory is the budget of a handler's requests together:
	// room for the largest answer and many ordinary requests.
	codecServerMemory = 1 << 30
	// codecMemoryWait is how long a request waits for its charge.
	codecMemoryWait = 5 * time.Second
	// minCodecAllowance is the least room for an answer a request sets
	// aside at first.
	minCodecAllowance = 1 << 20
)

// bodyCost is what a request body of n bytes costs: the body, and the
// payloads decoded from it (base64 is 4/3 of the bytes), with room to
// spare.
func bodyCost(n int64) int64 { return 3 * n }

// answerCost is what an answer of n bytes of payloads costs: the payloads
// a codec makes, and the JSON of the answer (base64, 4/3 of them) in a
// buffer that grows by doubling.
func answerCost(n int64) int64 { return 5 * n }

// firstAllowance is the room for an answer a request of n body bytes
// sets aside at first: four times its body, at least
// minCodecAllowance, at most maxResult.
func firstAllowance(n int64, maxResult int) int64 {
	return min(max(4*n, minCodecAllowance), int64(maxResult))
}

// memoryBudget is a number of bytes that requests take and give back.
type memoryBudget struct {
	size int64

	mu      sync.Mutex
	free    int64
	changed chan struct{} // closed when bytes are given back
}

func newMemoryBudget(size int64) *memoryBudget {
	return &memoryBudget{size: size, free: size}
}

var (
	errOverBudget = errors.New("needs more than the whole budget")
	errBudgetBusy = errors.New("the budget is in use")
)

// take takes n bytes, waiting up to wait (or until ctx ends) while
// others hold too many.
func (b *memoryBudget) take(ctx context.Context, n int64, wait time.Duration) error {
	if n > b.size {
		return errOverBudget
	}
	var timeout <-chan time.Time
	for {
		b.mu.Lock()
		if b.free >= n {
			b.free -= n
			b.mu.Unlock()
			return nil
		}
		if b.changed == nil {
			b.changed = make(chan struct{})
		}
		changed := b.changed
		b.mu.Unlock()
		if timeout == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-changed:
		case <-timeout:
			return errBudgetBusy
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// give gives n bytes back.
func (b *memoryBudget) give(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.free += n
	if b.changed != nil {
		close(b.changed)
		b.changed = nil
	}
}

// requestMemory is what one request holds of its handler's budget.
type requestMemory struct {
	h    *codecHTTPHandler
	r    *http.Request
	held int64
}

// hold makes the request hold n bytes, giving back first what it held,
// so that it never waits while holding any. It answers the request (503
// or 413) and returns false when it cannot.
func (m *requestMemory) hold(w http.ResponseWriter, n int64) bool {
	m.release()
	err := m.h.memory.take(m.r.Context(), n, m.h.memoryWait)
	switch {
	case err == nil:
		m.held = n
		return true
	case errors.Is(err, errOverBudget):
		http.Error(w, fmt.Sprintf("the request needs about %d MiB of memory, more than the codec server's budget of %d MiB for all requests together",
			mib(n), mib(m.h.memory.size)), http.StatusRequestEntityTooLarge)
	case errors.Is(err, errBudgetBusy):
		w.Header().Set("Retry-After", "1")
		http.Error(w, fmt.Sprintf("the codec server is busy: the requests in flight hold its memory budget of %d MiB, and this one could not get the %d MiB it needs within %v; try again",
			mib(m.h.memory.size), mib(n), m.h.memoryWait), http.StatusServiceUnavailable)
	default: // the client went away
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	}
	return false
}

// release gives back what the request holds.
func (m *requestMemory) release() {
	if m.held > 0 {
		m.h.memory.give(m.held)
		m.held = 0
	}
}

// mib is n in MiB, rounded up.
func mib(n int64) int64 { return (n + 1<<20 - 1) >> 20 }
