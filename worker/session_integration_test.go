package worker_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// sessionWorker is the name a session worker's WhoAmI activity answers.
type sessionWorker struct{ name string }

func (w *sessionWorker) WhoAmI(context.Context) (string, error) { return w.name, nil }

var sessionActivityOptions = workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second}

// pinnedSteps runs three WhoAmI activities in a session, completes it,
// recreates it from its token and runs one more: every answer must name
// the same worker.
func pinnedSteps(ctx workflow.Context) ([]string, error) {
	ctx = workflow.WithActivityOptions(ctx, sessionActivityOptions)
	options := &workflow.SessionOptions{CreationTimeout: 20 * time.Second, ExecutionTimeout: time.Minute}
	sessionCtx, err := workflow.CreateSession(ctx, options)
	if err != nil {
		return nil, err
	}
	var names []string
	for range 3 {
		var name string
		if err := workflow.ExecuteActivity(sessionCtx, "WhoAmI").Get(sessionCtx, &name); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	token := workflow.GetSessionInfo(sessionCtx).GetRecreateToken()
	workflow.CompleteSession(sessionCtx)
	again, err := workflow.RecreateSession(ctx, token, options)
	if err != nil {
		return nil, err
	}
	defer workflow.CompleteSession(again)
	var name string
	err = workflow.ExecuteActivity(again, "WhoAmI").Get(again, &name)
	return append(names, name), err
}

// startSessionWorkers starts, on taskQueue, a worker of workflows and a
// session worker per name whose WhoAmI answers that name; each session
// worker has its own client, so that a test can cut it off.
func startSessionWorkers(t *testing.T, taskQueue string, options worker.Options, names ...string) (map[string]worker.Worker, map[string]client.Client) {
	t.Helper()
	c := dial(t)
	wf := worker.New(c, taskQueue, worker.Options{})
	for _, fn := range []any{pinnedSteps, failover, boundedSessions} {
		wf.RegisterWorkflow(fn)
	}
	if err := wf.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(wf.Stop)
	workers, clients := map[string]worker.Worker{}, map[string]client.Client{}
	for _, name := range names {
		wc := dial(t)
		o := options
		// Session workers run activities only: were they to poll workflow
		// tasks too, they would take some and fail them (the workflows are
		// registered on wf only), and each such task would wait for its
		// timeout before wf got it.
		o.EnableSessionWorker, o.Identity, o.DisableWorkflowWorker = true, name, true
		w := worker.New(wc, taskQueue, o)
		w.RegisterActivityWithOptions((&sessionWorker{name}).WhoAmI, activity.RegisterOptions{Name: "WhoAmI"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
		workers[name], clients[name] = w, wc
	}
	return workers, clients
}

// startedBy maps each activity's scheduled event ID to the identity of the
// worker that started it, and its type.
func startedBy(events []*historypb.HistoryEvent) (identity, activityType map[int64]string) {
	identity, activityType = map[int64]string{}, map[int64]string{}
	for _, ev := range events {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			activityType[ev.GetEventId()] = a.GetActivityType().GetName()
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil {
			identity[a.GetScheduledEventId()] = a.GetIdentity()
		}
	}
	return identity, activityType
}

func TestSessionActivitiesRunOnOneWorker(t *testing.T) {
	tq := unique(t, "tq")
	startSessionWorkers(t, tq, worker.Options{}, "alpha", "beta")
	c := dial(t)
	ctx := testCtx(t)
	seen := map[string]bool{}
	for i := range 4 {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, fmt.Sprint("wf", i)), TaskQueue: tq}, pinnedSteps)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		if err := run.Get(ctx, &names); err != nil {
			t.Fatal(err)
		}
		if len(names) != 4 || strings.Count(strings.Join(names, ","), names[0]) != 4 {
			t.Fatalf("the activities of a session and of its recreation ran on different workers: %v", names)
		}
		seen[names[0]] = true
		// The server saw the same: one identity started every activity,
		// the creation and completion activities included.
		identity, types := startedBy(history(t, c, run.GetID()))
		started := map[string]int{}
		for id, who := range identity {
			started[types[id]]++
			if who != names[0] {
				t.Errorf("%s (event %d) was started by %s, the session ran on %s", types[id], id, who, names[0])
			}
		}
		// The last creation activity may end after the workflow, and
		// then its start is never written (a retried activity's start is
		// written with its outcome).
		if started["WhoAmI"] != 4 || started["internalSessionCompletionActivity"] != 2 || started["internalSessionCreationActivity"] < 1 {
			t.Errorf("activities started: %v, want 4 WhoAmI, 2 completions and 1 or 2 creations", started)
		}
		replayHere(t, c, run.GetID(), pinnedSteps)
	}
	t.Logf("sessions ran on %v", seen)
}

