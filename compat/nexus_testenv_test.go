package compat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	ourtestsuite "github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	ours "github.com/durable-go/sdk/workflow"
)

// NexusHistoryCaller calls one operation of the handler's service behind
// endpoint and returns what it got, its error described (as a string, so
// that a failed or canceled operation does not end the workflow).
func NexusHistoryCaller(ctx ours.Context, endpoint, operation, input string, timeout time.Duration) (string, error) {
	c := ours.NewNexusClient(endpoint, handlerServiceName)
	var out string
	err := c.ExecuteOperation(ctx, operation, input, ours.NexusOperationOptions{ScheduleToCloseTimeout: timeout}).Get(ctx, &out)
	if err != nil {
		return "error: " + err.Error(), nil
	}
	return out, nil
}

// nexusHistoryScenarios are the operations TestTestEnvNexusHistoryMatchesTheDevServer
// calls: a synchronous one, a workflow-run one, one that fails as an
// operation, one the handler refuses, and one that times out.
var nexusHistoryScenarios = []struct {
	name, operation, input string
	timeout                time.Duration
}{
	{"sync", "echo", "hi", time.Minute},
	{"workflow", "run", "hi", time.Minute},
	{"fail", "fail", "kiwi", time.Minute},
	{"refuse", "refuse", "kiwi", time.Minute},
	{"timeout", "run", "wait", 5 * time.Second},
}

// TestTestEnvNexusHistoryMatchesTheDevServer runs the same caller and the
// same handler service (this SDK's) on the dev server, behind an
// endpoint, and in the test environment: each operation's events, and
// the failures they record, must be the same, event type for event type
// (the workflow task events aside, whose interleaving with an
// asynchronous operation's events depends on timing on a server).
func TestTestEnvNexusHistoryMatchesTheDevServer(t *testing.T) {
	c, oc := dialBoth(t)
	stamp := time.Now().UnixNano()
	handlerQueue, callerQueue := fmt.Sprintf("nexus-history-handler-%d", stamp), fmt.Sprintf("nexus-history-caller-%d", stamp)
	endpoint := fmt.Sprintf("nexus-history-endpoint-%d", stamp)
	createNexusEndpoint(t, oc, endpoint, testharness.Namespace(t), handlerQueue)
	hw := worker.New(c, handlerQueue, worker.Options{})
	hw.RegisterNexusService(NexusHandlerServiceOurs())
	hw.RegisterWorkflowWithOptions(NexusHandlerSideWorkflowOurs, ours.RegisterOptions{Name: "NexusHandlerSideWorkflow"})
	cw := worker.New(c, callerQueue, worker.Options{})
	cw.RegisterWorkflow(NexusHistoryCaller)
	for _, w := range []worker.Worker{hw, cw} {
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
	}
	for _, sc := range nexusHistoryScenarios {
		t.Run(sc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			id := fmt.Sprintf("%s-%s", callerQueue, sc.name)
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: callerQueue}, NexusHistoryCaller, endpoint, sc.operation, sc.input, sc.timeout)
			if err != nil {
				t.Fatal(err)
			}
			var onServer string
			if err := run.Get(ctx, &onServer); err != nil {
				t.Fatal(err)
			}
			serverEvents := nexusHistoryEvents(runHistoryOf(t, c, id))

			var suite ourtestsuite.WorkflowTestSuite
			env := suite.NewTestWorkflowEnvironment()
			env.RegisterNexusService(NexusHandlerServiceOurs())
			env.RegisterWorkflowWithOptions(NexusHandlerSideWorkflowOurs, ours.RegisterOptions{Name: "NexusHandlerSideWorkflow"})
			env.SetDetachedChildWait(false)
			env.ExecuteWorkflow(NexusHistoryCaller, endpoint, sc.operation, sc.input, sc.timeout)
			var inEnv string
			if err := env.GetWorkflowResult(&inEnv); err != nil {
				t.Fatal(err)
			}
			h, err := env.GetHistory()
			if err != nil {
				t.Fatal(err)
			}
			envEvents := nexusHistoryEvents(h)
			t.Logf("the dev server's history: %s", strings.Join(serverEvents, "; "))
			if strings.Join(envEvents, "\n") != strings.Join(serverEvents, "\n") {
				t.Errorf("the histories differ:\n dev server:\n  %s\n test environment:\n  %s", strings.Join(serverEvents, "\n  "), strings.Join(envEvents, "\n  "))
			}
			if !nexusOutcomesAgree(onServer, inEnv) {
				t.Errorf("the workflow saw %q on the dev server, %q in the test environment", onServer, inEnv)
			}
		})
	}
}

// nexusOutcomesAgree compares what the caller saw, but for the scheduled
// event ID and the token, which are the run's own.
func nexusOutcomesAgree(a, b string) bool {
	strip := func(s string) string {
		if i := strings.Index(s, "operation token:"); i >= 0 {
			if j := strings.Index(s[i:], ")"); j >= 0 {
				return s[:i] + s[i+j:]
			}
		}
		return s
	}
	return strip(a) == strip(b)
}

// nexusHistoryEvents describes a history's events but the workflow task
// events: each Nexus event with the failure chain it records (message and
// kind of each failure), the others by type.
func nexusHistoryEvents(h *historypb.History) []string {
	var out []string
	for _, ev := range h.GetEvents() {
		t := ev.GetEventType()
		switch t {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			continue
		}
		line := t.String()
		var f *failurepb.Failure
		switch a := ev.GetAttributes().(type) {
		case *historypb.HistoryEvent_NexusOperationFailedEventAttributes:
			f = a.NexusOperationFailedEventAttributes.GetFailure()
		case *historypb.HistoryEvent_NexusOperationTimedOutEventAttributes:
			f = a.NexusOperationTimedOutEventAttributes.GetFailure()
		case *historypb.HistoryEvent_NexusOperationCanceledEventAttributes:
			f = a.NexusOperationCanceledEventAttributes.GetFailure()
		case *historypb.HistoryEvent_NexusOperationCompletedEventAttributes:
			line += " " + string(a.NexusOperationCompletedEventAttributes.GetResult().GetData())
		}
		for ; f != nil; f = f.GetCause() {
			line += fmt.Sprintf(" <- %q %T", f.GetMessage(), f.GetFailureInfo())
		}
		out = append(out, line)
	}
	return out
}
