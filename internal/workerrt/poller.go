package workerrt

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/durable-go/sdk/log"
)

// pollLoop long-polls until ctx ends: it takes a slot, polls, and hands a
// task to handle on a goroutine of its own, which frees the slot when done.
// Poll errors back off exponentially, so an unreachable server is retried
// calmly until it returns.
func pollLoop[T any](ctx context.Context, s *slots, logger log.Logger, what string,
	poll func(context.Context) (T, bool, error), handle func(T), running *taskGroup) {
	backoff := time.Duration(0)
	for {
		if err := s.acquire(ctx); err != nil {
			return
		}
		task, ok, err := poll(ctx)
		if err != nil || !ok {
			s.release()
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				backoff = nextBackoff(backoff)
				logger.Warn("polling failed; retrying", "TaskKind", what, "Error", err, "RetryIn", backoff)
				if !sleep(ctx, backoff) {
					return
				}
			}
			continue
		}
		backoff = 0
		s.markUsed()
		running.Add(1)
		go func() {
			defer running.Done()
			defer s.releaseUsed()
			handle(task)
		}()
	}
}

// nextBackoff doubles from 200ms up to 10s, with jitter so that many
// pollers do not retry in step.
func nextBackoff(prev time.Duration) time.Duration {
	next := 2 * prev
	if next < 200*time.Millisecond {
		next = 200 * time.Millisecond
	}
	if next > 10*time.Second {
		next = 10 * time.Second
	}
	return next/2 + rand.N(next/2+1)
}

// sleep waits d or until ctx ends; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// isCanceled reports errors caused by ending the poll's context.
func isCanceled(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled)
}
