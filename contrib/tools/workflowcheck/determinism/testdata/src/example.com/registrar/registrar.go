// Package registrar registers workflows: its own function literals, and a
// workflow of another package, which it reports at the registration.
package registrar

import (
	"time"

	"example.com/helpers"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Start registers the workflows.
func Start() { // want Start:"nondeterministic\\(worker.New called at registrar/registrar.go:15; "
	w := worker.New("queue")
	w.RegisterWorkflow(helpers.RegisteredElsewhere) // want `time.Sleep called: helpers.RegisteredElsewhere at helpers/helpers.go:\d+; use workflow.Sleep`
	w.RegisterWorkflow(helpers.Step)
	w.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
		time.Sleep(time.Second) // want `time.Sleep called: Start.func1; use workflow.Sleep`
		return nil
	}, workflow.RegisterOptions{Name: "inline"})
	w.RegisterWorkflow(new(Workflows).Run)
	w.RegisterActivity(func() { time.Sleep(time.Second) }) // activities may block
}

// Workflows are registered as methods.
type Workflows struct{}

// Run is a workflow method.
func (w *Workflows) Run(ctx workflow.Context) error { // want Run:"nondeterministic"
	time.Sleep(time.Second) // want `time.Sleep called: \(\*Workflows\).Run`
	return nil
}
