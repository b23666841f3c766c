// Command worker registers a workflow of its own module: the finding shows
// where the workflow is, not here again.
package main

import (
	"example.com/modular/workflows"
	"github.com/durable-go/sdk/worker"
)

func main() {
	w := worker.New("queue")
	w.RegisterWorkflow(workflows.Clocked)
}
