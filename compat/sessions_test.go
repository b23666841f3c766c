package compat

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	ourtestsuite "github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The session workflows, once per SDK: a session running Greet and Shout,
// completed, recreated on the same worker from its token, running Greet
// again; and one that waits for its session to fail.

func sessionWorkflowOurs(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	options := &workflow.SessionOptions{CreationTimeout: time.Minute, ExecutionTimeout: time.Minute}
	s, err := workflow.CreateSession(ctx, options)
	if err != nil {
		return "", err
	}
	var greeting, shouted, last string
	if err := workflow.ExecuteActivity(s, Greet, name).Get(s, &greeting); err != nil {
		return "", err
	}
	if err := workflow.ExecuteActivity(s, Shout, greeting).Get(s, &shouted); err != nil {
		return "", err
	}
	token := workflow.GetSessionInfo(s).GetRecreateToken()
	workflow.CompleteSession(s)
	if s, err = workflow.RecreateSession(ctx, token, options); err != nil {
		return "", err
	}
	err = workflow.ExecuteActivity(s, Greet, shouted).Get(s, &last)
	workflow.CompleteSession(s)
	return greeting + " | " + shouted + " | " + last, err
}

func sessionWorkflowOfficial(ctx officialworkflow.Context, name string) (string, error) {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	options := &officialworkflow.SessionOptions{CreationTimeout: time.Minute, ExecutionTimeout: time.Minute}
	s, err := officialworkflow.CreateSession(ctx, options)
	if err != nil {
		return "", err
	}
	var greeting, shouted, last string
	if err := officialworkflow.ExecuteActivity(s, Greet, name).Get(s, &greeting); err != nil {
		return "", err
	}
	if err := officialworkflow.ExecuteActivity(s, Shout, greeting).Get(s, &shouted); err != nil {
		return "", err
	}
	token := officialworkflow.GetSessionInfo(s).GetRecreateToken()
	officialworkflow.CompleteSession(s)
	if s, err = officialworkflow.RecreateSession(ctx, token, options); err != nil {
		return "", err
	}
	err = officialworkflow.ExecuteActivity(s, Greet, shouted).Get(s, &last)
	officialworkflow.CompleteSession(s)
	return greeting + " | " + shouted + " | " + last, err
}

// sessionLossOfficial greets in a session (the query "greeted" says when),
// then waits for the session to fail and reports what its next activity
// returned.
func sessionLossOfficial(ctx officialworkflow.Context) (string, error) {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	greeted := false
	if err := officialworkflow.SetQueryHandler(ctx, "greeted", func() (bool, error) { return greeted, nil }); err != nil {
		return "", err
	}
	s, err := officialworkflow.CreateSession(ctx, &officialworkflow.SessionOptions{CreationTimeout: time.Minute, ExecutionTimeout: time.Minute})
	if err != nil {
		return "", err
	}
	if err := officialworkflow.ExecuteActivity(s, Greet, "session").Get(s, nil); err != nil {
		return "", err
	}
	greeted = true
	info := officialworkflow.GetSessionInfo(s)
	if err := officialworkflow.Await(ctx, func() bool { return info.SessionState == officialworkflow.SessionStateFailed }); err != nil {
		return "", err
	}
	err = officialworkflow.ExecuteActivity(s, Greet, "again").Get(s, nil)
	return fmt.Sprintf("ErrSessionFailed=%v", errors.Is(err, officialworkflow.ErrSessionFailed)), nil
}

const sessionResult = "Hello, Temporal! | HELLO, TEMPORAL! | Hello, HELLO, TEMPORAL!!"

// checkStartedBy checks that the worker with identity started every
// activity of the run: the 3 of the workflow and the 2 completions, and
// the creations. The last creation activity may end after the workflow,
// and then its start is never written (a retried activity's start is
// written with its outcome).
func checkStartedBy(t *testing.T, c client.Client, id, identity string) {
	t.Helper()
	types, started := map[int64]string{}, map[string]int{}
	for _, ev := range fullHistory(t, c, id).GetEvents() {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			types[ev.GetEventId()] = a.GetActivityType().GetName()
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil {
			typ := types[a.GetScheduledEventId()]
			started[typ]++
			if a.GetIdentity() != identity {
				t.Errorf("%s was started by %q, want %q", typ, a.GetIdentity(), identity)
			}
		}
	}
	if started["Greet"] != 2 || started["Shout"] != 1 || started["internalSessionCompletionActivity"] != 2 || started["internalSessionCreationActivity"] < 1 {
		t.Errorf("activities started: %v, want Greet twice, Shout, 2 completions and 1 or 2 creations", started)
	}
}

func runSessionWorkflow(t *testing.T, c client.Client, tq string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: tq}, "SessionWorkflow", "Temporal")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil {
		t.Fatal(err)
	}
	if got != sessionResult {
		t.Fatalf("result %q, want %q", got, sessionResult)
	}
	return id
}

