package main

import (
	"errors"
	"fmt"

	"github.com/durable-go/sdk/workflow"
)

// The hello world and the order workflow as they read with the untyped
// API, for the tests that check that both forms write the same history.

func greetingUntyped(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: activityOptions.StartToCloseTimeout})
	var greeting string
	err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting)
	return greeting, err
}

func orderWorkflowUntyped(ctx workflow.Context, orderID string) (Receipt, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var items []Item
	total, paid := 0, false

	err := workflow.SetQueryHandler(ctx, "status", func() (Status, error) {
		return Status{Items: len(items), TotalCents: total, Paid: paid}, nil
	})
	if err != nil {
		return Receipt{}, err
	}
	err = workflow.SetUpdateHandlerWithOptions(ctx, "add-item",
		func(ctx workflow.Context, item Item) (int, error) {
			// A handler gets the workflow's root context: its own options.
			ctx = workflow.WithActivityOptions(ctx, activityOptions)
			if err := workflow.ExecuteActivity(ctx, ReserveStock, item).Get(ctx, nil); err != nil {
				return 0, err
			}
			items = append(items, item)
			total += item.Cents
			return total, nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, item Item) error {
			switch {
			case paid:
				return errors.New("the order is paid: it takes no more items")
			case item.SKU == "" || item.Cents <= 0:
				return fmt.Errorf("item %+v needs a SKU and a price", item)
			}
			return nil
		}})
	if err != nil {
		return Receipt{}, err
	}

	var payment Payment
	workflow.GetSignalChannel(ctx, "pay").Receive(ctx, &payment)
	paid = true
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return Receipt{}, err
	}

	var chargeID string
	if err := workflow.ExecuteActivity(ctx, Charge, payment.Card, total).Get(ctx, &chargeID); err != nil {
		return Receipt{}, err
	}
	var tracking string
	if err := workflow.ExecuteChildWorkflow(ctx, Shipment, orderID, items).Get(ctx, &tracking); err != nil {
		return Receipt{}, err
	}
	receipt := Receipt{OrderID: orderID, ChargeID: chargeID, Cents: total, Tracking: tracking}
	if err := workflow.ExecuteActivity(ctx, SendReceipt, receipt).Get(ctx, nil); err != nil {
		return Receipt{}, err
	}
	return receipt, nil
}
