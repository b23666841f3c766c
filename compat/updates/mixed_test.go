package updates

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The identities of the two workers of TestWorkersOfBothSDKsServeUpdates,
// which their completed workflow tasks record.
const (
	ourIdentity      = "durable-go-worker"
	officialIdentity = "official-worker"
)

// TestWorkersOfBothSDKsServeUpdates runs AccountWorkflows on a task queue
// that a worker of each SDK serves, with no sticky cache, so that a run's
// workflow tasks go to either: each replays what the other recorded,
// including updates it accepted (the greet update's handler waits for an
// activity and a timer, so that it is accepted and completed in different
// workflow tasks). Every update must get its own outcome, and no workflow
// task may fail.
func TestWorkersOfBothSDKsServeUpdates(t *testing.T) {
	worker.SetStickyWorkflowCacheSize(0)
	officialworker.SetStickyWorkflowCacheSize(0)
	defer worker.SetStickyWorkflowCacheSize(10000)
	defer officialworker.SetStickyWorkflowCacheSize(10000)

	hp := testharness.HostPort(t)
	tq := fmt.Sprintf("mixed-accounts-%d", time.Now().UnixNano())
	c, err := client.Dial(client.Options{HostPort: hp})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, tq, worker.Options{Identity: ourIdentity})
	w.RegisterWorkflowWithOptions(AccountWorkflowOurs, workflow.RegisterOptions{Name: "AccountWorkflow"})
	w.RegisterActivity(Greet)
	oc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()
	ow := officialworker.New(oc, tq, officialworker.Options{Identity: officialIdentity})
	ow.RegisterWorkflowWithOptions(AccountWorkflowOfficial, officialworkflow.RegisterOptions{Name: "AccountWorkflow"})
	ow.RegisterActivity(Greet)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const workflows = 4
	ids := make([]string, workflows)
	var wg sync.WaitGroup
	for i := range ids {
		ids[i] = fmt.Sprintf("%s-%d", tq, i)
		wg.Go(func() { serveAccountInTurns(t, ctx, c, tq, ids[i], i) })
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	// Every run mixed the workers? At least one must have, and at least one
	// update must have been accepted by one SDK's worker and completed by
	// the other's; greet updates are sent to one more run until one was.
	mixedRuns, crossed := 0, 0
	for _, id := range ids {
		both, n := checkMixedHistory(t, history(t, c, id))
		if both {
			mixedRuns++
		}
		crossed += n
	}
	if mixedRuns == 0 {
		t.Fatal("no run had workflow tasks completed by both SDKs' workers; the test did not mix them")
	}
	extra := 0
	if crossed == 0 {
		crossed, extra = greetUntilAnUpdateCrossesWorkers(t, ctx, c, tq)
	}
	t.Logf("%d of %d runs had workflow tasks completed by both SDKs' workers; %d updates were accepted by one SDK's worker and completed by the other's (%d extra greet updates sent)",
		mixedRuns, workflows, crossed, extra)
}

// serveAccountInTurns sends an AccountWorkflow a series of updates of
// every kind, some at once, and checks each outcome and the result.
func serveAccountInTurns(t *testing.T, ctx context.Context, c client.Client, taskQueue, id string, i int) {
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, "AccountWorkflow", 0)
	if err != nil {
		t.Error(err)
		return
	}
	send := func(u accountCall) bool {
		handle, err := c.UpdateWorkflow(ctx, u.options(id))
		if err == nil {
			err = u.check(ctx, handle)
		}
		if err != nil {
			t.Errorf("workflow %s: %v", id, err)
			return false
		}
		return true
	}
	greet := func(name string) accountCall {
		return accountCall{id: "greet-" + name, name: GreetUpdateName, arg: name, want: "Hello, " + name + "!"}
	}
	sequence := []accountCall{
		{id: "deposit-5", name: DepositUpdateName, arg: 5, want: 5},
		greet(fmt.Sprintf("A%d", i)),
		{id: "withdraw-50", name: WithdrawUpdateName, arg: 50, wantErr: &wantedError{"cannot withdraw 50 from 5", "InsufficientFunds", 5}},
		{id: "deposit-minus-1", name: DepositUpdateName, arg: -1, wantErr: &wantedError{message: "cannot deposit -1: amounts must be positive"}},
	}
	for _, u := range sequence {
		if !send(u) {
			return
		}
	}
	// Three at once: two greets (each waits on an activity and a timer)
	// and a deposit, the only one of them that changes the balance.
	together := []accountCall{greet(fmt.Sprintf("B%d", i)), greet(fmt.Sprintf("C%d", i)),
		{id: "deposit-10", name: DepositUpdateName, arg: 10, want: 15}}
	var wg sync.WaitGroup
	ok := make([]bool, len(together))
	for j, u := range together {
		wg.Go(func() { ok[j] = send(u) })
	}
	wg.Wait()
	if !ok[0] || !ok[1] || !ok[2] || !send(accountCall{id: "withdraw-3", name: WithdrawUpdateName, arg: 3, want: 12}) {
		return
	}
	if err := c.SignalWorkflow(ctx, id, "", CloseSignalName, nil); err != nil {
		t.Error(err)
		return
	}
	var balance int
	if err := run.Get(ctx, &balance); err != nil || balance != 12 {
		t.Errorf("workflow %s returned %d, %v; want 12", id, balance, err)
	}
}

