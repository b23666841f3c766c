package wfsynctest

import (
	"errors"
	"testing"

	"github.com/durable-go/sdk/internal/coro"
	"github.com/durable-go/sdk/internal/wfsync"
)

func TestRunRunsCoroutinesUntilTheyReturn(t *testing.T) {
	sum := 0
	err := Run(func(ctx wfsync.Context) {
		ch := wfsync.NewChannel(ctx)
		wfsync.Go(ctx, func(ctx wfsync.Context) {
			for i := 1; i <= 3; i++ {
				ch.Send(ctx, i)
			}
			ch.Close()
		})
		var v int
		for ch.Receive(ctx, &v) {
			sum += v
		}
	})
	if err != nil || sum != 6 {
		t.Fatalf("Run = %v, sum %d; want nil, 6", err, sum)
	}
}

func TestRunReportsACoroutineLeftBlocked(t *testing.T) {
	if err := Run(func(ctx wfsync.Context) { wfsync.NewChannel(ctx).Receive(ctx, nil) }); err == nil {
		t.Fatal("Run did not report the coroutine left blocked")
	}
}

func TestRunReportsAPanic(t *testing.T) {
	err := Run(func(wfsync.Context) { panic("boom") })
	var panicked *coro.PanicError
	if !errors.As(err, &panicked) {
		t.Fatalf("Run = %v, want a *coro.PanicError", err)
	}
}
