package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	officialclient "go.temporal.io/sdk/client"
	officiallog "go.temporal.io/sdk/log"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func TestMain(m *testing.M) {
	testharness.Main(m, testharness.WithServerOptions(devserver.Options{
		// The server forgets a stopped worker's polls after this, rather
		// than 5 minutes, so that TestDeploymentRolloutFromOfficialToOurWorkers
		// can delete the version whose workers it stopped.
		DynamicConfig: map[string]string{"matching.PollerHistoryTTL": `"2s"`},
		// The embedded server's visibility and search attributes are
		// compared with the dev server's with these
		// (embedded_visibility_test.go).
		SearchAttributes: embeddedCompatAttributes,
	}))
}

// workflowPairs are the same workflows in both SDKs, under one type name.
var workflowPairs = []struct {
	name           string
	ours, official any
}{
	{"ActivitiesWorkflow", ActivitiesWorkflowOurs, ActivitiesWorkflowOfficial},
	{"TimersWorkflow", TimersWorkflowOurs, TimersWorkflowOfficial},
	{"SignalsWorkflow", SignalsWorkflowOurs, SignalsWorkflowOfficial},
	{"SideEffectsWorkflow", SideEffectsWorkflowOurs, SideEffectsWorkflowOfficial},
	{"MutableSideEffectsWorkflow", MutableSideEffectsWorkflowOurs, MutableSideEffectsWorkflowOfficial},
	{"RandomStreamsWorkflow", RandomStreamsWorkflowOurs, RandomStreamsWorkflowOfficial},
	{"VersionsWorkflow", VersionsWorkflowOurs, VersionsWorkflowOfficial},
	{"ContinueAsNewWorkflow", ContinueAsNewWorkflowOurs, ContinueAsNewWorkflowOfficial},
	{"SequentialActivitiesWorkflow", SequentialActivitiesWorkflowOurs, SequentialActivitiesWorkflowOfficial},
	{"PingPongWorkflow", PingPongWorkflowOurs, PingPongWorkflowOfficial},
	{"NegativeTimersWorkflow", NegativeTimersWorkflowOurs, NegativeTimersWorkflowOfficial},
	{"MismatchedArgsWorkflow", MismatchedArgsWorkflowOurs, MismatchedArgsWorkflowOfficial},
	{"ChildResultsWorkflow", ChildResultsWorkflowOurs, ChildResultsWorkflowOfficial},
	{"ChildCancelWorkflow", ChildCancelWorkflowOurs, ChildCancelWorkflowOfficial},
	{"ParentClosePoliciesWorkflow", ParentClosePoliciesWorkflowOurs, ParentClosePoliciesWorkflowOfficial},
	{"ChildSignalsWorkflow", ChildSignalsWorkflowOurs, ChildSignalsWorkflowOfficial},
	{"ExternalCancelWorkflow", ExternalCancelWorkflowOurs, ExternalCancelWorkflowOfficial},
	{"DuplicateChildWorkflow", DuplicateChildWorkflowOurs, DuplicateChildWorkflowOfficial},
	{"CancelTogetherWorkflow", CancelTogetherWorkflowOurs, CancelTogetherWorkflowOfficial},
	{"BadMemoChildWorkflow", BadMemoChildWorkflowOurs, BadMemoChildWorkflowOfficial},
	{"TakenIDChildWorkflow", TakenIDChildWorkflowOurs, TakenIDChildWorkflowOfficial},
	{"AbandoningChildWorkflow", AbandoningChildWorkflowOurs, AbandoningChildWorkflowOfficial},
	{"GreetChildWorkflow", GreetChildWorkflowOurs, GreetChildWorkflowOfficial},
	{"SummariesWorkflow", SummariesWorkflowOurs, SummariesWorkflowOfficial},
	{"FailingChildWorkflow", FailingChildWorkflowOurs, FailingChildWorkflowOfficial},
	{"SleepingChildWorkflow", SleepingChildWorkflowOurs, SleepingChildWorkflowOfficial},
	{"ListeningChildWorkflow", ListeningChildWorkflowOurs, ListeningChildWorkflowOfficial},
}