// checkMixedHistory fails the test if a workflow task of the run failed or
// went to a sticky queue, and reports whether workers of both SDKs
// completed its workflow tasks, and how many of its updates one accepted
// and the other completed.
func checkMixedHistory(t *testing.T, h *historypb.History) (both bool, crossed int) {
	t.Helper()
	id := h.GetEvents()[0].GetWorkflowExecutionStartedEventAttributes().GetWorkflowId()
	completedBy := map[int64]string{} // workflow task completed event ID -> identity
	acceptedBy := map[string]string{} // update ID -> identity
	seen := map[string]bool{}
	for _, ev := range h.GetEvents() {
		if a := ev.GetWorkflowTaskScheduledEventAttributes(); a != nil && a.GetTaskQueue().GetKind() == enumspb.TASK_QUEUE_KIND_STICKY {
			t.Errorf("%s: event %d scheduled a workflow task on a sticky queue; the test wants sticky execution off", id, ev.GetEventId())
		}
		if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil {
			t.Errorf("%s: a workflow task failed on %s (%v): %s", id, a.GetIdentity(), a.GetCause(), a.GetFailure().GetMessage())
		}
		if a := ev.GetWorkflowTaskCompletedEventAttributes(); a != nil {
			completedBy[ev.GetEventId()] = a.GetIdentity()
			seen[a.GetIdentity()] = true
		}
		if a := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes(); a != nil {
			acceptedBy[a.GetProtocolInstanceId()] = taskOf(h, ev, completedBy)
		}
		if a := ev.GetWorkflowExecutionUpdateCompletedEventAttributes(); a != nil {
			if by := taskOf(h, ev, completedBy); by != acceptedBy[a.GetMeta().GetUpdateId()] {
				crossed++
			}
		}
	}
	return seen[ourIdentity] && seen[officialIdentity], crossed
}

// taskOf is the identity of the worker whose workflow task recorded the
// event: the one of the last WorkflowTaskCompleted before it.
func taskOf(h *historypb.History, ev *historypb.HistoryEvent, completedBy map[int64]string) string {
	for id := ev.GetEventId() - 1; id > 0; id-- {
		if by, ok := completedBy[id]; ok {
			return by
		}
	}
	return ""
}

// greetUntilAnUpdateCrossesWorkers sends greet updates to a new run, one
// at a time, until one was accepted by one SDK's worker and completed by
// the other's (at most 20: each has about even odds), and returns how
// many crossed and how many it sent.
func greetUntilAnUpdateCrossesWorkers(t *testing.T, ctx context.Context, c client.Client, taskQueue string) (crossed, sent int) {
	t.Helper()
	id := taskQueue + "-greetings"
	if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, "AccountWorkflow", 0); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.SignalWorkflow(context.Background(), id, "", CloseSignalName, nil) }()
	for sent < 20 && crossed == 0 {
		sent++
		name := fmt.Sprintf("D%d", sent)
		u := accountCall{id: "greet-" + name, name: GreetUpdateName, arg: name, want: "Hello, " + name + "!"}
		handle, err := c.UpdateWorkflow(ctx, u.options(id))
		if err == nil {
			err = u.check(ctx, handle)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, crossed = checkMixedHistory(t, history(t, c, id))
	}
	if crossed == 0 {
		t.Fatalf("none of %d greet updates was accepted by one SDK's worker and completed by the other's", sent)
	}
	return crossed, sent
}
