package main

import (
	"github.com/durable-go/sdk/workflow"
)

// The names clients use to talk to a running Cart.
const (
	AddItemSignal  = "add-item"
	CheckoutSignal = "checkout"
	ItemsQuery     = "items"
)

// Cart is a shopping cart that lives as long as the customer shops: it
// adds each item that arrives on the add-item signal, answers the items
// query with what it holds at any moment, and returns the items once the
// checkout signal comes.
func Cart(ctx workflow.Context) ([]string, error) {
	items := []string{}
	// A query handler reads the workflow's state; it must not block or
	// change anything.
	if err := workflow.SetQueryHandler(ctx, ItemsQuery, func() ([]string, error) {
		return items, nil
	}); err != nil {
		return nil, err
	}

	addItem := workflow.GetSignalChannel(ctx, AddItemSignal)
	checkout := workflow.GetSignalChannel(ctx, CheckoutSignal)
	checkedOut := false
	selector := workflow.NewSelector(ctx)
	selector.AddReceive(addItem, func(c workflow.ReceiveChannel, more bool) {
		var item string
		c.Receive(ctx, &item)
		items = append(items, item)
	})
	selector.AddReceive(checkout, func(c workflow.ReceiveChannel, more bool) {
		c.Receive(ctx, nil)
		checkedOut = true
	})
	for !checkedOut {
		selector.Select(ctx)
	}
	// Items signalled together with the checkout are still in the cart.
	for {
		var item string
		if !addItem.ReceiveAsync(&item) {
			break
		}
		items = append(items, item)
	}
	return items, nil
}
