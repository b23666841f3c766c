package main

import (
	"context"
	"fmt"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// Trip is what to book.
type Trip struct {
	Traveller   string
	Destination string
}

// BookTrip books a car, a hotel and a flight. Each booking that succeeds
// pushes its compensation; if a later step fails, the compensations run in
// reverse order, so the trip is booked whole or not at all.
func BookTrip(ctx workflow.Context, trip Trip) (err error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
	})

	var compensations []any // activities that undo the steps done so far
	defer func() {
		if err == nil {
			return
		}
		// A disconnected context still runs activities once ctx is
		// canceled: a canceled trip is unbooked too.
		undoCtx, _ := workflow.NewDisconnectedContext(ctx)
		for i := len(compensations) - 1; i >= 0; i-- {
			if undoErr := workflow.ExecuteActivity(undoCtx, compensations[i], trip).Get(undoCtx, nil); undoErr != nil {
				// Keep going: one failed undo must not leave the others
				// undone. A real saga would alert someone here.
				workflow.GetLogger(ctx).Error("compensation failed", "error", undoErr)
			}
		}
	}()

	steps := []struct{ do, undo any }{
		{ReserveCar, CancelCar},
		{ReserveHotel, CancelHotel},
		{ReserveFlight, CancelFlight},
	}
	for _, step := range steps {
		if err := workflow.ExecuteActivity(ctx, step.do, trip).Get(ctx, nil); err != nil {
			return err
		}
		compensations = append(compensations, step.undo)
	}
	return nil
}

// The activities. Real ones would call booking services; these log.

func ReserveCar(ctx context.Context, trip Trip) error {
	activity.GetLogger(ctx).Info("car reserved", "traveller", trip.Traveller)
	return nil
}

func ReserveHotel(ctx context.Context, trip Trip) error {
	activity.GetLogger(ctx).Info("hotel reserved", "traveller", trip.Traveller)
	return nil
}

// ReserveFlight fails for destinations no airline serves; the failure is
// not retryable, as another attempt would fail the same way.
func ReserveFlight(ctx context.Context, trip Trip) error {
	if trip.Destination == "Atlantis" {
		return temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("reserve flight: no airline flies to %s", trip.Destination), "NoSuchRoute", nil)
	}
	activity.GetLogger(ctx).Info("flight reserved", "traveller", trip.Traveller)
	return nil
}

func CancelCar(ctx context.Context, trip Trip) error {
	activity.GetLogger(ctx).Info("car reservation canceled", "traveller", trip.Traveller)
	return nil
}

func CancelHotel(ctx context.Context, trip Trip) error {
	activity.GetLogger(ctx).Info("hotel reservation canceled", "traveller", trip.Traveller)
	return nil
}

func CancelFlight(ctx context.Context, trip Trip) error {
	activity.GetLogger(ctx).Info("flight reservation canceled", "traveller", trip.Traveller)
	return nil
}
