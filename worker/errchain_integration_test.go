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

// Errors whose chain of wrapped errors never ends, returned by activities,
// local activities, workflows and update handlers: errors.Is on them
// would spin a core for ever (go.temporal.io/sdk overflows its stack and
// crashes). Here each fails with a message that says why, the worker's
// slots are freed, and Stop returns.

// selfWrapping's Unwrap returns itself; its Error would recurse through
// the cycle, as a wrapper's that formats its cause does.
type selfWrapping struct{ what string }

func (e *selfWrapping) Error() string { return e.what + ": " + e.Unwrap().Error() }
func (e *selfWrapping) Unwrap() error { return e }

// wrapsTheOther and wrappedBack unwrap to each other.
type wrapsTheOther struct{ other *wrappedBack }
type wrappedBack struct{ first *wrapsTheOther }

func (e *wrapsTheOther) Error() string { return "wraps the other" }
func (e *wrapsTheOther) Unwrap() error { return e.other }
func (e *wrappedBack) Error() string   { return "wrapped back" }
func (e *wrappedBack) Unwrap() error   { return e.first }

// joinsItself's Unwrap() []error holds itself.
type joinsItself struct{}

func (e *joinsItself) Error() string   { return "joins itself" }
func (e *joinsItself) Unwrap() []error { return []error{errors.New("a cause"), e} }

// layer is one level of a chain too deep to walk.
type layer struct{ next error }

func (e *layer) Error() string { return "layer" }
func (e *layer) Unwrap() error { return e.next }

// unwalkableError makes the error of each kind, with what the failure
// that reports it must say.
func unwalkableError(kind string) error {
	switch kind {
	case "self":
		return &selfWrapping{what: "looping"}
	case "pair":
		first := &wrapsTheOther{}
		first.other = &wrappedBack{first: first}
		return first
	case "joined":
		return &joinsItself{}
	case "deep":
		err := errors.New("bottom")
		for range 5000 {
			err = &layer{next: err}
		}
		return err
	}
	return fmt.Errorf("no kind %q", kind)
}

var unwalkableKinds = map[string]string{
	"self":   "the error (*worker_test.selfWrapping) cannot be reported: its chain of wrapped errors is cyclic: the Unwrap method of *worker_test.selfWrapping returns that very error",
	"pair":   "the error (*worker_test.wrapsTheOther) cannot be reported: its chain of wrapped errors is cyclic: *worker_test.wrapsTheOther → *worker_test.wrappedBack → back to the first",
	"joined": "the error (*worker_test.joinsItself) cannot be reported: its chain of wrapped errors is cyclic: the Unwrap method of *worker_test.joinsItself returns that very error",
	"deep":   "the error (*worker_test.layer) cannot be reported: its chain of wrapped errors is deeper than 1000 errors",
}

func ReturnsUnwalkableError(_ context.Context, kind string) error { return unwalkableError(kind) }

// describeFailure is an activity error's cause, as "type: message".
func describeFailure(err error) string {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) {
		return fmt.Sprintf("not an ApplicationError: %v", err)
	}
	return app.Type() + ": " + app.Message()
}

// UnwalkableActivityErrors runs an activity and a local activity that
// return an unwalkable error, each once (the worker has one slot of each
// kind), then one more of each that must find the slot free.
func UnwalkableActivityErrors(ctx workflow.Context, kind string) ([]string, error) {
	once := &temporal.RetryPolicy{MaximumAttempts: 1}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 20 * time.Second, RetryPolicy: once})
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 20 * time.Second, RetryPolicy: once})
	var got []string
	err := workflow.ExecuteActivity(ctx, ReturnsUnwalkableError, kind).Get(ctx, nil)
	got = append(got, describeFailure(err))
	err = workflow.ExecuteLocalActivity(ctx, ReturnsUnwalkableError, kind).Get(ctx, nil)
	got = append(got, describeFailure(err))
	var greeting string
	if err := workflow.ExecuteActivity(ctx, Greet, "activity").Get(ctx, &greeting); err != nil {
		return nil, err
	}
	got = append(got, greeting)
	if err := workflow.ExecuteLocalActivity(ctx, Greet, "local activity").Get(ctx, &greeting); err != nil {
		return nil, err
	}
	return append(got, greeting), nil
}

