package main

import (
	"fmt"

	"github.com/durable-go/sdk/workflow"
)

// ReserveUpdate is the update that books seats.
const ReserveUpdate = "reserve"

// Event sells a fixed number of seats through the reserve update, which
// answers with the seats left, and completes when it is sold out.
func Event(ctx workflow.Context, seats int) (int, error) {
	left := seats
	reservations := 0
	err := workflow.SetUpdateHandlerWithOptions(ctx, ReserveUpdate,
		func(ctx workflow.Context, wanted int) (int, error) {
			left -= wanted
			reservations++
			return left, nil
		},
		workflow.UpdateHandlerOptions{
			// The validator runs before the update is accepted: an error
			// rejects the update, which then leaves no trace in the
			// workflow's history. It may read the state but not change it.
			Validator: func(ctx workflow.Context, wanted int) error {
				if wanted <= 0 {
					return fmt.Errorf("reserve %d seats: ask for at least one", wanted)
				}
				if wanted > left {
					return fmt.Errorf("reserve %d seats: only %d left", wanted, left)
				}
				return nil
			},
		})
	if err != nil {
		return 0, err
	}
	// Wait until sold out, then until every accepted update has returned
	// its answer to its caller.
	if err := workflow.Await(ctx, func() bool { return left == 0 && workflow.AllHandlersFinished(ctx) }); err != nil {
		return 0, err
	}
	return reservations, nil
}
