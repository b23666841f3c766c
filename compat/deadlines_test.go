package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// A call its context's deadline ends returns a *serviceerror.DeadlineExceeded
// on both SDKs, which code written for go.temporal.io/sdk asserts
// (err.(*serviceerror.DeadlineExceeded)), as the cross-SDK feature suite
// does for a query of a workflow whose worker is gone (issue 32 item 5).

// shortDeadline is the deadline of the calls that cannot end in time.
const shortDeadline = 2 * time.Second

// DeadlineWaitsOurs answers the query "state" and waits for the signal
// "finish".
func DeadlineWaitsOurs(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, "state", func() (string, error) { return "waiting", nil }); err != nil {
		return err
	}
	workflow.GetSignalChannel(ctx, "finish").Receive(ctx, nil)
	return nil
}

func DeadlineWaitsOfficial(ctx officialworkflow.Context) error {
	if err := officialworkflow.SetQueryHandler(ctx, "state", func() (string, error) { return "waiting", nil }); err != nil {
		return err
	}
	officialworkflow.GetSignalChannel(ctx, "finish").Receive(ctx, nil)
	return nil
}

// pastDeadline holds what the calls that cannot end in time returned.
type pastDeadline struct {
	query, get error
}

// ourCallsPastTheirDeadline starts DeadlineWaits on a worker, queries it
// once the worker has run it, stops the worker, and makes the calls that
// then cannot end before their deadline: a query, and Get of the run.
func ourCallsPastTheirDeadline(t *testing.T, c client.Client) pastDeadline {
	tq := fmt.Sprintf("deadline-ours-%d", time.Now().UnixNano())
	w := worker.New(c, tq, worker.Options{})
	w.RegisterWorkflowWithOptions(DeadlineWaitsOurs, workflow.RegisterOptions{Name: "DeadlineWaits"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq}, "DeadlineWaits")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.TerminateWorkflow(context.Background(), run.GetID(), "", "test done") })
	if _, err := c.QueryWorkflow(ctx, run.GetID(), "", "state"); err != nil {
		t.Fatalf("query while the worker runs: %v", err)
	}
	w.Stop()

	var got pastDeadline
	short, cancel := context.WithTimeout(context.Background(), shortDeadline)
	_, got.query = c.QueryWorkflow(short, run.GetID(), "", "state")
	cancel()
	short, cancel = context.WithTimeout(context.Background(), shortDeadline)
	got.get = c.GetWorkflow(short, run.GetID(), "").Get(short, nil)
	cancel()
	return got
}

func officialCallsPastTheirDeadline(t *testing.T, c officialclient.Client) pastDeadline {
	tq := fmt.Sprintf("deadline-official-%d", time.Now().UnixNano())
	w := officialworker.New(c, tq, officialworker.Options{})
	w.RegisterWorkflowWithOptions(DeadlineWaitsOfficial, officialworkflow.RegisterOptions{Name: "DeadlineWaits"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{TaskQueue: tq}, "DeadlineWaits")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.TerminateWorkflow(context.Background(), run.GetID(), "", "test done") })
	if _, err := c.QueryWorkflow(ctx, run.GetID(), "", "state"); err != nil {
		t.Fatalf("query while the worker runs: %v", err)
	}
	w.Stop()

	var got pastDeadline
	short, cancel := context.WithTimeout(context.Background(), shortDeadline)
	_, got.query = c.QueryWorkflow(short, run.GetID(), "", "state")
	cancel()
	short, cancel = context.WithTimeout(context.Background(), shortDeadline)
	got.get = c.GetWorkflow(short, run.GetID(), "").Get(short, nil)
	cancel()
	return got
}

func TestACallPastItsDeadlineIsServiceErrorDeadlineExceeded(t *testing.T) {
	ours, theirs := dialBoth(t)
	for sdk, got := range map[string]pastDeadline{
		"durable-go":         ourCallsPastTheirDeadline(t, ours),
		"go.temporal.io/sdk": officialCallsPastTheirDeadline(t, theirs),
	} {
		for call, err := range map[string]error{"QueryWorkflow of a workflow whose worker stopped": got.query, "WorkflowRun.Get": got.get} {
			if _, ok := err.(*serviceerror.DeadlineExceeded); !ok {
				t.Errorf("%s: %s past its deadline returned %T (%v), want *serviceerror.DeadlineExceeded", sdk, call, err, err)
			}
		}
	}
}
