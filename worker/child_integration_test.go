package worker_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Children of the tests.

func childGreet(ctx workflow.Context, name string) (string, error) { return "hi " + name, nil }

func childFail(ctx workflow.Context) error {
	return temporal.NewApplicationError("child broke", "ChildBroke")
}

// childWaits sleeps until canceled, then says so.
func childWaits(ctx workflow.Context, d time.Duration) (string, error) {
	err := workflow.Sleep(ctx, d)
	if temporal.IsCanceledError(err) {
		return "", err
	}
	return "slept", err
}

// childCollects returns the first signal it gets.
func childCollects(ctx workflow.Context) (string, error) {
	var s string
	workflow.GetSignalChannel(ctx, "note").Receive(ctx, &s)
	return s, nil
}

// parentOf runs child with args and reports the result or the error
// chain, as a string the tests compare.
func parentOf(ctx workflow.Context, child string, opts workflow.ChildWorkflowOptions, args []any) (string, error) {
	ctx = workflow.WithChildOptions(ctx, opts)
	f := workflow.ExecuteChildWorkflow(ctx, child, args...)
	var exec workflow.Execution
	if err := f.GetChildWorkflowExecution().Get(ctx, &exec); err != nil {
		return describeChildErr(err), nil
	}
	var r string
	if err := f.Get(ctx, &r); err != nil {
		return describeChildErr(err), nil
	}
	return "ok:" + r, nil
}

func describeChildErr(err error) string {
	var childErr *temporal.ChildWorkflowExecutionError
	if !errors.As(err, &childErr) {
		return "not a child error: " + err.Error()
	}
	cause := errors.Unwrap(childErr)
	var app *temporal.ApplicationError
	var timeout *temporal.TimeoutError
	var canceled *temporal.CanceledError
	var terminated *temporal.TerminatedError
	var already *temporal.ChildWorkflowExecutionAlreadyStartedError
	switch {
	case errors.As(cause, &app):
		return "failed:" + app.Type()
	case errors.As(cause, &timeout):
		return "timed out"
	case errors.As(cause, &canceled):
		return "canceled"
	case errors.As(cause, &terminated):
		return "terminated"
	case errors.As(cause, &already):
		return "already started"
	}
	return fmt.Sprintf("other cause %T: %v", cause, cause)
}

func childParent(ctx workflow.Context, scenario string, childID string) (string, error) {
	switch scenario {
	case "completes":
		return parentOf(ctx, "childGreet", workflow.ChildWorkflowOptions{}, []any{"ann"})
	case "fails":
		return parentOf(ctx, "childFail", workflow.ChildWorkflowOptions{}, nil)
	case "times out":
		return parentOf(ctx, "childWaits", workflow.ChildWorkflowOptions{WorkflowRunTimeout: time.Second}, []any{time.Hour})
	case "already started":
		return parentOf(ctx, "childWaits", workflow.ChildWorkflowOptions{WorkflowID: childID}, []any{time.Hour})
	case "canceled after start", "canceled before start":
		cctx, cancel := workflow.WithCancel(ctx)
		cctx = workflow.WithChildOptions(cctx, workflow.ChildWorkflowOptions{WorkflowID: childID})
		f := workflow.ExecuteChildWorkflow(cctx, "childWaits", time.Hour)
		if scenario == "canceled after start" {
			if err := f.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
				return "", err
			}
		}
		cancel()
		if err := f.Get(ctx, nil); err != nil {
			return describeChildErr(err), nil
		}
		return "not canceled", nil
	case "signaled":
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: childID})
		f := workflow.ExecuteChildWorkflow(ctx, "childCollects")
		if err := f.SignalChildWorkflow(ctx, "note", "from parent").Get(ctx, nil); err != nil {
			return "", err
		}
		var r string
		err := f.Get(ctx, &r)
		return r, err
	case "signal external", "cancel external":
		if scenario == "signal external" {
			err := workflow.SignalExternalWorkflow(ctx, childID, "", "note", "from a stranger").Get(ctx, nil)
			return "signaled", err
		}
		err := workflow.RequestCancelExternalWorkflow(ctx, childID, "").Get(ctx, nil)
		return "cancel requested", err
	case "signal nobody":
		err := workflow.SignalExternalWorkflow(ctx, "no-such-workflow-"+childID, "", "note", 1).Get(ctx, nil)
		var unknown *temporal.UnknownExternalWorkflowExecutionError
		return fmt.Sprint(errors.As(err, &unknown)), nil
	case "abandon", "terminate", "request cancel":
		policy := map[string]enumspb.ParentClosePolicy{"abandon": enumspb.PARENT_CLOSE_POLICY_ABANDON,
			"terminate": enumspb.PARENT_CLOSE_POLICY_TERMINATE, "request cancel": enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL}[scenario]
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: childID, ParentClosePolicy: policy})
		f := workflow.ExecuteChildWorkflow(ctx, "childWaits", time.Hour)
		err := f.GetChildWorkflowExecution().Get(ctx, nil)
		return "left its child", err
	}
	return "", errors.New("no scenario " + scenario)
}