// runs are the executions each test starts: workflow type, arguments,
// signals, and the result (of the last run) when it does not depend on the
// worker process (side effects count per process).
var runs = []struct {
	name    string
	args    []any
	signals []string
	want    any
}{
	{"ActivitiesWorkflow", []any{"Temporal"}, nil, "Hello, Temporal! | HELLO, TEMPORAL! | Hello, HELLO, TEMPORAL!!"},
	{"TimersWorkflow", nil, nil, 2},
	{"SignalsWorkflow", nil, []string{"one", "two", "three"}, []string{"one", "two", "three"}},
	{"SideEffectsWorkflow", nil, nil, nil},
	{"MutableSideEffectsWorkflow", nil, nil, "v1,v1,v2"},
	{"RandomStreamsWorkflow", nil, nil, 2},
	{"VersionsWorkflow", nil, nil, "VERSIONED / Hello, VERSIONED!"},
	{"ContinueAsNewWorkflow", []any{0}, nil, 2},
	{"SequentialActivitiesWorkflow", []any{5}, nil, 5},
	{"PingPongWorkflow", []any{50}, nil, 50},
	{"NegativeTimersWorkflow", nil, nil, "slept: <nil>, timer: true <nil>, await: false <nil>, Hello, Temporal!"},
	{"MismatchedArgsWorkflow", nil, nil, "Hello, Temporal! | Hello, ! | decoding failed: true"},
	{"ChildResultsWorkflow", nil, nil, "Hello, Temporal! | failed: ChildFailure | timed out"},
	{"ChildCancelWorkflow", nil, nil, "canceled | canceled"},
	{"ParentClosePoliciesWorkflow", nil, nil, "started children with Abandon, Terminate, RequestCancel"},
	{"ChildSignalsWorkflow", nil, nil, "to a child | to an external workflow | no such workflow"},
	{"ExternalCancelWorkflow", nil, nil, "delivered | canceled | no such workflow"},
	{"DuplicateChildWorkflow", nil, nil, "already started | canceled"},
	{"CancelTogetherWorkflow", nil, nil, "canceled | canceled | canceled"},
	{"BadMemoChildWorkflow", nil, nil, "already started | Hello, Temporal!"},
	{"TakenIDChildWorkflow", nil, nil, "the server says already started | delivered"},
}

func registerOurs(w worker.Worker) {
	for _, p := range workflowPairs {
		w.RegisterWorkflowWithOptions(p.ours, workflow.RegisterOptions{Name: p.name})
	}
	w.RegisterActivity(Greet)
	w.RegisterActivity(Shout)
	w.RegisterActivity(Increment)
}

func registerOfficial(w officialworker.Worker) {
	for _, p := range workflowPairs {
		w.RegisterWorkflowWithOptions(p.official, officialworkflow.RegisterOptions{Name: p.name})
	}
	w.RegisterActivity(Greet)
	w.RegisterActivity(Shout)
	w.RegisterActivity(Increment)
}

type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(string, ...any) {}

var _ officiallog.Logger = quiet{}

func dialBoth(t *testing.T) (client.Client, officialclient.Client) {
	t.Helper()
	hp := testharness.HostPort(t)
	c, err := client.Dial(client.Options{HostPort: hp})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	oc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(oc.Close)
	return c, oc
}

// execute runs every workflow of runs on the task queue, checks their
// results (and the children a parent left behind), and returns the IDs of
// their (first) runs.
func execute(t *testing.T, c client.Client, taskQueue string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var ids []string
	for i, r := range runs {
		id := fmt.Sprintf("%s-%s-%d-%d", t.Name(), r.name, i, time.Now().UnixNano())
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, r.name, r.args...)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range r.signals {
			if err := c.SignalWorkflow(ctx, id, "", SignalsSignalName, s); err != nil {
				t.Fatal(err)
			}
		}
		var got any
		if err := run.Get(ctx, &got); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if r.want != nil && !sameJSON(t, got, r.want) {
			t.Errorf("%s returned %v, want %v", r.name, got, r.want)
		}
		if r.name == "ParentClosePoliciesWorkflow" {
			checkParentClosePolicies(t, ctx, c, fullHistory(t, c, id))
		}
		ids = append(ids, id)
	}
	return ids
}

