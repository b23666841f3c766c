package workerrt

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/logging"
)

// TestPollerNeverHoldsMoreTasksThanSlots polls with 2 slots and slow
// tasks: no poll is made while both slots are busy.
func TestPollerNeverHoldsMoreTasksThanSlots(t *testing.T) {
	s := newSlots(2, nil)
	var running, maxRunning, polls atomic.Int32
	var group taskGroup
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	var once sync.Once
	poll := func(ctx context.Context) (int, bool, error) {
		polls.Add(1)
		if n := running.Load(); n >= 2 {
			t.Errorf("polled while %d tasks run in 2 slots", n)
		}
		return 1, true, nil
	}
	handle := func(int) {
		n := running.Add(1)
		for {
			m := maxRunning.Load()
			if n <= m || maxRunning.CompareAndSwap(m, n) {
				break
			}
		}
		<-release
		running.Add(-1)
	}
	done := make(chan struct{})
	go func() {
		pollLoop(ctx, s, logging.NewDefaultLogger(), "test", poll, handle, &group)
		close(done)
	}()
	time.Sleep(100 * time.Millisecond)
	if p := polls.Load(); p != 2 {
		t.Fatalf("%d polls with 2 slots and no task finished, want 2", p)
	}
	once.Do(func() { close(release) })
	cancel()
	<-done
	group.Wait()
	if maxRunning.Load() > 2 {
		t.Fatalf("%d tasks ran at once in 2 slots", maxRunning.Load())
	}
}

func TestPollerBacksOffOnErrors(t *testing.T) {
	var polls atomic.Int32
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	var group taskGroup
	pollLoop(ctx, newSlots(1, nil), logging.NewTextLogger(discard{}, 0), "test", func(context.Context) (int, bool, error) {
		polls.Add(1)
		return 0, false, errors.New("server unavailable")
	}, func(int) {}, &group)
	// 100-200ms, then 200-400ms, then 400-800ms: at most 3 or 4 polls.
	if p := polls.Load(); p < 2 || p > 5 {
		t.Fatalf("%d polls in 700ms of errors; want a handful, backing off", p)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestRateLimiterSpacesEvents(t *testing.T) {
	r := newRateLimiter(20) // 50ms apart
	start := time.Now()
	for range 5 {
		if err := r.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d < 190*time.Millisecond {
		t.Fatalf("5 events at 20/s took %v, want at least 200ms minus the first", d)
	}
}
