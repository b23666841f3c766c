package wf

import (
	"time"

	"github.com/durable-go/sdk/workflow"
)

func HelperWorkflow(ctx workflow.Context) error { // want HelperWorkflow:"nondeterministic\\(time.Now called at wf/helpers.go:\\d+ via wf.first -> wf.second\\)"
	return first(ctx)
}

// first takes a workflow.Context: it is a workflow function of its own,
// but its findings show from HelperWorkflow, which calls it.
func first(ctx workflow.Context) error {
	return second(3)
}

func second(n int) error {
	if n > 0 {
		return second(n - 1)
	}
	_ = time.Now() // want `time.Now called: HelperWorkflow -> first -> second; use workflow.Now`
	return nil
}

type machine struct{ steps int }

func (m *machine) run(ctx workflow.Context) error {
	m.steps++
	return m.wait()
}

func (m *machine) wait() error {
	time.Sleep(time.Second) // want `time.Sleep called: \(\*machine\).run -> \(\*machine\).wait`
	return nil
}

// Functions that reach each other report from the first in the file.
func PingWorkflow(ctx workflow.Context, n int) error { // want PingWorkflow:"nondeterministic"
	if n == 0 {
		return nil
	}
	return PongWorkflow(ctx, n-1)
}

func PongWorkflow(ctx workflow.Context, n int) error { // want PongWorkflow:"nondeterministic"
	_ = time.Now() // want `time.Now called: PingWorkflow -> PongWorkflow`
	return PingWorkflow(ctx, n)
}
