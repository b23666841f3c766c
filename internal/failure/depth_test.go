package failure

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"google.golang.org/protobuf/proto"
)

// deepFailure is an application failure chain of depth levels, the top
// one "level 1".
func deepFailure(depth int) *failurepb.Failure {
	var f *failurepb.Failure
	for i := depth; i >= 1; i-- {
		f = &failurepb.Failure{
			Message:     fmt.Sprintf("level %d", i),
			Source:      "GoSDK",
			FailureInfo: &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{Type: "Deep"}},
			Cause:       f,
		}
	}
	return f
}

// A chain as deep as protobuf allows (157 KB on the wire) decodes to
// MaxDecodedCauseDepth errors and a note, and still re-encodes whole.
func TestADeepCauseChainIsDecodedToTheLimitWithANote(t *testing.T) {
	const depth = 9900
	fc := GetDefaultFailureConverter()
	f := deepFailure(depth)
	err := fc.FailureToError(f)

	var chain []error
	for e := err; e != nil; e = errors.Unwrap(e) {
		chain = append(chain, e)
	}
	if len(chain) != MaxDecodedCauseDepth+1 {
		t.Fatalf("decoded %d errors, want %d and a note", len(chain), MaxDecodedCauseDepth)
	}
	var app *ApplicationError
	if !errors.As(chain[MaxDecodedCauseDepth-1], &app) || app.Message() != fmt.Sprintf("level %d", MaxDecodedCauseDepth) {
		t.Fatalf("error %d = %v, want level %d", MaxDecodedCauseDepth, chain[MaxDecodedCauseDepth-1], MaxDecodedCauseDepth)
	}
	note := chain[MaxDecodedCauseDepth]
	want := fmt.Sprintf("%d more causes not decoded: the SDK decodes a failure's cause chain to a depth of %d", depth-MaxDecodedCauseDepth, MaxDecodedCauseDepth)
	if !strings.HasPrefix(note.Error(), want) {
		t.Errorf("the last error says %q, want it to start with %q", note.Error(), want)
	}
	if n := strings.Count(err.Error(), "level "); n != MaxDecodedCauseDepth {
		t.Errorf("Error() names %d levels, want %d", n, MaxDecodedCauseDepth)
	}

	// Nothing is lost: the errors re-encode as the chain they came from.
	if again := fc.ErrorToFailure(err); !proto.Equal(again, f) {
		t.Error("re-encoding the top error does not give back the whole chain")
	}
	below := f
	for range MaxDecodedCauseDepth {
		below = below.GetCause()
	}
	if got := fc.ErrorToFailure(note); !proto.Equal(got, below) {
		t.Errorf("the note re-encodes as %q, want the failure it stands for (%q)", got.GetMessage(), below.GetMessage())
	}
}

func TestAChainAtTheLimitIsDecodedWhole(t *testing.T) {
	err := GetDefaultFailureConverter().FailureToError(deepFailure(MaxDecodedCauseDepth))
	n := 0
	for e := err; e != nil; e = errors.Unwrap(e) {
		n++
	}
	if n != MaxDecodedCauseDepth || strings.Contains(err.Error(), "not decoded") {
		t.Errorf("a chain of %d decoded to %d errors (%.80q...), want all of them and no note", MaxDecodedCauseDepth, n, err.Error())
	}
}

// allocatedBytes is what f allocates on the heap.
func allocatedBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Error() of a long chain made in this process (no decoding cap applies)
// copies each message once, not once per level above it.
func TestErrorOfALongChainCopiesEachMessageOnce(t *testing.T) {
	const depth = 5000
	var err error = errors.New("root cause")
	levels := []string{"root cause"}
	for i := depth; i >= 1; i-- {
		msg := fmt.Sprintf("level %d", i)
		switch i % 3 {
		case 0:
			err = NewApplicationErrorWithCause(msg, "", err)
		case 1:
			err = NewServerError(msg, false, err)
		default:
			err = NewTimeoutError(msg, enumspb.TIMEOUT_TYPE_START_TO_CLOSE, err)
			msg = fmt.Sprintf("%s (type: %s)", msg, enumspb.TIMEOUT_TYPE_START_TO_CLOSE)
		}
		levels = append(levels, msg)
	}
	for i, j := 0, len(levels)-1; i < j; i, j = i+1, j-1 {
		levels[i], levels[j] = levels[j], levels[i]
	}
	want := strings.Join(levels, ": ")

	var got string
	allocated := allocatedBytes(func() { got = err.Error() })
	if got != want {
		t.Fatalf("Error() of the chain differs from its levels joined by \": \" (%d bytes, want %d)", len(got), len(want))
	}
	// Building the string (with its buffer's growth) and the timeout
	// levels' own messages: a few times the result, where rendering
	// level by level allocates about depth/2 times it.
	if limit := 8 * uint64(len(want)); allocated > limit {
		t.Errorf("Error() of a %d-level chain allocated %d bytes for a %d-byte message, want at most %d", depth, allocated, len(want), limit)
	}
}

// An error of another type in the chain renders itself and what it wraps.
func TestErrorRendersForeignLinksThemselves(t *testing.T) {
	inner := NewApplicationError("inner", "T")
	wrapped := fmt.Errorf("wrapped [%w]", inner)
	err := NewActivityError(1, 2, "id", "Act", "1", 0, NewServerError("server", false, wrapped))
	want := "activity error (type: Act, scheduledEventID: 1, startedEventID: 2, identity: id): server: wrapped [inner (type: T, retryable: true)]"
	if got := err.Error(); got != want {
		t.Errorf("Error() = %q\nwant     %q", got, want)
	}
}
