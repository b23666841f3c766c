package temporaltest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// start starts a server and a client connected to it, both stopped at the
// test's end.
func start(t *testing.T, opts temporaltest.ServerOptions) (*temporaltest.Server, client.Client) {
	t.Helper()
	srv, err := temporaltest.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	c, err := client.Dial(srv.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return srv, c
}

// startWorker runs a worker on queue with the workflows and activities
// given, stopped at the test's end.
func startWorker(t *testing.T, c client.Client, queue string, workflows []any, activities []any) {
	t.Helper()
	w := worker.New(c, queue, worker.Options{})
	for _, wf := range workflows {
		w.RegisterWorkflow(wf)
	}
	for _, a := range activities {
		w.RegisterActivity(a)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
}

func Greet(_ context.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// Child returns its input, doubled.
func Child(_ workflow.Context, n int) (int, error) { return 2 * n, nil }

// Everything runs an activity, a timer, a child, waits for a signal,
// answers a query, and continues as new once.
func Everything(ctx workflow.Context, name string, round int) (string, error) {
	state := "started"
	if err := workflow.SetQueryHandler(ctx, "state", func() (string, error) { return state, nil }); err != nil {
		return "", err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var greeting string
	if err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	if err := workflow.Sleep(ctx, 10*time.Millisecond); err != nil {
		return "", err
	}
	var doubled int
	if err := workflow.ExecuteChildWorkflow(ctx, Child, 21).Get(ctx, &doubled); err != nil {
		return "", err
	}
	if round == 0 {
		return "", workflow.NewContinueAsNewError(ctx, Everything, name, 1)
	}
	state = "waiting"
	var suffix string
	workflow.GetSignalChannel(ctx, "finish").Receive(ctx, &suffix)
	return fmt.Sprintf("%s %d %s", greeting, doubled, suffix), nil
}

func TestAWorkflowRunsWithAClientAndAWorker(t *testing.T) {
	for _, inMemory := range []bool{false, true} {
		t.Run(fmt.Sprintf("inMemory=%v", inMemory), func(t *testing.T) {
			_, c := start(t, temporaltest.ServerOptions{InMemory: inMemory})
			startWorker(t, c, "everything", []any{Everything, Child}, []any{Greet})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "everything", TaskQueue: "everything"}, Everything, "Temporal", 0)
			if err != nil {
				t.Fatal(err)
			}
			firstRunID := run.GetRunID()
			// The second run (after continue-as-new) waits for the signal;
			// its query answers once it does.
			for {
				v, err := c.QueryWorkflow(ctx, "everything", "", "state")
				if err == nil {
					var state string
					if err := v.Get(&state); err != nil {
						t.Fatal(err)
					}
					if state == "waiting" {
						break
					}
				}
				select {
				case <-ctx.Done():
					t.Fatalf("the workflow never waited for its signal: %v", err)
				case <-time.After(5 * time.Millisecond):
				}
			}
			if err := c.SignalWorkflow(ctx, "everything", "", "finish", "done"); err != nil {
				t.Fatal(err)
			}
			var result string
			if err := run.Get(ctx, &result); err != nil {
				t.Fatal(err)
			}
			if want := "Hello, Temporal! 42 done"; result != want {
				t.Fatalf("result %q, want %q", result, want)
			}
			desc, err := c.DescribeWorkflowExecution(ctx, "everything", "")
			if err != nil {
				t.Fatal(err)
			}
			info := desc.GetWorkflowExecutionInfo()
			if info.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED || info.GetExecution().GetRunId() == firstRunID || info.GetFirstRunId() != firstRunID {
				t.Fatalf("the newest run is %s (%v, first run %s); want the run continued from %s, completed", info.GetExecution().GetRunId(), info.GetStatus(), info.GetFirstRunId(), firstRunID)
			}
		})
	}
}

func TestAnUnservedCallSaysToUseADevServer(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{})
	if _, err := c.CheckHealth(context.Background(), &client.CheckHealthRequest{}); err != nil {
		t.Fatalf("the health check failed: %v", err)
	}
	_, err := c.ResetWorkflowExecution(context.Background(), &workflowservice.ResetWorkflowExecutionRequest{Namespace: srv.Namespace()})
	if err == nil {
		t.Fatal("ResetWorkflowExecution succeeded; the embedded server does not reset runs")
	}
	conn, err := grpc.NewClient(srv.HostPort(), srv.DialOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = workflowservice.NewWorkflowServiceClient(conn).ResetWorkflowExecution(context.Background(), &workflowservice.ResetWorkflowExecutionRequest{Namespace: srv.Namespace()})
	st := status.Convert(err)
	if st.Code() != codes.Unimplemented || !strings.Contains(st.Message(), "ResetWorkflowExecution") || !strings.Contains(st.Message(), "temporal server start-dev") {
		t.Fatalf("ResetWorkflowExecution answered %v %q; want Unimplemented naming the call and the dev server", st.Code(), st.Message())
	}
}

func TestAStartOfARunningWorkflowIDFails(t *testing.T) {
	_, c := start(t, temporaltest.ServerOptions{})
	ctx := context.Background()
	opts := client.StartWorkflowOptions{ID: "twice", TaskQueue: "nobody-polls"}
	first, err := c.ExecuteWorkflow(ctx, opts, "Anything")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "twice", TaskQueue: "nobody-polls", WorkflowExecutionErrorWhenAlreadyStarted: true}, "Anything")
	if !temporal.IsWorkflowExecutionAlreadyStartedError(err) {
		t.Fatalf("a second start answered %v; want WorkflowExecutionAlreadyStarted", err)
	}
	opts.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	again, err := c.ExecuteWorkflow(ctx, opts, "Anything")
	if err != nil {
		t.Fatal(err)
	}
	if again.GetRunID() != first.GetRunID() {
		t.Fatalf("USE_EXISTING gave run %s; want the running %s", again.GetRunID(), first.GetRunID())
	}
	if err := c.TerminateWorkflow(ctx, "twice", "", "done"); err != nil {
		t.Fatal(err)
	}
	err = first.Get(ctx, nil)
	var terminated *temporal.TerminatedError
	if !errors.As(err, &terminated) {
		t.Fatalf("the terminated run's Get answered %v; want a TerminatedError", err)
	}
}