func ReturnsUnwalkableWorkflowError(_ workflow.Context, kind string) error {
	return unwalkableError(kind)
}

// UnwalkableUpdateError has an update handler that returns an unwalkable
// error, and ends when the "done" signal comes.
func UnwalkableUpdateError(ctx workflow.Context) error {
	if err := workflow.SetUpdateHandler(ctx, "fails", func(_ workflow.Context, kind string) error {
		return unwalkableError(kind)
	}); err != nil {
		return err
	}
	workflow.GetSignalChannel(ctx, "done").Receive(ctx, nil)
	return nil
}

// PanicsWithUnwalkableError panics with an unwalkable error: its workflow
// task fails, and the server retries it, as for any panic.
func PanicsWithUnwalkableError(_ workflow.Context) error {
	panic(unwalkableError("self"))
}

func TestUnwalkableErrorsFailWithAClearMessage(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, w := startWorker(t, c, worker.Options{MaxConcurrentActivityExecutionSize: 1, MaxConcurrentLocalActivityExecutionSize: 1}, func(w worker.Worker) {
		w.RegisterWorkflow(UnwalkableActivityErrors)
		w.RegisterWorkflow(ReturnsUnwalkableWorkflowError)
		w.RegisterWorkflow(UnwalkableUpdateError)
		w.RegisterWorkflow(PanicsWithUnwalkableError)
		w.RegisterActivity(ReturnsUnwalkableError)
		w.RegisterActivity(Greet)
	})
	start := func(wf any, args ...any) client.WorkflowRun {
		t.Helper()
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, wf, args...)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	for kind, want := range unwalkableKinds {
		t.Run(kind, func(t *testing.T) {
			var got []string
			if err := start(UnwalkableActivityErrors, kind).Get(ctx, &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != 4 || got[2] != "Hello, activity!" || got[3] != "Hello, local activity!" {
				t.Fatalf("the workflow returned %q, want two failures, then an activity and a local activity that ran", got)
			}
			for i, what := range []string{"the activity", "the local activity"} {
				if !strings.Contains(got[i], want) {
					t.Errorf("%s failed with %q, want it to say %q", what, got[i], want)
				}
			}

			err := start(ReturnsUnwalkableWorkflowError, kind).Get(ctx, nil)
			if got := describeFailure(err); !strings.Contains(got, want) {
				t.Errorf("the workflow failed with %q, want it to say %q", got, want)
			}

			run := start(UnwalkableUpdateError)
			handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), UpdateName: "fails",
				Args: []any{kind}, WaitForStage: client.WorkflowUpdateStageCompleted})
			if err != nil {
				t.Fatal(err)
			}
			if got := describeFailure(handle.Get(ctx, nil)); !strings.Contains(got, want) {
				t.Errorf("the update failed with %q, want it to say %q", got, want)
			}
			if err := c.SignalWorkflow(ctx, run.GetID(), "", "done", nil); err != nil {
				t.Fatal(err)
			}
			if err := run.Get(ctx, nil); err != nil {
				t.Errorf("the workflow of the update: %v", err)
			}
		})
	}

	t.Run("panic", func(t *testing.T) {
		run := start(PanicsWithUnwalkableError)
		defer c.TerminateWorkflow(ctx, run.GetID(), "", "test done")
		want := unwalkableKinds["self"]
		waitFor(t, "the failed workflow task", func() bool {
			for _, e := range history(t, c, run.GetID()) {
				if a := e.GetWorkflowTaskFailedEventAttributes(); a != nil {
					if !strings.Contains(a.GetFailure().GetMessage(), want) {
						t.Fatalf("the workflow task failed with %q, want it to say %q", a.GetFailure().GetMessage(), want)
					}
					return a.GetCause() == enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE
				}
			}
			return false
		})
	})

	stopped := make(chan struct{})
	go func() {
		w.Stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("Stop did not return")
	}
}