// replayHere replays a run's history with this SDK's replayer.
func replayHere(t *testing.T, c client.Client, id string, wf any) {
	t.Helper()
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflow(wf)
	if err := r.ReplayWorkflowHistory(logging.NewDefaultLogger(), &historypb.History{Events: history(t, c, id)}); err != nil {
		t.Fatalf("the history of %s does not replay: %v", id, err)
	}
}

// failover opens a session and runs WhoAmI in it; once the session has
// failed (its worker stopped or died), it checks that the session's
// activities fail with ErrSessionFailed, opens a new session and runs
// WhoAmI there. The query "first" answers where the first session ran.
func failover(ctx workflow.Context) ([]string, error) {
	ctx = workflow.WithActivityOptions(ctx, sessionActivityOptions)
	options := &workflow.SessionOptions{CreationTimeout: 20 * time.Second, ExecutionTimeout: time.Minute, HeartbeatTimeout: 5 * time.Second}
	var first string
	if err := workflow.SetQueryHandler(ctx, "first", func() (string, error) { return first, nil }); err != nil {
		return nil, err
	}
	sessionCtx, err := workflow.CreateSession(ctx, options)
	if err != nil {
		return nil, err
	}
	if err := workflow.ExecuteActivity(sessionCtx, "WhoAmI").Get(sessionCtx, &first); err != nil {
		return nil, err
	}
	info := workflow.GetSessionInfo(sessionCtx)
	if err := workflow.Await(ctx, func() bool { return info.SessionState == workflow.SessionStateFailed }); err != nil {
		return nil, err
	}
	err = workflow.ExecuteActivity(sessionCtx, "WhoAmI").Get(sessionCtx, nil)
	failed := fmt.Sprintf("failed=%v", errors.Is(err, workflow.ErrSessionFailed))
	next, err := workflow.CreateSession(ctx, options)
	if err != nil {
		return nil, err
	}
	defer workflow.CompleteSession(next)
	var second string
	err = workflow.ExecuteActivity(next, "WhoAmI").Get(next, &second)
	return []string{first, failed, second}, err
}

// runFailover runs failover on two session workers and, once the first
// session runs, loses its worker with lose; it returns the history.
func runFailover(t *testing.T, lose func(w worker.Worker, c client.Client)) []*historypb.HistoryEvent {
	tq := unique(t, "tq")
	workers, clients := startSessionWorkers(t, tq, worker.Options{}, "alpha", "beta")
	c := dial(t)
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, failover)
	if err != nil {
		t.Fatal(err)
	}
	var first string
	waitFor(t, "the first session's activity", func() bool {
		v, err := c.QueryWorkflow(ctx, run.GetID(), "", "first")
		return err == nil && v.Get(&first) == nil && first != ""
	})
	lose(workers[first], clients[first])
	var result []string
	if err := run.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	if len(result) != 3 || result[0] != first || result[1] != "failed=true" || result[2] == first {
		t.Fatalf("got %v: want the first session on %s, its next activity failing with ErrSessionFailed, the next session on the other worker", result, first)
	}
	replayHere(t, c, run.GetID(), failover)
	return history(t, c, run.GetID())
}

// firstCreationOutcome is the event that ended the first session's
// creation activity.
func firstCreationOutcome(t *testing.T, events []*historypb.HistoryEvent) *historypb.HistoryEvent {
	t.Helper()
	var creation int64
	for _, ev := range events {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && creation == 0 && a.GetActivityType().GetName() == "internalSessionCreationActivity" {
			creation = ev.GetEventId()
		}
		failed, timedOut := ev.GetActivityTaskFailedEventAttributes(), ev.GetActivityTaskTimedOutEventAttributes()
		if creation != 0 && (failed.GetScheduledEventId() == creation || timedOut.GetScheduledEventId() == creation) {
			return ev
		}
	}
	t.Fatal("the first session's creation activity neither failed nor timed out")
	return nil
}

