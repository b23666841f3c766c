package compat

import (
	"strings"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/workflow"
)

// Each workflow written with the typed API (github.com/durable-go/sdk/typed)
// runs in this SDK's test environment, and the history it wrote replays on
// go.temporal.io/sdk's replayer against the same workflow written with
// go.temporal.io/sdk's untyped API: the typed calls write what the
// untyped calls of the official SDK write.
//
//	cd compat && go test -race -run TestTypedWorkflows -v .

// typedRun runs the typed workflow wf as name in the test environment and
// returns its history.
func typedRun(t *testing.T, name string, wf any, configure func(env *testsuite.TestWorkflowEnvironment), args ...any) *historypb.History {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: name})
	for _, fn := range typedActivityFuncs {
		env.RegisterActivity(fn)
	}
	for _, fn := range typedChildFuncs {
		env.RegisterWorkflow(fn)
	}
	if configure != nil {
		configure(env)
	}
	env.ExecuteWorkflow(name, args...)
	if err := env.GetWorkflowError(); err != nil && !workflow.IsContinueAsNewError(err) {
		t.Fatalf("%s: %v", name, err)
	}
	h, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// replayOfficially replays h on go.temporal.io/sdk with wf registered as
// name.
func replayOfficially(h *historypb.History, name string, wf any) error {
	r := officialworker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(wf, officialworkflow.RegisterOptions{Name: name})
	return r.ReplayWorkflowHistory(quiet{}, h)
}

func TestTypedWorkflowsReplayOnTheOfficialSDK(t *testing.T) {
	order := typedOrder{ID: "o-1", Cents: 1200}
	for _, c := range []struct {
		name            string
		typed, official any
		configure       func(env *testsuite.TestWorkflowEnvironment)
		args            []any
		events          string // an event type the history must hold
	}{
		{"TypedActivities", typedActivitiesTyped, typedActivitiesOfficial, nil, []any{order}, "MarkerRecorded"},
		{"TypedChildren", typedChildrenTyped, typedChildrenOfficial, nil, []any{order}, "SignalExternalWorkflowExecutionInitiated"},
		{"TypedSignals", typedSignalsTyped, typedSignalsOfficial, func(env *testsuite.TestWorkflowEnvironment) {
			env.RegisterDelayedCallback(func() { typedtest.SignalWorkflow(env, typedOrderPaid, typedPayment{Cents: 5}) }, time.Minute)
			env.RegisterDelayedCallback(func() { typedtest.SignalWorkflow(env, typedCancel, typed.None{}) }, time.Hour)
		}, nil, "WorkflowExecutionSignaled"},
		{"TypedCart", typedCartTyped, typedCartOfficial, func(env *testsuite.TestWorkflowEnvironment) {
			env.RegisterDelayedCallback(func() { typedtest.UpdateWorkflow(env, typedAddItem, "u1", "apple") }, time.Minute)
			env.RegisterDelayedCallback(func() { typedtest.UpdateWorkflow(env, typedAddItem, "u2", "") }, 2*time.Minute)
			env.RegisterDelayedCallback(func() {
				if _, err := typedtest.QueryWorkflow0(env, typedItemCount); err != nil {
					t.Error(err)
				}
			}, 3*time.Minute)
			env.RegisterDelayedCallback(func() { typedtest.UpdateWorkflow(env, typedClear, "u3", "changed my mind") }, 4*time.Minute)
			env.RegisterDelayedCallback(func() { typedtest.UpdateWorkflow(env, typedAddItem, "u4", "fig") }, 5*time.Minute)
			env.RegisterDelayedCallback(func() { typedtest.SignalWorkflow(env, typedCheckout, typed.None{}) }, 6*time.Minute)
		}, nil, "WorkflowExecutionUpdateCompleted"},
		{"TypedContinueAsNew", typedContinueTyped, typedContinueOfficial, func(env *testsuite.TestWorkflowEnvironment) {
			typedtest.OnWorkflow(env, typedAwaitsPayment, order).Return(typedReceipt{OrderID: order.ID, Charged: 1250}, nil)
			typedtest.OnWorkflow2(env, typedChild2, "x", 1250).Return("mocked", nil)
		}, []any{order}, "WorkflowExecutionContinuedAsNew"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := typedRun(t, c.name, c.typed, c.configure, c.args...)
			var types []string
			for _, e := range h.GetEvents() {
				types = append(types, e.GetEventType().String())
			}
			if !strings.Contains(strings.Join(types, " "), c.events) {
				t.Fatalf("the history holds no %s: %v", c.events, types)
			}
			if err := replayOfficially(h, c.name, c.official); err != nil {
				t.Errorf("the typed workflow's history does not replay on go.temporal.io/sdk: %v", err)
			}
		})
	}
}

// The control: the same history against an official workflow that makes
// other calls does not replay, so the test above can fail.
func TestTypedWorkflowsReplayCheckCatchesAnotherWorkflow(t *testing.T) {
	h := typedRun(t, "TypedActivities", typedActivitiesTyped, nil, typedOrder{ID: "o-1", Cents: 1200})
	if err := replayOfficially(h, "TypedActivities", typedActivitiesReordered); err == nil {
		t.Fatal("a workflow that calls other activities replayed the history")
	}
}
