// Command typed runs the hello world and an order workflow written with
// the typed API (package typed): a worker, then a client that starts the
// workflows, adds items to the order with an update (one of them
// rejected by the validator), queries its status, pays with a signal, and
// prints the receipt.
//
//	temporal server start-dev &    # or TEMPORAL_ADDRESS=host:port
//	go run ./examples/typed
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "typed-example"

// The IDs of the workflows the example runs: fixed ones, as business IDs
// would be, so that its test can read the histories they wrote.
const (
	greetingWorkflowID = "typed-greeting"
	orderWorkflowID    = "typed-order-A-1001"
)

func main() {
	// An empty address is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	if err := run(context.Background(), os.Getenv("TEMPORAL_ADDRESS"), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "typed:", err)
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
	w.RegisterWorkflow(Greeting)
	w.RegisterWorkflow(OrderWorkflow)
	w.RegisterWorkflow(Shipment)
	for _, activity := range []any{Greet, ReserveStock, Charge, BookCourier, SendReceipt} {
		w.RegisterActivity(activity)
	}
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	hello, err := typed.ExecuteWorkflow(ctx, c, client.StartWorkflowOptions{ID: greetingWorkflowID, TaskQueue: taskQueue}, Greeting, "Temporal")
	if err != nil {
		return err
	}
	greeting, err := hello.Get(ctx) // a string
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "hello:", greeting)

	order, err := typed.ExecuteWorkflow(ctx, c, client.StartWorkflowOptions{ID: orderWorkflowID, TaskQueue: taskQueue}, OrderWorkflow, "A-1001")
	if err != nil {
		return err
	}
	for _, item := range []Item{{SKU: "mug", Cents: 1200}, {SKU: "", Cents: 100}, {SKU: "tea", Cents: 850}} {
		total, err := addItem(ctx, c, order.GetID(), item)
		if err != nil {
			fmt.Fprintf(out, "add %+v: rejected: %v\n", item, err)
			continue
		}
		fmt.Fprintf(out, "add %+v: total %d cents\n", item, total)
	}
	status, err := typed.QueryWorkflow0(ctx, c, order.GetID(), "", OrderStatus)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "status: %+v\n", status)
	if err := typed.SignalWorkflow(ctx, c, order.GetID(), "", Pay, Payment{Card: "4242424242424242"}); err != nil {
		return err
	}
	receipt, err := order.Get(ctx) // a Receipt
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "receipt: %+v\n", receipt)
	return nil
}

// addItem sends the add-item update and waits for the order's new total.
func addItem(ctx context.Context, c client.Client, orderID string, item Item) (int, error) {
	handle, err := typed.UpdateWorkflow(ctx, c, client.UpdateWorkflowOptions{
		WorkflowID:   orderID,
		WaitForStage: client.WorkflowUpdateStageCompleted,
	}, AddItem, item)
	if err != nil {
		return 0, err
	}
	return handle.Get(ctx)
}
