package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// heartbeatsTwiceThenWaits records "first" (sent at once) and "second"
// (held back by throttling), then waits to be released.
func heartbeatsTwiceThenWaits(ctx context.Context) error {
	activity.RecordHeartbeat(ctx, "first")
	activity.RecordHeartbeat(ctx, "second")
	<-ctx.Done()
	return ctx.Err()
}

func heartbeatThrottleWorkflow(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{ // no heartbeat timeout
		StartToCloseTimeout: 3 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	_ = workflow.ExecuteActivity(ctx, heartbeatsTwiceThenWaits).Get(ctx, nil)
	return nil
}

// worker.Options.DefaultHeartbeatThrottleInterval is the interval of an
// activity without a heartbeat timeout: the held-back heartbeat reaches the
// server at its end, long before the 30 s default's.
func TestDefaultHeartbeatThrottleInterval(t *testing.T) {
	c := dial(t)
	tq, _ := startWorker(t, c, worker.Options{DefaultHeartbeatThrottleInterval: 300 * time.Millisecond}, func(w worker.Worker) {
		w.RegisterWorkflow(heartbeatThrottleWorkflow)
		w.RegisterActivity(heartbeatsTwiceThenWaits)
	})
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, heartbeatThrottleWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var last string
	for deadline := time.Now().Add(2500 * time.Millisecond); time.Now().Before(deadline) && last != "second"; time.Sleep(50 * time.Millisecond) {
		desc, err := c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range desc.GetPendingActivities() {
			if a.GetHeartbeatDetails() != nil {
				if err := converter.GetDefaultDataConverter().FromPayloads(a.GetHeartbeatDetails(), &last); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if last != "second" {
		t.Errorf("the server's last heartbeat details are %q, want \"second\", sent at the end of a 300ms interval", last)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
}
