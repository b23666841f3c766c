package worker_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func callsMissingActivity(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Second, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	return workflow.ExecuteActivity(ctx, "NoSuchActivity").Get(ctx, nil)
}

// callsActivityBadly passes Greet, which takes a string, an int: as
// go.temporal.io/sdk, the worker schedules it (logging a warning), and the
// activity fails to decode it.
func callsActivityBadly(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 5 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
	return workflow.ExecuteActivity(ctx, Greet, 42).Get(ctx, nil) //workflowcheck:ignore the test's point: an argument of another type
}

func callsActivityWithoutTimeout(ctx workflow.Context) error {
	return workflow.ExecuteActivity(ctx, Greet, "x").Get(ctx, nil)
}

func TestBadInputGivesClearErrors(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(callsMissingActivity)
		w.RegisterWorkflow(callsActivityBadly)
		w.RegisterWorkflow(callsActivityWithoutTimeout)
		w.RegisterWorkflow(ActivitiesWorkflow)
		w.RegisterActivity(Greet)
	})
	start := func(wf any, args ...any) (client.WorkflowRun, error) {
		return c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, wf, args...)
	}
	mustFail := func(t *testing.T, err error, want ...string) {
		t.Helper()
		if err == nil {
			t.Fatal("want an error")
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q lacks %q", err, w)
			}
		}
	}

	t.Run("unregistered workflow type", func(t *testing.T) {
		run, err := start("NoSuchWorkflow")
		if err != nil {
			t.Fatal(err)
		}
		defer c.TerminateWorkflow(ctx, run.GetID(), "", "test done")
		waitFor(t, "the failed workflow task", func() bool {
			for _, e := range history(t, c, run.GetID()) {
				if a := e.GetWorkflowTaskFailedEventAttributes(); a != nil {
					return strings.Contains(a.GetFailure().GetMessage(), `workflow type "NoSuchWorkflow" is not registered with this worker`)
				}
			}
			return false
		})
	})
	t.Run("unregistered activity type", func(t *testing.T) {
		run, err := start(callsMissingActivity)
		if err != nil {
			t.Fatal(err)
		}
		err = run.Get(ctx, nil)
		var actErr *temporal.ActivityError
		if !errors.As(err, &actErr) {
			t.Fatalf("want an ActivityError, got %v", err)
		}
		mustFail(t, err, `activity type "NoSuchActivity" is not registered with this worker (registered: Greet)`)
	})
	t.Run("activity arguments that do not match", func(t *testing.T) {
		run, err := start(callsActivityBadly)
		if err != nil {
			t.Fatal(err)
		}
		err = run.Get(ctx, nil)
		var actErr *temporal.ActivityError
		if !errors.As(err, &actErr) {
			t.Fatalf("want the activity's failure, got %v", err)
		}
		mustFail(t, err, `activity "Greet": argument 1 (string)`, "cannot unmarshal number", "check the arguments the activity is called with")
	})
	t.Run("activity without a timeout", func(t *testing.T) {
		run, err := start(callsActivityWithoutTimeout)
		if err != nil {
			t.Fatal(err)
		}
		mustFail(t, run.Get(ctx, nil), "set neither StartToCloseTimeout nor ScheduleToCloseTimeout")
	})
	t.Run("workflow arguments that do not match", func(t *testing.T) {
		_, err := start(ActivitiesWorkflow, 1, 2)
		mustFail(t, err, `workflow "ActivitiesWorkflow" takes 1 argument(s) (string), but 2 were given`)
	})
	t.Run("workflow started by name with input of the wrong type", func(t *testing.T) {
		run, err := start("ActivitiesWorkflow", 7)
		if err != nil {
			t.Fatal(err)
		}
		mustFail(t, run.Get(ctx, nil), `workflow "ActivitiesWorkflow": argument 1 (string): unable to decode payload with encoding "json/plain" into string`)
	})
	t.Run("a value that cannot be encoded", func(t *testing.T) {
		_, err := start("ActivitiesWorkflow", make(chan int))
		mustFail(t, err, "argument 1 (chan int) cannot be encoded")
	})
}

// blocksNatively sleeps with the Go clock, which workflow code must not do.
//
//workflowcheck:ignore the deadlock test needs a workflow that blocks natively
func blocksNatively(ctx workflow.Context) error {
	time.Sleep(500 * time.Millisecond)
	return nil
}