// Month sleeps for 30 days and reports how long it slept by the
// workflow's clock.
func Month(ctx workflow.Context) (time.Duration, error) {
	start := workflow.Now(ctx)
	if err := workflow.Sleep(ctx, 30*24*time.Hour); err != nil {
		return 0, err
	}
	return workflow.Now(ctx).Sub(start), nil
}

func TestWithTimeSkippingAMonthLongSleepCompletesAtOnce(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{TimeSkipping: true})
	startWorker(t, c, "month", []any{Month}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	before := srv.Now()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "month", TaskQueue: "month"}, Month)
	if err != nil {
		t.Fatal(err)
	}
	var slept time.Duration
	if err := run.Get(ctx, &slept); err != nil {
		t.Fatal(err)
	}
	if slept != 30*24*time.Hour {
		t.Fatalf("the workflow slept %v by its clock; want 720h", slept)
	}
	if passed := srv.Now().Sub(before); passed < 30*24*time.Hour {
		t.Fatalf("the server's clock moved %v; want at least 720h", passed)
	}
	var types []string
	it := c.GetWorkflowHistory(ctx, "month", run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetTimerStartedEventAttributes(); a != nil && a.GetStartToFireTimeout().AsDuration() != 30*24*time.Hour {
			t.Fatalf("the timer was started for %v; want 720h", a.GetStartToFireTimeout().AsDuration())
		}
		types = append(types, ev.GetEventType().String())
	}
	got := strings.Join(types, " ")
	if !strings.Contains(got, "TimerStarted TimerFired") {
		t.Fatalf("the history %s has no timer that started and fired", got)
	}
}

func TestWithoutTimeSkippingTimersRunInWallTime(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{})
	if err := srv.SkipTime(time.Hour); !errors.Is(err, temporaltest.ErrNoTimeSkipping) {
		t.Fatalf("SkipTime on a wall-time server answered %v; want ErrNoTimeSkipping", err)
	}
	startWorker(t, c, "short", []any{Short}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	began := time.Now()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "short", TaskQueue: "short"}, Short)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took < 200*time.Millisecond {
		t.Fatalf("a workflow that sleeps 200ms took %v", took)
	}
}

