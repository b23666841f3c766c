// Command childworkflow runs a parent workflow that fans out to one child
// workflow per parcel of an order, runs them in parallel and combines
// their results.
//
//	temporal server start-dev &    # or TEMPORAL_ADDRESS=host:port
//	go run ./examples/childworkflow
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "childworkflow-example"

func main() {
	// An empty address is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	if err := run(context.Background(), os.Getenv("TEMPORAL_ADDRESS"), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "childworkflow:", err)
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

	// Children run on the parent's task queue unless their options name
	// another, so one worker registers both.
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(ProcessOrder)
	w.RegisterWorkflow(ShipParcel)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	order := Order{ID: "order-1042", Parcels: []string{"books", "lamp", "kettle"}}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: order.ID, TaskQueue: taskQueue}, ProcessOrder, order)
	if err != nil {
		return err
	}
	var trackingNumbers []string
	if err := run.Get(ctx, &trackingNumbers); err != nil {
		return err
	}
	fmt.Fprintln(out, "shipped:", trackingNumbers)
	return nil
}