func registerChildren(w worker.Worker) {
	w.RegisterWorkflow(childParent)
	w.RegisterWorkflow(childGreet)
	w.RegisterWorkflow(childFail)
	w.RegisterWorkflow(childWaits)
	w.RegisterWorkflow(childCollects)
}

func TestChildWorkflowsOnADevServer(t *testing.T) {
	c := dial(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, registerChildren)
	cases := []struct {
		scenario string
		want     string
		// setup starts what the scenario needs beside the parent.
		setup func(t *testing.T, ctx context.Context, childID string) client.WorkflowRun
		// then checks the other workflow afterwards.
		then func(t *testing.T, ctx context.Context, other client.WorkflowRun)
	}{
		{scenario: "completes", want: "ok:hi ann"},
		{scenario: "fails", want: "failed:ChildBroke"},
		{scenario: "times out", want: "timed out"},
		{scenario: "canceled after start", want: "canceled"},
		{scenario: "canceled before start", want: "canceled"},
		{scenario: "signaled", want: "from parent"},
		{scenario: "signal nobody", want: "true"},
		{scenario: "already started", want: "already started", setup: startOther("childWaits", time.Hour)},
		{scenario: "signal external", want: "signaled", setup: startOther("childCollects"), then: wantResult("from a stranger")},
		{scenario: "cancel external", want: "cancel requested", setup: startOther("childWaits", time.Hour), then: wantCanceled},
		{scenario: "abandon", want: "left its child", then: wantStillRunning},
		{scenario: "terminate", want: "left its child", then: wantCloseStatus(enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED)},
		{scenario: "request cancel", want: "left its child", then: wantCloseStatus(enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED)},
	}
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			ctx := testCtx(t)
			childID := unique(t, "child")
			var other client.WorkflowRun
			if tc.setup != nil {
				other = tc.setup(t, ctx, childID)
			}
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "parent"), TaskQueue: taskQueue}, childParent, tc.scenario, childID)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			if err := run.Get(ctx, &got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if tc.then != nil {
				if other == nil {
					other = c.GetWorkflow(ctx, childID, "")
				}
				tc.then(t, ctx, other)
			}
			// The parent's new history replays.
			replayer := worker.NewWorkflowReplayer()
			replayer.RegisterWorkflow(childParent)
			if err := replayer.ReplayWorkflowHistory(nil, serverHistory(t, c, run)); err != nil {
				t.Fatalf("replaying the parent: %v", err)
			}
		})
	}
}

func startOther(workflowType string, args ...any) func(t *testing.T, ctx context.Context, id string) client.WorkflowRun {
	return func(t *testing.T, ctx context.Context, id string) client.WorkflowRun {
		c := dial(t)
		// On a queue of its own, with a worker of its own.
		taskQueue, _ := startWorker(t, c, worker.Options{}, registerChildren)
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, workflowType, args...)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
}