// Short sleeps for 200ms.
func Short(ctx workflow.Context) error { return workflow.Sleep(ctx, 200*time.Millisecond) }

func TestSkipTimeFiresTheTimersDueAndLockStopsSkipping(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{TimeSkipping: true})
	if err := srv.LockTimeSkipping(); err != nil {
		t.Fatal(err)
	}
	startWorker(t, c, "month", []any{Month}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "locked", TaskQueue: "month"}, Month)
	if err != nil {
		t.Fatal(err)
	}
	// Locked, the clock does not skip: the workflow waits on its timer
	// (set before SkipTime, or the skip would outrun it and fire the
	// workflow task's timeout instead).
	waitForEvent(t, c, "locked", enumspb.EVENT_TYPE_TIMER_STARTED)
	waitCtx, waitCancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer waitCancel()
	if err := run.Get(waitCtx, nil); err == nil {
		t.Fatal("the workflow completed while time skipping was locked")
	}
	if err := srv.SkipTime(30 * 24 * time.Hour); err != nil {
		t.Fatal(err)
	}
	var slept time.Duration
	if err := run.Get(ctx, &slept); err != nil {
		t.Fatal(err)
	}
	if slept != 30*24*time.Hour {
		t.Fatalf("the workflow slept %v by its clock; want 720h", slept)
	}
	if err := srv.UnlockTimeSkipping(); err != nil {
		t.Fatal(err)
	}
	if err := srv.UnlockTimeSkipping(); err == nil {
		t.Fatal("a second UnlockTimeSkipping after one lock succeeded")
	}
	// Unlocked, Sleep skips over an hour at once.
	before := srv.Now()
	if err := srv.Sleep(ctx, time.Hour); err != nil {
		t.Fatal(err)
	}
	if passed := srv.Now().Sub(before); passed < time.Hour {
		t.Fatalf("Sleep(1h) moved the clock %v", passed)
	}
}

// Counter adds what its updates ask until the signal "stop", rejecting
// negative amounts in its validator.
func Counter(ctx workflow.Context) (int, error) {
	total := 0
	err := workflow.SetUpdateHandlerWithOptions(ctx, "add", func(_ workflow.Context, n int) (int, error) {
		total += n
		return total, nil
	}, workflow.UpdateHandlerOptions{Validator: func(_ workflow.Context, n int) error {
		if n < 0 {
			return errors.New("negative")
		}
		return nil
	}})
	if err != nil {
		return 0, err
	}
	workflow.GetSignalChannel(ctx, "stop").Receive(ctx, nil)
	return total, nil
}

