// Package wfsynctest runs workflow code on the deterministic primitives
// (internal/wfsync) alone, with no engine behind them: no timers,
// activities or signals. It is for the tests and benchmarks of the
// primitives that live outside wfsync (the root's API over them, the
// workflow facade, bench/dispatcher); no program links it.
package wfsynctest

import (
	"errors"

	"github.com/durable-go/sdk/internal/coro"
	"github.com/durable-go/sdk/internal/wfsync"
)

// Run runs root as the root coroutine of a new runtime, until every
// coroutine has returned or is blocked, then closes the runtime. It
// returns a panic or deadlock as the dispatcher reports it, and an error
// if coroutines were left blocked.
func Run(root func(ctx wfsync.Context)) error {
	rt := wfsync.NewRuntime(coro.Options{})
	ctx, _ := wfsync.NewRootContext(rt)
	rt.StartRoot(ctx, root)
	dispatcher := rt.Dispatcher()
	err := dispatcher.RunUntilBlocked()
	done := dispatcher.Done()
	if closeErr := dispatcher.Close(); err == nil {
		err = closeErr
	}
	if err == nil && !done {
		err = errors.New("workflow: coroutines are still blocked with nothing left to wake them")
	}
	return err
}
