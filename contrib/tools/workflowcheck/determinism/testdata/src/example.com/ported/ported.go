// Package ported is code written for go.temporal.io/sdk: the analyzer knows
// that workflow API too.
package ported

import (
	"time"

	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

func PortedWorkflow(ctx workflow.Context) (int, error) { // want PortedWorkflow:"nondeterministic"
	_ = time.Now() // want `time.Now called: PortedWorkflow; use workflow.Now`
	ch := workflow.NewChannel(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) { ch.Send(ctx, 1) })
	var n int
	ch.Receive(ctx, &n)
	var stamp time.Time
	_ = workflow.SideEffect(ctx, func(ctx workflow.Context) any { return time.Now() }).Get(&stamp)
	if err := workflow.Sleep(ctx, time.Second); err != nil {
		return 0, err
	}
	return n, nil
}

// Register registers a closure with the official SDK's worker.
func Register(w worker.Worker) { // want Register:"nondeterministic"
	w.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
		go func() {}() // want `go statement starts a native goroutine: Register.func1; use workflow.Go`
		return nil
	}, workflow.RegisterOptions{Name: "closure"})
}