func TestAStoppedSessionWorkerFailsItsSessionAndAnotherTakesOver(t *testing.T) {
	events := runFailover(t, func(w worker.Worker, _ client.Client) { w.Stop() })
	ev := firstCreationOutcome(t, events)
	f := ev.GetActivityTaskFailedEventAttributes().GetFailure()
	if f.GetApplicationFailureInfo().GetType() != "SessionWorkerShutdown" || !f.GetApplicationFailureInfo().GetNonRetryable() {
		t.Fatalf("the creation activity of the stopped worker ended with %v, want a non-retryable SessionWorkerShutdown failure", ev)
	}
}

func TestADeadSessionWorkerIsDetectedByItsHeartbeats(t *testing.T) {
	// Closing the worker's connection silences it without a word to the
	// server, as a crash would; the session's heartbeat timeout is 5s.
	events := runFailover(t, func(_ worker.Worker, c client.Client) { c.Close() })
	ev := firstCreationOutcome(t, events)
	if ev.GetActivityTaskTimedOutEventAttributes().GetFailure().GetTimeoutFailureInfo().GetTimeoutType() != enumspb.TIMEOUT_TYPE_HEARTBEAT {
		t.Fatalf("the creation activity of the dead worker ended with %v, want a heartbeat timeout", ev)
	}
}

// boundedSessions opens a session on a worker that runs one at a time;
// a second session, wanted within 2s, fails; a third, wanted within 30s,
// opens once the first completes, 3s later.
func boundedSessions(ctx workflow.Context) ([]string, error) {
	ctx = workflow.WithActivityOptions(ctx, sessionActivityOptions)
	first, err := workflow.CreateSession(ctx, &workflow.SessionOptions{CreationTimeout: 20 * time.Second, ExecutionTimeout: time.Minute})
	if err != nil {
		return nil, err
	}
	_, err = workflow.CreateSession(ctx, &workflow.SessionOptions{CreationTimeout: 2 * time.Second, ExecutionTimeout: time.Minute})
	var timeout *temporal.TimeoutError
	second := fmt.Sprintf("second: timeout=%v", errors.As(err, &timeout) && timeout.TimeoutType() == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START)
	var third string
	done := workflow.NewChannel(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer done.Close()
		s, err := workflow.CreateSession(ctx, &workflow.SessionOptions{CreationTimeout: 30 * time.Second, ExecutionTimeout: time.Minute})
		if err != nil {
			third = "third: " + err.Error()
			return
		}
		defer workflow.CompleteSession(s)
		third = "third: opened"
	})
	if err := workflow.Sleep(ctx, 3*time.Second); err != nil {
		return nil, err
	}
	thirdBeforeCompletion := third
	workflow.CompleteSession(first)
	done.Receive(ctx, nil)
	return []string{second, "before completion: " + thirdBeforeCompletion, third}, nil
}

func TestMaxConcurrentSessionExecutionSizeBoundsTheWorkersSessions(t *testing.T) {
	tq := unique(t, "tq")
	startSessionWorkers(t, tq, worker.Options{MaxConcurrentSessionExecutionSize: 1}, "solo")
	c := dial(t)
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, boundedSessions)
	if err != nil {
		t.Fatal(err)
	}
	var result []string
	if err := run.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	want := []string{"second: timeout=true", "before completion: ", "third: opened"}
	if fmt.Sprint(result) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", result, want)
	}
	// Completing a session cancels its creation activity and runs the
	// completion activity on the session's worker.
	events := history(t, c, run.GetID())
	if n := countEvents(events, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED); n != 2 {
		t.Errorf("%d creation activities were canceled, want 2 (one per completed session)", n)
	}
	identity, types := startedBy(events)
	completions := 0
	for id, typ := range types {
		if typ == "internalSessionCompletionActivity" {
			completions++
			if identity[id] != "solo" {
				t.Errorf("the completion activity (event %d) ran on %q", id, identity[id])
			}
		}
	}
	if completions != 2 {
		t.Errorf("%d completion activities, want 2", completions)
	}
	replayHere(t, c, run.GetID(), boundedSessions)
}
