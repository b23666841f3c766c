package main

import (
	"context"
	"errors"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/workflow"
)

// Process runs DoWork until it finishes or the workflow is canceled. On
// cancellation it waits for DoWork to stop, then runs Cleanup in a
// disconnected context: ctx is canceled, so an activity scheduled with it
// would be canceled before it started.
func Process(ctx workflow.Context, steps int) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Hour,
		// A running activity learns that it is canceled from the answer
		// to a heartbeat, so a long activity heartbeats, well within
		// this timeout.
		HeartbeatTimeout: 5 * time.Second,
		// Wait for the activity to acknowledge the cancellation (return
		// ctx.Err()) rather than moving on as soon as it is requested.
		WaitForCancellation: true,
	})
	err := workflow.ExecuteActivity(ctx, DoWork, steps).Get(ctx, nil)
	if err == nil || !errors.Is(ctx.Err(), workflow.ErrCanceled) {
		return err
	}

	cleanupCtx, _ := workflow.NewDisconnectedContext(ctx)
	if err := workflow.ExecuteActivity(cleanupCtx, Cleanup).Get(cleanupCtx, nil); err != nil {
		return err
	}
	// Returning the cancellation error records the workflow as canceled
	// rather than failed.
	return ctx.Err()
}

// stepDuration is how long one step of DoWork takes.
var stepDuration = time.Second

// DoWork does steps steps, heartbeating its progress after each, and stops
// as soon as its context is canceled.
func DoWork(ctx context.Context, steps int) error {
	for step := 1; step <= steps; step++ {
		select {
		case <-ctx.Done():
			activity.GetLogger(ctx).Info("canceled", "steps done", step-1)
			return ctx.Err()
		case <-time.After(stepDuration):
		}
		activity.RecordHeartbeat(ctx, step)
	}
	return nil
}

// Cleanup releases what DoWork held.
func Cleanup(ctx context.Context) error {
	activity.GetLogger(ctx).Info("cleaning up")
	return nil
}
