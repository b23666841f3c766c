// Command update sells the seats of an event through a workflow update
// whose validator rejects bad requests: it asks for 3 seats, then 0 and 9
// (both rejected), then the last 2, and prints what each call returned.
//
//	temporal server start-dev &    # or TEMPORAL_ADDRESS=host:port
//	go run ./examples/update
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "update-example"

// workflowID is the ID of the workflow the example runs: a fixed one, as a
// business ID would be, so that its test can read the history it wrote.
const workflowID = "update-event"

func main() {
	// An empty address is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	if err := run(context.Background(), os.Getenv("TEMPORAL_ADDRESS"), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "update:", err)
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
	w.RegisterWorkflow(Event)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	event, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflowID, TaskQueue: taskQueue}, Event, 5)
	if err != nil {
		return err
	}
	for _, wanted := range []int{3, 0, 9, 2} {
		left, err := reserve(ctx, c, event.GetID(), wanted)
		if err != nil {
			// A rejected update is an error of UpdateWorkflow or of the
			// handle's Get; the workflow goes on.
			fmt.Fprintf(out, "reserve %d: rejected: %v\n", wanted, err)
			continue
		}
		fmt.Fprintf(out, "reserve %d: accepted, %d left\n", wanted, left)
	}
	var reservations int
	if err := event.Get(ctx, &reservations); err != nil {
		return err
	}
	fmt.Fprintln(out, "sold out after", reservations, "reservations")
	return nil
}

// reserve sends the reserve update and waits for its result.
func reserve(ctx context.Context, c client.Client, workflowID string, seats int) (int, error) {
	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   workflowID,
		UpdateName:   ReserveUpdate,
		Args:         []any{seats},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return 0, err
	}
	var left int
	err = handle.Get(ctx, &left)
	return left, err
}
