// Command cancellation starts a workflow whose activity works step by step
// and heartbeats, cancels the workflow after a few seconds, and shows the
// activity stop and the workflow clean up before it ends as canceled.
//
//	temporal server start-dev &    # or TEMPORAL_ADDRESS=host:port
//	go run ./examples/cancellation
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "cancellation-example"

// workflowID is the ID of the workflow the example runs: a fixed one, as a
// business ID would be, so that its test can read the history it wrote.
const workflowID = "cancellation-process"

// cancelAfter is how long the client lets the workflow work before it
// cancels it.
var cancelAfter = 3 * time.Second

func main() {
	// An empty address is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	if err := run(context.Background(), os.Getenv("TEMPORAL_ADDRESS"), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cancellation:", err)
		os.Exit(1)
	}
}

// run runs a worker and the example's client against the server at
// hostPort, and writes what the client sees to out.
func run(ctx context.Context, hostPort string, out io.Writer) error {
	c, err := client.Dial(client.Options{HostPort: hostPort})
	if err != nil {
		return err
	}
	defer c.Close()

	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(Process)
	w.RegisterActivity(DoWork)
	w.RegisterActivity(Cleanup)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflowID, TaskQueue: taskQueue}, Process, 3600)
	if err != nil {
		return err
	}
	time.Sleep(cancelAfter)
	fmt.Fprintln(out, "canceling", run.GetID())
	if err := c.CancelWorkflow(ctx, run.GetID(), run.GetRunID()); err != nil {
		return err
	}
	err = run.Get(ctx, nil)
	if !temporal.IsCanceledError(err) {
		return fmt.Errorf("the workflow should have ended canceled, it ended with %v", err)
	}
	fmt.Fprintln(out, "the workflow cleaned up and ended canceled:", err)
	return nil
}