// TestSessionHistoriesWrittenHereReplayOnTheOfficialSDK runs the session
// workflow on this SDK's workers and replays it with the official replayer.
func TestSessionHistoriesWrittenHereReplayOnTheOfficialSDK(t *testing.T) {
	c, _ := dialBoth(t)
	tq := fmt.Sprintf("sessions-ours-%d", time.Now().UnixNano())
	w := worker.New(c, tq, worker.Options{EnableSessionWorker: true})
	w.RegisterWorkflowWithOptions(sessionWorkflowOurs, workflow.RegisterOptions{Name: "SessionWorkflow"})
	w.RegisterActivity(Greet)
	w.RegisterActivity(Shout)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	id := runSessionWorkflow(t, c, tq)
	replayer := officialworker.NewWorkflowReplayer()
	replayer.RegisterWorkflowWithOptions(sessionWorkflowOfficial, officialworkflow.RegisterOptions{Name: "SessionWorkflow"})
	if err := replayer.ReplayWorkflowHistory(quiet{}, fullHistory(t, c, id)); err != nil {
		t.Fatalf("the official replayer rejects this SDK's session history: %v", err)
	}
}

// TestTestEnvironmentSessionHistoriesReplayOnTheOfficialSDK runs the
// session workflow in this SDK's test environment, whose history is
// meant to be a server's, and replays it with the official replayer.
func TestTestEnvironmentSessionHistoriesReplayOnTheOfficialSDK(t *testing.T) {
	var s ourtestsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{EnableSessionWorker: true})
	env.RegisterWorkflowWithOptions(sessionWorkflowOurs, workflow.RegisterOptions{Name: "SessionWorkflow"})
	env.RegisterActivity(Greet)
	env.RegisterActivity(Shout)
	env.ExecuteWorkflow("SessionWorkflow", "Temporal")
	var got string
	if err := env.GetWorkflowResult(&got); err != nil || got != sessionResult {
		t.Fatalf("result %q, %v", got, err)
	}
	h, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	replayer := officialworker.NewWorkflowReplayer()
	replayer.RegisterWorkflowWithOptions(sessionWorkflowOfficial, officialworkflow.RegisterOptions{Name: "SessionWorkflow"})
	if err := replayer.ReplayWorkflowHistory(quiet{}, h); err != nil {
		t.Fatalf("the official replayer rejects the test environment's session history: %v", err)
	}
}

// TestSessionsAcrossSDKs runs sessions of one SDK's workflows on the
// other SDK's session workers: the protocol on the wire is the same.
func TestSessionsAcrossSDKs(t *testing.T) {
	c, oc := dialBoth(t)
	t.Run("our workflow, official session worker", func(t *testing.T) {
		tq := fmt.Sprintf("sessions-a-%d", time.Now().UnixNano())
		w := worker.New(c, tq, worker.Options{})
		w.RegisterWorkflowWithOptions(sessionWorkflowOurs, workflow.RegisterOptions{Name: "SessionWorkflow"})
		ow := officialworker.New(oc, tq, officialworker.Options{EnableSessionWorker: true, Identity: "official-session-worker"})
		ow.RegisterActivity(Greet)
		ow.RegisterActivity(Shout)
		startBoth(t, w, ow)
		id := runSessionWorkflow(t, c, tq)
		checkStartedBy(t, c, id, "official-session-worker")
	})
	t.Run("official workflow, our session worker", func(t *testing.T) {
		tq := fmt.Sprintf("sessions-b-%d", time.Now().UnixNano())
		ow := officialworker.New(oc, tq, officialworker.Options{})
		ow.RegisterWorkflowWithOptions(sessionWorkflowOfficial, officialworkflow.RegisterOptions{Name: "SessionWorkflow"})
		w := worker.New(c, tq, worker.Options{EnableSessionWorker: true, Identity: "our-session-worker"})
		w.RegisterActivity(Greet)
		w.RegisterActivity(Shout)
		startBoth(t, w, ow)
		id := runSessionWorkflow(t, c, tq)
		checkStartedBy(t, c, id, "our-session-worker")
	})
	t.Run("official workflow, our session worker stops", func(t *testing.T) {
		tq := fmt.Sprintf("sessions-c-%d", time.Now().UnixNano())
		ow := officialworker.New(oc, tq, officialworker.Options{})
		ow.RegisterWorkflowWithOptions(sessionLossOfficial, officialworkflow.RegisterOptions{Name: "SessionLoss"})
		w := worker.New(c, tq, worker.Options{EnableSessionWorker: true})
		w.RegisterActivity(Greet)
		startBoth(t, w, ow)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		run, err := oc.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{TaskQueue: tq}, "SessionLoss")
		if err != nil {
			t.Fatal(err)
		}
		for greeted := false; !greeted; time.Sleep(50 * time.Millisecond) {
			if v, err := oc.QueryWorkflow(ctx, run.GetID(), "", "greeted"); err == nil {
				_ = v.Get(&greeted)
			}
			if ctx.Err() != nil {
				t.Fatal("the session's first activity did not run")
			}
		}
		w.Stop()
		var got string
		if err := run.Get(ctx, &got); err != nil {
			t.Fatal(err)
		}
		if got != "ErrSessionFailed=true" {
			t.Fatalf("the official workflow saw %q after our session worker stopped, want ErrSessionFailed=true", got)
		}
		for _, ev := range fullHistory(t, c, run.GetID()).GetEvents() {
			if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED {
				if typ := ev.GetActivityTaskFailedEventAttributes().GetFailure().GetApplicationFailureInfo().GetType(); typ != "SessionWorkerShutdown" {
					t.Errorf("the creation activity failed with type %q, want SessionWorkerShutdown", typ)
				}
			}
		}
	})
}

func startBoth(t *testing.T, w worker.Worker, ow officialworker.Worker) {
	t.Helper()
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ow.Stop)
}