// fullHistory is the history of the workflow's current (last) run.
func fullHistory(t *testing.T, c client.Client, id string) *historypb.History {
	t.Helper()
	return runHistory(t, c, id, "")
}

func runHistory(t *testing.T, c client.Client, id, runID string) *historypb.History {
	t.Helper()
	it := c.GetWorkflowHistory(context.Background(), id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	return h
}

// TestHistoriesWrittenHereReplayOnTheOfficialSDK runs the workflows on this
// SDK's worker and replays the histories with go.temporal.io/sdk's
// replayer, running the official builds of the same workflows.
func TestHistoriesWrittenHereReplayOnTheOfficialSDK(t *testing.T) {
	c, _ := dialBoth(t)
	tq := fmt.Sprintf("ours-%d", time.Now().UnixNano())
	w := worker.New(c, tq, worker.Options{})
	registerOurs(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	replayer := officialworker.NewWorkflowReplayer()
	for _, p := range workflowPairs {
		replayer.RegisterWorkflowWithOptions(p.official, officialworkflow.RegisterOptions{Name: p.name})
	}
	for i, id := range execute(t, c, tq) {
		for _, h := range withChildren(t, c, runs[i].name, fullHistory(t, c, id)) {
			if err := replayer.ReplayWorkflowHistory(quiet{}, h.History); err != nil {
				t.Errorf("%s: the official replayer rejects this SDK's history: %v", h.name, err)
			}
		}
	}
}

// TestWorkersOfBothSDKsShareATaskQueue runs the workflows on a task queue
// served by a worker of each SDK, with no sticky cache, so that workflow
// tasks of one run go to both: each replays what the other recorded.
func TestWorkersOfBothSDKsShareATaskQueue(t *testing.T) {
	c, oc := dialBoth(t)
	worker.SetStickyWorkflowCacheSize(0)
	officialworker.SetStickyWorkflowCacheSize(0)
	defer worker.SetStickyWorkflowCacheSize(10000)
	tq := fmt.Sprintf("mixed-%d", time.Now().UnixNano())
	w := worker.New(c, tq, worker.Options{Identity: "durable-go-worker"})
	registerOurs(w)
	ow := officialworker.New(oc, tq, officialworker.Options{Identity: "official-worker"})
	registerOfficial(ow)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()
	both, total := 0, 0
	var mixed []string
	for i, id := range execute(t, c, tq) {
		for _, h := range withChildren(t, c, runs[i].name, fullHistory(t, c, id)) {
			total++
			seen := map[string]bool{}
			events := h.GetEvents()
			for j, ev := range events {
				if a := ev.GetWorkflowTaskCompletedEventAttributes(); a != nil {
					seen[a.GetIdentity()] = true
				}
				// Terminating a run (a parent close policy does) fails its
				// workflow task in flight, on the server's behalf.
				terminated := j+1 < len(events) && events[j+1].GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED
				if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil && !(terminated && a.GetIdentity() == "history-service") {
					t.Errorf("%s: a workflow task failed on %s (%v): %s", h.name, a.GetIdentity(), a.GetCause(), a.GetFailure().GetMessage())
				}
			}
			if seen["durable-go-worker"] && seen["official-worker"] {
				both++
				mixed = append(mixed, h.name)
			}
		}
	}
	if both == 0 {
		t.Fatal("no run had workflow tasks completed by both workers; the test did not mix them")
	}
	t.Logf("%d of %d runs (parents and children) had workflow tasks completed by both SDKs' workers: %v", both, total, mixed)
}

// namedHistory is a run's history and a name for messages.
type namedHistory struct {
	*historypb.History
	name string
}

// withChildren returns a parent's history and those of the children it
// started.
func withChildren(t *testing.T, c client.Client, name string, parent *historypb.History) []namedHistory {
	t.Helper()
	family := []namedHistory{{parent, name}}
	for _, ev := range parent.GetEvents() {
		if a := ev.GetChildWorkflowExecutionStartedEventAttributes(); a != nil {
			child := a.GetWorkflowExecution()
			family = append(family, namedHistory{runHistory(t, c, child.GetWorkflowId(), child.GetRunId()),
				fmt.Sprintf("%s's child %s (started at event %d)", name, a.GetWorkflowType().GetName(), ev.GetEventId())})
		}
	}
	return family
}