func TestUpdatesAndSignalWithStart(t *testing.T) {
	_, c := start(t, temporaltest.ServerOptions{})
	startWorker(t, c, "counter", []any{Counter}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "counter", TaskQueue: "counter"}, Counter)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 3} {
		h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: "counter", UpdateName: "add", Args: []any{n}, WaitForStage: client.WorkflowUpdateStageCompleted})
		if err != nil {
			t.Fatal(err)
		}
		var total int
		if err := h.Get(ctx, &total); err != nil {
			t.Fatal(err)
		}
	}
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{UpdateID: "negative", WorkflowID: "counter", UpdateName: "add", Args: []any{-1}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Get(ctx, nil); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Fatalf("the rejected update answered %v; want the validator's error", err)
	}
	// An accepted update, polled for by its handle afterwards.
	_, err = c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{UpdateID: "later", WorkflowID: "counter", UpdateName: "add", Args: []any{5}, WaitForStage: client.WorkflowUpdateStageAccepted})
	if err != nil {
		t.Fatal(err)
	}
	var total int
	if err := c.GetWorkflowUpdateHandle(client.GetWorkflowUpdateHandleOptions{WorkflowID: "counter", UpdateID: "later"}).Get(ctx, &total); err != nil || total != 10 {
		t.Fatalf("the polled update answered %d, %v; want 10", total, err)
	}
	// Signal-with-start signals the running workflow rather than start one.
	again, err := c.SignalWithStartWorkflow(ctx, "counter", "stop", nil, client.StartWorkflowOptions{TaskQueue: "counter"}, Counter)
	if err != nil {
		t.Fatal(err)
	}
	if again.GetRunID() != run.GetRunID() {
		t.Fatalf("signal-with-start went to run %s; want the running %s", again.GetRunID(), run.GetRunID())
	}
	if err := run.Get(ctx, &total); err != nil || total != 10 {
		t.Fatalf("the workflow returned %d, %v; want 10", total, err)
	}
	// With no run open, signal-with-start starts one with the signal
	// before its first workflow task, as a server writes it.
	started, err := c.SignalWithStartWorkflow(ctx, "counter", "stop", nil, client.StartWorkflowOptions{TaskQueue: "counter"}, Counter)
	if err != nil {
		t.Fatal(err)
	}
	if err := started.Get(ctx, &total); err != nil || total != 0 {
		t.Fatalf("the signal-with-start run returned %d, %v; want 0", total, err)
	}
	it := c.GetWorkflowHistory(ctx, "counter", started.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var types []string
	for it.HasNext() && len(types) < 3 {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, ev.GetEventType().String())
	}
	if got := strings.Join(types, " "); got != "WorkflowExecutionStarted WorkflowExecutionSignaled WorkflowTaskScheduled" {
		t.Fatalf("the signal-with-start run's history begins %s", got)
	}
}

// Flaky fails its first two attempts.
func Flaky(ctx workflow.Context) (int32, error) {
	attempt := workflow.GetInfo(ctx).Attempt
	if attempt < 3 {
		return 0, temporal.NewApplicationError("not yet", "NotYet")
	}
	return attempt, nil
}

func TestATopLevelWorkflowRetriesUnderItsRetryPolicy(t *testing.T) {
	_, c := start(t, temporaltest.ServerOptions{TimeSkipping: true})
	startWorker(t, c, "flaky", []any{Flaky}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "flaky", TaskQueue: "flaky",
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Minute}}, Flaky)
	if err != nil {
		t.Fatal(err)
	}
	var attempt int32
	if err := run.Get(ctx, &attempt); err != nil || attempt != 3 {
		t.Fatalf("the workflow returned %d, %v; want success on attempt 3", attempt, err)
	}
}

// Wait waits for the signal "go".
func Wait(ctx workflow.Context) (string, error) {
	var s string
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, &s)
	return s, nil
}

// TestAWorkerThatDiesWithoutSayingSoLosesItsTasks stands for a worker
// that took a workflow task and died, and one that left a run on its
// sticky queue and died, neither calling ShutdownWorker: the tasks time
// out (start-to-close, sticky schedule-to-start) and a live worker takes
// them from the normal queue, as on a server.
func TestAWorkerThatDiesWithoutSayingSoLosesItsTasks(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "orphan", TaskQueue: "orphan", WorkflowTaskTimeout: time.Second}, Wait)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(srv.HostPort(), srv.DialOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	service := workflowservice.NewWorkflowServiceClient(conn)
	// The dead worker's first task: completed with no commands and a
	// sticky queue no one will poll.
	task, err := service.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{
		Namespace: srv.Namespace(), TaskQueue: &taskqueuepb.TaskQueue{Name: "orphan"}, Identity: "dead-worker"})
	if err != nil || len(task.GetTaskToken()) == 0 {
		t.Fatalf("polling for the first task: %v, %v", task, err)
	}
	if _, err := service.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{
		Namespace: srv.Namespace(), TaskToken: task.GetTaskToken(), Identity: "dead-worker",
		StickyAttributes: &taskqueuepb.StickyExecutionAttributes{
			WorkerTaskQueue:        &taskqueuepb.TaskQueue{Name: "dead-worker-sticky", Kind: enumspb.TASK_QUEUE_KIND_STICKY, NormalName: "orphan"},
			ScheduleToStartTimeout: durationpb.New(time.Second)},
	}); err != nil {
		t.Fatal(err)
	}
	// The signal's task waits on the dead sticky queue until it times
	// out; then another dead worker takes it from the normal queue and
	// never answers; then a live worker completes the workflow.
	if err := c.SignalWorkflow(ctx, "orphan", "", "go", "went"); err != nil {
		t.Fatal(err)
	}
	task, err = service.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{
		Namespace: srv.Namespace(), TaskQueue: &taskqueuepb.TaskQueue{Name: "orphan"}, Identity: "dead-worker-2"})
	if err != nil || len(task.GetTaskToken()) == 0 {
		t.Fatalf("polling for the task after the sticky timeout: %v, %v", task, err)
	}
	startWorker(t, c, "orphan", []any{Wait}, nil)
	var got string
	if err := run.Get(ctx, &got); err != nil || got != "went" {
		t.Fatalf("the workflow returned %q, %v", got, err)
	}
	var timeouts []string
	it := c.GetWorkflowHistory(ctx, "orphan", run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetWorkflowTaskTimedOutEventAttributes(); a != nil {
			timeouts = append(timeouts, a.GetTimeoutType().String())
		}
	}
	if got := strings.Join(timeouts, " "); got != "ScheduleToStart StartToClose" {
		t.Fatalf("the history's workflow task timeouts are %q; want ScheduleToStart StartToClose", got)
	}
}

