package typed_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/workflow"
)

// The tests of this package run each feature twice, written with the
// typed API and with the untyped one, registered under one workflow name,
// and require the two histories to be the same (typedtest.CompareHistories).

type Order struct {
	ID       string
	Customer string
	Cents    int
}

type Receipt struct {
	OrderID string
	Charged int
}

type Payment struct {
	Cents int
	By    string
}

// The activities, one per shape a typed call takes.

func greet(_ context.Context, name string) (string, error) { return "Hello, " + name + "!", nil }
func ping(context.Context) (string, error)                 { return "pong", nil }
func add(_ context.Context, a, b int) (int, error)         { return a + b, nil }
func join3(_ context.Context, a string, b int, c bool) (string, error) {
	return fmt.Sprint(a, b, c), nil
}
func record(context.Context, Order) error            { return nil }
func tick(context.Context) error                     { return nil }
func note2(context.Context, string, int) error       { return nil }
func note3(context.Context, string, int, bool) error { return nil }
func refuse(_ context.Context, reason string) (int, error) {
	return 0, fmt.Errorf("refused: %s", reason)
}

// Activities are activities registered as the methods of a struct.
type Activities struct{ fee int }

func (a *Activities) Charge(_ context.Context, order Order) (Receipt, error) {
	return Receipt{OrderID: order.ID, Charged: order.Cents + a.fee}, nil
}

var activityOptions = workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second}
var localActivityOptions = workflow.LocalActivityOptions{StartToCloseTimeout: 5 * time.Second}

func registerActivities(env *testsuite.TestWorkflowEnvironment) {
	for _, fn := range []any{greet, ping, add, join3, record, tick, note2, note3, refuse} {
		env.RegisterActivity(fn)
	}
	env.RegisterActivity(&Activities{fee: 30})
}

// runAs runs wf in a new test environment, registered as name, with args,
// and returns the environment, which holds the outcome and the history.
// configure registers what the run needs and schedules callbacks.
func runAs(t *testing.T, name string, wf any, configure func(env *testsuite.TestWorkflowEnvironment), args ...any) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetReplayCheck(true)
	// Local activity markers hold the workflow's clock: both forms start
	// at the same time.
	env.SetStartTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	// A workflow task that waits for local activities past 80% of its
	// timeout is split in two, as a worker splits it, and the test
	// environment's timeout is 1 s of wall time: on a loaded machine the
	// local activities of one form would end in two tasks, those of the
	// other in one. A minute keeps the histories apart from the machine's
	// speed.
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{WorkflowTaskTimeout: time.Minute})
	env.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: name})
	if configure != nil {
		configure(env)
	}
	env.ExecuteWorkflow(name, args...)
	if !env.IsWorkflowCompleted() {
		t.Fatalf("%s (%T) did not complete: %v", name, wf, env.GetWorkflowError())
	}
	return env
}

// requireSameHistory fails t unless the two runs wrote the same history.
func requireSameHistory(t *testing.T, typedRun, untypedRun *testsuite.TestWorkflowEnvironment) {
	t.Helper()
	typedHistory, untypedHistory := historyOf(t, typedRun), historyOf(t, untypedRun)
	if err := typedtest.CompareHistories(untypedHistory, typedHistory); err != nil {
		t.Fatalf("the typed form wrote another history than the untyped one: %v", err)
	}
	if n := len(typedHistory.GetEvents()); n < 3 {
		t.Fatalf("the histories hold %d events: the runs did not get far", n)
	}
}

func historyOf(t *testing.T, env *testsuite.TestWorkflowEnvironment) *historypb.History {
	t.Helper()
	h, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// eventTypes lists the history's event types, for tests that check that a
// feature wrote what it should (and not only the same as the other form).
func eventTypes(h *historypb.History) string {
	var names []string
	for _, e := range h.GetEvents() {
		names = append(names, e.GetEventType().String())
	}
	return strings.Join(names, " ")
}
