package main

import (
	"context"
	"errors"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// Job is a batch of items for ProcessItems.
type Job struct {
	Items int
	// CrashAfter makes the first attempt fail after that many items, as a
	// worker that dies mid-job would (0: never).
	CrashAfter int
}

// Progress is what ProcessItems reports.
type Progress struct {
	// ResumedAt is the item the last attempt started at.
	ResumedAt int
	// Done is the number of items processed, over all attempts.
	Done int
	// Attempt is the attempt that finished the job.
	Attempt int32
}

// RunJob runs ProcessItems, retrying it when it fails.
func RunJob(ctx workflow.Context, job Job) (Progress, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Hour,
		// A worker that dies mid-job stops heartbeating: the attempt
		// times out after this long rather than after the whole hour.
		HeartbeatTimeout: 10 * time.Second,
		RetryPolicy:      &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 5},
	})
	var progress Progress
	err := workflow.ExecuteActivity(ctx, ProcessItems, job).Get(ctx, &progress)
	return progress, err
}

// itemDuration is how long one item takes.
var itemDuration = 100 * time.Millisecond

// ProcessItems processes the job's items one by one and records the next
// item to process in each heartbeat. An attempt after a failure or a
// timeout starts where the last heartbeat said, not from the beginning.
func ProcessItems(ctx context.Context, job Job) (Progress, error) {
	next := 0
	if activity.HasHeartbeatDetails(ctx) {
		if err := activity.GetHeartbeatDetails(ctx, &next); err != nil {
			return Progress{}, err
		}
	}
	info := activity.GetInfo(ctx)
	progress := Progress{ResumedAt: next, Attempt: info.Attempt}
	activity.GetLogger(ctx).Info("processing", "from item", next, "attempt", info.Attempt)
	for ; next < job.Items; next++ {
		if info.Attempt == 1 && job.CrashAfter > 0 && next == job.CrashAfter {
			return progress, errors.New("simulated crash")
		}
		select {
		case <-ctx.Done():
			return progress, ctx.Err()
		case <-time.After(itemDuration): // process item next
		}
		// Heartbeats are throttled: the worker sends the latest details
		// at most every 0.8 x HeartbeatTimeout, and before the attempt's
		// outcome, so recording after every item costs nothing.
		activity.RecordHeartbeat(ctx, next+1)
	}
	progress.Done = next
	return progress, nil
}