func TestUpdateWithStartStartsTheRunAndUpdatesIt(t *testing.T) {
	_, c := start(t, temporaltest.ServerOptions{})
	startWorker(t, c, "counter", []any{Counter}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i, want := range []int{4, 7} { // the first starts the run, the second uses it
		op := c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: "counted", TaskQueue: "counter",
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, Counter)
		h, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
			UpdateOptions: client.UpdateWorkflowOptions{UpdateName: "add", Args: []any{[]int{4, 3}[i]}, WaitForStage: client.WorkflowUpdateStageCompleted}})
		if err != nil {
			t.Fatal(err)
		}
		var total int
		if err := h.Get(ctx, &total); err != nil || total != want {
			t.Fatalf("update-with-start %d answered %d, %v; want %d", i, total, err, want)
		}
	}
	if err := c.SignalWorkflow(ctx, "counted", "", "stop", nil); err != nil {
		t.Fatal(err)
	}
	var total int
	if err := c.GetWorkflow(ctx, "counted", "").Get(ctx, &total); err != nil || total != 7 {
		t.Fatalf("the workflow returned %d, %v; want 7", total, err)
	}
}

// release, once closed, lets Block return; each test makes its own.
var release atomic.Pointer[chan struct{}]

// Block waits for release.
func Block(ctx context.Context) error {
	select {
	case <-*release.Load():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Described upserts its memo, then runs Block.
func Described(ctx workflow.Context) error {
	if err := workflow.UpsertMemo(ctx, map[string]any{"note": "upserted"}); err != nil {
		return err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	return workflow.ExecuteActivity(ctx, Block).Get(ctx, nil)
}

func TestDescribeShowsUpsertsAndPendingActivities(t *testing.T) {
	released := make(chan struct{})
	release.Store(&released)
	_, c := start(t, temporaltest.ServerOptions{})
	startWorker(t, c, "described", []any{Described}, []any{Block})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "described", TaskQueue: "described"}, Described)
	if err != nil {
		t.Fatal(err)
	}
	for {
		desc, err := c.DescribeWorkflowExecution(ctx, "described", "")
		if err != nil {
			t.Fatal(err)
		}
		if pending := desc.GetPendingActivities(); len(pending) == 1 && pending[0].GetState() == enumspb.PENDING_ACTIVITY_STATE_STARTED {
			if pending[0].GetActivityType().GetName() != "Block" {
				t.Fatalf("the pending activity is %v", pending[0])
			}
			if note := string(desc.GetWorkflowExecutionInfo().GetMemo().GetFields()["note"].GetData()); note != `"upserted"` {
				t.Fatalf("the described memo's note is %s; want the upserted one", note)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the activity never showed as started")
		case <-time.After(5 * time.Millisecond):
		}
	}
	close(released)
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
}