func wantResult(want string) func(t *testing.T, ctx context.Context, other client.WorkflowRun) {
	return func(t *testing.T, ctx context.Context, other client.WorkflowRun) {
		var got string
		if err := other.Get(ctx, &got); err != nil || got != want {
			t.Fatalf("the other workflow returned %q, %v; want %q", got, err, want)
		}
	}
}

func wantCanceled(t *testing.T, ctx context.Context, other client.WorkflowRun) {
	err := other.Get(ctx, nil)
	var canceled *temporal.CanceledError
	if !errors.As(err, &canceled) {
		t.Fatalf("the other workflow must end canceled, got %v", err)
	}
}

func wantStillRunning(t *testing.T, ctx context.Context, other client.WorkflowRun) {
	c := dial(t)
	d, err := c.DescribeWorkflowExecution(ctx, other.GetID(), "")
	if err != nil {
		t.Fatal(err)
	}
	if s := d.GetWorkflowExecutionInfo().GetStatus(); s != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		t.Fatalf("an abandoned child keeps running, got %v", s)
	}
	_ = c.TerminateWorkflow(ctx, other.GetID(), "", "test over")
}

func wantCloseStatus(want enumspb.WorkflowExecutionStatus) func(t *testing.T, ctx context.Context, other client.WorkflowRun) {
	return func(t *testing.T, ctx context.Context, other client.WorkflowRun) {
		c := dial(t)
		deadline := time.Now().Add(20 * time.Second)
		for {
			d, err := c.DescribeWorkflowExecution(ctx, other.GetID(), "")
			if err != nil {
				t.Fatal(err)
			}
			s := d.GetWorkflowExecutionInfo().GetStatus()
			if s == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("child status %v, want %v", s, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// Changed versions of the "completes" scenario of childParent.
func childRenamed(ctx workflow.Context, _ string, _ string) (string, error) {
	return parentOf(ctx, "childFail", workflow.ChildWorkflowOptions{}, nil)
}

func childRemoved(ctx workflow.Context, _ string, _ string) (string, error) { return "ok:hi ann", nil }

func childAdded(ctx workflow.Context, scenario string, childID string) (string, error) {
	_ = workflow.ExecuteChildWorkflow(ctx, "childGreet", "bob")
	return childParent(ctx, scenario, childID)
}

func TestChildChangesAreReportedAsNondeterminism(t *testing.T) {
	c := dial(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, registerChildren)
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "parent"), TaskQueue: taskQueue}, childParent, "completes", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	history := serverHistory(t, c, run)
	for _, tc := range []struct {
		name string
		wf   any
		want []string
	}{
		{"child renamed", childRenamed, []string{`type "childGreet"`, `type "childFail"`, "child workflow type differs"}},
		{"child removed", childRemoved, []string{"StartChildWorkflowExecutionInitiated", `type "childGreet"`, "the workflow code produced"}},
		{"child added", childAdded, []string{`StartChildWorkflowExecution (workflow "`, `type "childGreet"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			replayer := worker.NewWorkflowReplayer()
			replayer.RegisterWorkflowWithOptions(tc.wf, workflow.RegisterOptions{Name: "childParent"})
			err := replayer.ReplayWorkflowHistory(nil, history)
			if err == nil {
				t.Fatal("replay of changed code must fail")
			}
			for _, w := range append(tc.want, "nondeterministic workflow") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// historyFacts reports what the workflow's info says of its history.
func historyFacts(ctx workflow.Context) (string, error) {
	if err := workflow.Sleep(ctx, time.Millisecond); err != nil {
		return "", err
	}
	info := workflow.GetInfo(ctx)
	return fmt.Sprint(info.GetCurrentHistoryLength() > 4, info.GetCurrentHistorySize() > 100, info.GetContinueAsNewSuggested()), nil
}

func TestHistoryLengthAndSizeFromTheServer(t *testing.T) {
	c := dial(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(historyFacts) })
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, historyFacts)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil || got != "true true false" {
		t.Fatalf("got %q, %v", got, err)
	}
}
