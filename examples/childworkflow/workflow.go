package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/durable-go/sdk/workflow"
)

// Order is what the parent is asked to process: a customer's parcels,
// each shipped by a child workflow of its own.
type Order struct {
	ID      string
	Parcels []string
}

// ProcessOrder fans out: it starts one ShipParcel child per parcel, all at
// once, then waits for every child and combines their tracking numbers.
func ProcessOrder(ctx workflow.Context, order Order) ([]string, error) {
	shipments := make([]workflow.ChildWorkflowFuture, len(order.Parcels))
	for i, parcel := range order.Parcels {
		childCtx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			// A meaningful, unique ID makes the child easy to find and
			// keeps two runs of the same order from shipping twice.
			WorkflowID:         fmt.Sprintf("%s-parcel-%d", order.ID, i),
			WorkflowRunTimeout: time.Hour,
		})
		shipments[i] = workflow.ExecuteChildWorkflow(childCtx, ShipParcel, parcel)
	}
	trackingNumbers := make([]string, len(shipments))
	for i, shipment := range shipments {
		if err := shipment.Get(ctx, &trackingNumbers[i]); err != nil {
			return nil, fmt.Errorf("parcel %d (%s): %w", i, order.Parcels[i], err)
		}
	}
	return trackingNumbers, nil
}

// ShipParcel is the child: it ships one parcel and returns its tracking
// number. A real one would call activities and could run for days.
func ShipParcel(ctx workflow.Context, parcel string) (string, error) {
	if parcel == "" {
		return "", fmt.Errorf("ship parcel: the parcel has no content")
	}
	if err := workflow.Sleep(ctx, time.Second); err != nil { // the parcel in transit
		return "", err
	}
	return "TRK-" + strings.ToUpper(parcel), nil
}
