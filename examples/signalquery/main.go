// Command signalquery runs a shopping-cart workflow that accumulates
// signals and answers a query about its state: it adds three items with
// signals, asks the cart what it holds, checks out and prints the result.
//
//	temporal server start-dev &    # or TEMPORAL_ADDRESS=host:port
//	go run ./examples/signalquery
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "signalquery-example"

// workflowID is the ID of the workflow the example runs: a fixed one, as a
// business ID would be, so that its test can read the history it wrote.
const workflowID = "signalquery-cart"

func main() {
	// An empty address is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	if err := run(context.Background(), os.Getenv("TEMPORAL_ADDRESS"), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "signalquery:", err)
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
	w.RegisterWorkflow(Cart)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	cart, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflowID, TaskQueue: taskQueue}, Cart)
	if err != nil {
		return err
	}
	for _, item := range []string{"apples", "bread", "coffee"} {
		if err := c.SignalWorkflow(ctx, cart.GetID(), cart.GetRunID(), AddItemSignal, item); err != nil {
			return err
		}
	}

	answer, err := c.QueryWorkflow(ctx, cart.GetID(), cart.GetRunID(), ItemsQuery)
	if err != nil {
		return err
	}
	var inCart []string
	if err := answer.Get(&inCart); err != nil {
		return err
	}
	fmt.Fprintln(out, "in the cart:", inCart)

	if err := c.SignalWorkflow(ctx, cart.GetID(), cart.GetRunID(), CheckoutSignal, nil); err != nil {
		return err
	}
	var bought []string
	if err := cart.Get(ctx, &bought); err != nil {
		return err
	}
	fmt.Fprintln(out, "checked out:", bought)
	return nil
}
