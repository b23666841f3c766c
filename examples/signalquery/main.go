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
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "signalquery-example"

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "signalquery:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	// An empty HostPort is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	c, err := client.Dial(client.Options{HostPort: os.Getenv("TEMPORAL_ADDRESS")})
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

	cart, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue}, Cart)
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
	fmt.Println("in the cart:", inCart)

	if err := c.SignalWorkflow(ctx, cart.GetID(), cart.GetRunID(), CheckoutSignal, nil); err != nil {
		return err
	}
	var bought []string
	if err := cart.Get(ctx, &bought); err != nil {
		return err
	}
	fmt.Println("checked out:", bought)
	return nil
}