func TestDeadlockDetectionFailsTheTask(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{DeadlockDetectionTimeout: 100 * time.Millisecond}, func(w worker.Worker) {
		w.RegisterWorkflow(blocksNatively)
	})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, blocksNatively)
	if err != nil {
		t.Fatal(err)
	}
	defer c.TerminateWorkflow(ctx, run.GetID(), "", "test done")
	waitFor(t, "the deadlock report", func() bool {
		for _, e := range history(t, c, run.GetID()) {
			if a := e.GetWorkflowTaskFailedEventAttributes(); a != nil {
				m := a.GetFailure().GetMessage()
				return strings.Contains(m, "potential deadlock detected") && strings.Contains(m, `coroutine "root"`) &&
					strings.Contains(a.GetFailure().GetStackTrace()+m, "blocksNatively")
			}
		}
		return false
	})
}

// unencodable cannot be encoded as JSON: it holds a channel.
type unencodable struct{ C chan int }

func ReturnsUnencodable(ctx context.Context) (unencodable, error) {
	return unencodable{C: make(chan int)}, nil
}

func callsReturnsUnencodable(ctx workflow.Context) error {
	// The default retry policy: attempts without end, were the error
	// retryable.
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 5 * time.Second})
	return workflow.ExecuteActivity(ctx, ReturnsUnencodable).Get(ctx, nil)
}

// returnsUnencodableResult returns a value holding a channel, which no
// converter can encode.
//
//workflowcheck:ignore the channel is the value that cannot be encoded, never used
func returnsUnencodableResult(ctx workflow.Context) (unencodable, error) {
	return unencodable{C: make(chan int)}, nil
}

// TestAResultThatCannotBeEncodedIsNotRetried: encoding the same kind of
// value again fails again, so an activity's or a workflow's result that
// cannot be encoded fails it for good, naming the type.
func TestAResultThatCannotBeEncodedIsNotRetried(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(callsReturnsUnencodable)
		w.RegisterWorkflow(returnsUnencodableResult)
		w.RegisterActivity(ReturnsUnencodable)
	})
	for _, wf := range []any{callsReturnsUnencodable, returnsUnencodableResult} {
		// A retry policy of the workflow's own retries it unless its
		// failure is non-retryable (the activity's, wrapped in an
		// ActivityError, is not: only the activity is not retried).
		opts := client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}
		if fn, ok := wf.(func(workflow.Context) (unencodable, error)); ok && fn != nil {
			opts.RetryPolicy = &temporal.RetryPolicy{MaximumAttempts: 3}
		}
		run, err := c.ExecuteWorkflow(ctx, opts, wf)
		if err != nil {
			t.Fatal(err)
		}
		err = run.Get(ctx, nil)
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || !appErr.NonRetryable() || appErr.Type() != "ResultEncodingError" ||
			!strings.Contains(appErr.Error(), "unencodable") || !strings.Contains(appErr.Error(), "cannot be encoded") {
			t.Fatalf("want a non-retryable ResultEncodingError naming the type, got %v", err)
		}
		events := history(t, c, run.GetID())
		for _, e := range events {
			if a := e.GetActivityTaskStartedEventAttributes(); a != nil && a.GetAttempt() != 1 {
				t.Errorf("the activity ran %d attempts, want 1", a.GetAttempt())
			}
		}
		if a := events[0].GetWorkflowExecutionStartedEventAttributes(); a.GetAttempt() != 1 {
			t.Errorf("the workflow ran attempt %d", a.GetAttempt())
		}
		desc, err := c.DescribeWorkflowExecution(ctx, run.GetID(), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := desc.GetWorkflowExecutionInfo().GetExecution().GetRunId(); got != run.GetRunID() {
			t.Errorf("the workflow was retried: its current run is %s, not %s", got, run.GetRunID())
		}
	}
}

// TestAnUpdateArgumentThatDoesNotDecodeSaysSoOnce: the error of an update
// whose argument does not decode wraps the decoder's error in two levels
// of context; each is said once (it used to repeat the cause four times).
func TestAnUpdateArgumentThatDoesNotDecodeSaysSoOnce(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(WaitsForSignal) })
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, WaitsForSignal)
	if err != nil {
		t.Fatal(err)
	}
	defer c.TerminateWorkflow(ctx, run.GetID(), "", "test done")
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), UpdateName: "echo", Args: []any{42},
		WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err == nil {
		t.Fatal("an update with an int for a string argument succeeded")
	}
	msg := err.Error()
	for _, part := range []string{`unable to decode the input for update "echo"`, "argument 1 (string)", "cannot unmarshal number"} {
		if n := strings.Count(msg, part); n != 1 {
			t.Errorf("the error says %q %d times, want once: %s", part, n, msg)
		}
	}
}
