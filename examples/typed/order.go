package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/workflow"
)

// An order: items are added with an update until the customer pays with a
// signal; the workflow then charges the card, ships the items with a child
// workflow, and sends the receipt. A query tells the order's status at any
// time.

type Item struct {
	SKU   string
	Cents int
}

type Payment struct {
	Card string
}

type Status struct {
	Items      int
	TotalCents int
	Paid       bool
}

type Receipt struct {
	OrderID  string
	ChargeID string
	Cents    int
	Tracking string
}

// The order's messages, declared once: the workflow and its clients use
// these, so they cannot disagree on a name or a type.
var (
	// AddItem adds an item to the order and returns the order's total.
	AddItem = typed.NewUpdate[Item, int]("add-item")
	// Pay is the customer's payment: the order is complete.
	Pay = typed.NewSignal[Payment]("pay")
	// OrderStatus tells what the order holds and whether it was paid.
	OrderStatus = typed.NewQuery0[Status]("status")
)

// The activities.

// ReserveStock sets an item aside for the order.
func ReserveStock(ctx context.Context, item Item) error { return nil }

// Charge charges the card and returns the charge's ID.
func Charge(ctx context.Context, card string, cents int) (string, error) {
	if card == "" {
		return "", temporal.NewNonRetryableApplicationError("no card", "NoCard", nil)
	}
	return fmt.Sprintf("ch_%s_%d", card[max(0, len(card)-4):], cents), nil
}

// BookCourier books a courier for the order's items and returns the
// tracking number.
func BookCourier(ctx context.Context, orderID string, items int) (string, error) {
	return fmt.Sprintf("TRK-%s-%d", orderID, items), nil
}

// SendReceipt mails the receipt.
func SendReceipt(ctx context.Context, receipt Receipt) error { return nil }

var activityOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 10 * time.Second,
	RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
}

// Shipment is the child workflow that ships the order's items.
func Shipment(ctx workflow.Context, orderID string, items []Item) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	return typed.ExecuteActivity2(ctx, BookCourier, orderID, len(items)).Get(ctx)
}

// OrderWorkflow runs one order.
func OrderWorkflow(ctx workflow.Context, orderID string) (Receipt, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var items []Item
	total, paid := 0, false

	err := typed.SetQueryHandler0(ctx, OrderStatus, func() (Status, error) {
		return Status{Items: len(items), TotalCents: total, Paid: paid}, nil
	})
	if err != nil {
		return Receipt{}, err
	}
	err = typed.SetUpdateHandlerWithOptions(ctx, AddItem,
		func(ctx workflow.Context, item Item) (int, error) {
			// A handler gets the workflow's root context: its own options.
			ctx = workflow.WithActivityOptions(ctx, activityOptions)
			if _, err := typed.ExecuteActivityNoResult(ctx, ReserveStock, item).Get(ctx); err != nil {
				return 0, err
			}
			items = append(items, item)
			total += item.Cents
			return total, nil
		},
		typed.UpdateHandlerOptions[Item]{Validator: func(ctx workflow.Context, item Item) error {
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

	payment, _ := typed.GetSignalChannel(ctx, Pay).Receive(ctx)
	paid = true
	// Items being added when the payment came are part of the order.
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return Receipt{}, err
	}

	chargeID, err := typed.ExecuteActivity2(ctx, Charge, payment.Card, total).Get(ctx)
	if err != nil {
		return Receipt{}, err
	}
	tracking, err := typed.ExecuteChildWorkflow2(ctx, Shipment, orderID, items).Get(ctx)
	if err != nil {
		return Receipt{}, err
	}
	receipt := Receipt{OrderID: orderID, ChargeID: chargeID, Cents: total, Tracking: tracking}
	if _, err := typed.ExecuteActivityNoResult(ctx, SendReceipt, receipt).Get(ctx); err != nil {
		return Receipt{}, err
	}
	return receipt, nil
}
