// Command continueasnew runs a workflow that keeps its history short by
// continuing as new every few signals, draining the signals it has not
// read and passing them, with its state, to the next run. It signals the
// numbers 1 to 10 and prints the total once it reaches 55.
//
//	temporal server start-dev &    # or TEMPORAL_ADDRESS=host:port
//	go run ./examples/continueasnew
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "continueasnew-example"

// workflowID is the ID of the workflow the example runs: a fixed one, as a
// business ID would be, so that its test can read the history it wrote.
const workflowID = "continueasnew-tally"

func main() {
	// An empty address is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	if err := run(context.Background(), os.Getenv("TEMPORAL_ADDRESS"), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "continueasnew:", err)
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
	w.RegisterWorkflow(Accumulate)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflowID, TaskQueue: taskQueue}, Accumulate, Tally{Goal: 55})
	if err != nil {
		return err
	}
	// Signals go to the workflow ID's current run, whichever that is.
	for amount := 1; amount <= 10; amount++ {
		if err := c.SignalWorkflow(ctx, run.GetID(), "", AddSignal, amount); err != nil {
			return err
		}
	}
	// Get follows the chain of runs to the last one's result.
	var tally Tally
	if err := run.Get(ctx, &tally); err != nil {
		return err
	}
	fmt.Fprintf(out, "total %d after %d runs\n", tally.Total, tally.Runs+1)
	return nil
}
