package compat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/operatorservice/v1"
	officialactivity "go.temporal.io/sdk/activity"
	officialclient "go.temporal.io/sdk/client"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialworker "go.temporal.io/sdk/worker"
	official "go.temporal.io/sdk/workflow"

	oursactivity "github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	ours "github.com/durable-go/sdk/workflow"
)

// TestNexusHandlerSourceIsOneSource: the Official half of
// nexus_handlers_test.go, with the SDK renamed, is its Ours half.
func TestNexusHandlerSourceIsOneSource(t *testing.T) {
	src, err := os.ReadFile("nexus_handlers_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	start := strings.Index(code, "// NexusHandlerServiceOurs")
	split := strings.Index(code, "// NexusHandlerServiceOfficial")
	if start < 0 || split < start {
		t.Fatal("nexus_handlers_test.go: the Ours half must come first, then the Official half")
	}
	renamed := strings.NewReplacer("official", "ours", "Official", "Ours").Replace(code[split:])
	if strings.TrimSpace(renamed) != strings.TrimSpace(code[start:split]) {
		t.Error("the two halves of nexus_handlers_test.go differ in more than the SDK they use; make them one source again")
	}
}

// NexusHandlerSideCaller calls the handler's service behind endpoint, on
// go.temporal.io/sdk, as scenario says, and describes what it saw.
func NexusHandlerSideCaller(ctx official.Context, endpoint, scenario string) (string, error) {
	c := official.NewNexusClient(endpoint, handlerServiceName)
	opts := official.NexusOperationOptions{ScheduleToCloseTimeout: time.Minute}
	operation, input := scenario, "hi"
	switch scenario {
	case "workflow":
		operation = "run"
	case "cancel":
		operation, input = "run", "wait"
		opts.CancellationType = official.NexusOperationCancellationTypeWaitCompleted
	case "temporal-update":
		operation = "update"
	case "temporal-sync":
		operation, input = "temporal", "sync"
	case "temporal-activity", "temporal-activity-fail":
		operation, input = "temporal", strings.TrimPrefix(scenario, "temporal-")
	case "temporal-workflow", "temporal-cancel":
		operation = "temporal"
		if scenario == "temporal-cancel" {
			input = "wait"
			opts.CancellationType = official.NexusOperationCancellationTypeWaitCompleted
		}
	}
	opCtx, cancel := official.WithCancel(ctx)
	defer cancel()
	fut := c.ExecuteOperation(opCtx, operation, input, opts)
	var exec official.NexusOperationExecution
	execErr := fut.GetNexusOperationExecution().Get(ctx, &exec)
	if scenario == "cancel" || scenario == "temporal-cancel" {
		cancel()
	}
	var result string
	err := fut.Get(ctx, &result)
	if scenario == "temporal-update" {
		// Whether the update's outcome comes with the start's answer or
		// through the callback depends on timing, on either SDK.
		return fmt.Sprintf("result %q, error %s", result, describeHandlerSideError(err)), nil
	}
	return fmt.Sprintf("result %q, error %s; started: token set %v, error %s",
		result, describeHandlerSideError(err), exec.OperationToken != "", describeHandlerSideError(execErr)), nil
}

// describeHandlerSideError renders an error chain by what the official
// SDK's types say of each link.
func describeHandlerSideError(err error) string {
	if err == nil {
		return "none"
	}
	var parts []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch x := e.(type) {
		case *officialtemporal.NexusOperationError:
			parts = append(parts, fmt.Sprintf("NexusOperationError{%q, %s/%s, token set %v}", x.Message, x.Service, x.Operation, x.OperationToken != ""))
		case *nexus.HandlerError:
			parts = append(parts, fmt.Sprintf("HandlerError{%s, %q, retryable %v}", x.Type, x.Message, x.Retryable()))
		case *officialtemporal.ApplicationError:
			parts = append(parts, fmt.Sprintf("ApplicationError{%q, type %q, non-retryable %v}", x.Message(), x.Type(), x.NonRetryable()))
		case *officialtemporal.CanceledError:
			parts = append(parts, fmt.Sprintf("CanceledError{%q}", x.Error()))
		case *officialtemporal.TimeoutError:
			parts = append(parts, fmt.Sprintf("TimeoutError{%s}", x.TimeoutType()))
		default:
			parts = append(parts, fmt.Sprintf("error{%q}", e.Error()))
		}
	}
	return strings.Join(parts, " <- ")
}

var handlerSideScenarios = []string{"echo", "refuse", "fail", "stop", "workflow", "cancel", "temporal-sync", "temporal-workflow", "temporal-cancel", "temporal-update", "temporal-activity", "temporal-activity-fail"}

// TestNexusHandlerSideMatchesTheOfficialSDK serves the same handler
// source with each SDK's worker, behind an endpoint of its own on the dev
// server, and calls it from a caller workflow on go.temporal.io/sdk's
// worker: a synchronous result that reads the operation's context, a
// refused operation, a failed one, one that fails with a non-retryable
// application error, a workflow-run operation, and one canceled while its
// workflow runs; and the same through an operation of the generic Temporal
// kind (NewTemporalOperation: a synchronous result, a workflow started
// with StartWorkflow, and its cancellation). The caller must see the same results and errors from
// both SDKs' handlers, and the histories must link the same way: the
// handler's workflow starts with the caller's link and the completion
// callback, and the caller's NexusOperationStarted links to that workflow.
func TestNexusHandlerSideMatchesTheOfficialSDK(t *testing.T) {
	c, oc := dialBoth(t)
	stamp := time.Now().UnixNano()
	callerQueue := fmt.Sprintf("nexus-hs-caller-%d", stamp)
	cw := officialworker.New(oc, callerQueue, officialworker.Options{})
	cw.RegisterWorkflow(NexusHandlerSideCaller)
	if err := cw.Start(); err != nil {
		t.Fatal(err)
	}
	defer cw.Stop()

	serve := map[string]func(queue string) (stop func()){
		"ours": func(queue string) func() {
			w := worker.New(c, queue, worker.Options{})
			w.RegisterNexusService(NexusHandlerServiceOurs())
			w.RegisterWorkflowWithOptions(NexusHandlerSideWorkflowOurs, ours.RegisterOptions{Name: "NexusHandlerSideWorkflow"})
			w.RegisterActivityWithOptions(NexusHandlerSideActivityOurs, oursactivity.RegisterOptions{Name: "NexusHandlerSideActivity"})
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			return w.Stop
		},
		"official": func(queue string) func() {
			w := officialworker.New(oc, queue, officialworker.Options{})
			w.RegisterNexusService(NexusHandlerServiceOfficial())
			w.RegisterWorkflowWithOptions(NexusHandlerSideWorkflowOfficial, official.RegisterOptions{Name: "NexusHandlerSideWorkflow"})
			w.RegisterActivityWithOptions(NexusHandlerSideActivityOfficial, officialactivity.RegisterOptions{Name: "NexusHandlerSideActivity"})
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			return w.Stop
		},
	}
	seen := map[string]map[string]string{}
	for _, sdk := range []string{"official", "ours"} {
		queue := fmt.Sprintf("nexus-hs-handler-%s-%d", sdk, stamp)
		endpoint := fmt.Sprintf("nexus-hs-%s-%d", sdk, stamp)
		createHandlerSideEndpoint(t, oc, endpoint, testharness.Namespace(t), queue)
		stop := serve[sdk](queue)
		seen[sdk] = runHandlerSideScenarios(t, oc, callerQueue, endpoint, sdk)
		stop()
	}
	for _, scenario := range append(handlerSideScenarios, "links") {
		if seen["ours"][scenario] != seen["official"][scenario] {
			t.Errorf("%s: the caller saw\n  ours:     %s\n  official: %s", scenario, seen["ours"][scenario], seen["official"][scenario])
		} else {
			t.Logf("%s: %s", scenario, seen["ours"][scenario])
		}
	}
	if !strings.Contains(seen["official"]["workflow"], `result "ran: hi", error none`) {
		t.Errorf("the workflow-run operation did not complete through its callback: %s", seen["official"]["workflow"])
	}
}

// runHandlerSideScenarios runs the caller for each scenario and returns
// what it saw, and, under "links", how the histories of the workflow-run
// scenario link the caller and the handler's workflow.
func runHandlerSideScenarios(t *testing.T, oc officialclient.Client, callerQueue, endpoint, sdk string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seen := map[string]string{}
	for _, scenario := range handlerSideScenarios {
		id := fmt.Sprintf("nexus-hs-caller-%s-%s-%d", sdk, scenario, time.Now().UnixNano())
		run, err := oc.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: id, TaskQueue: callerQueue}, NexusHandlerSideCaller, endpoint, scenario)
		if err != nil {
			t.Fatal(err)
		}
		var out string
		if err := run.Get(ctx, &out); err != nil {
			t.Fatalf("%s caller (%s handler): %v", scenario, sdk, err)
		}
		seen[scenario] = out
		if scenario == "workflow" {
			seen["links"] = describeHandlerSideLinks(t, oc, id)
		}
	}
	return seen
}

// describeHandlerSideLinks says how the caller's history and the handler
// workflow's link to each other, without the IDs that differ per run.
func describeHandlerSideLinks(t *testing.T, oc officialclient.Client, callerID string) string {
	t.Helper()
	var handlerLinks []*commonpb.Link
	for _, e := range handlerSideHistory(t, oc, callerID) {
		if e.GetEventType() == enumspb.EVENT_TYPE_NEXUS_OPERATION_STARTED {
			handlerLinks = e.GetLinks()
		}
	}
	if len(handlerLinks) != 1 || handlerLinks[0].GetWorkflowEvent() == nil {
		return fmt.Sprintf("caller's NexusOperationStarted links: %v", handlerLinks)
	}
	target := handlerLinks[0].GetWorkflowEvent()
	out := fmt.Sprintf("caller links to the handler's workflow (ID prefix ok %v, event %v)",
		strings.HasPrefix(target.GetWorkflowId(), "nexus-handler-side-"), target.GetEventRef().GetEventType())
	startedEvent := handlerSideHistory(t, oc, target.GetWorkflowId())[0]
	started := startedEvent.GetWorkflowExecutionStartedEventAttributes()
	var back []string
	for _, l := range startedEvent.GetLinks() {
		we := l.GetWorkflowEvent()
		back = append(back, fmt.Sprintf("to the caller %v, event %v", we.GetWorkflowId() == callerID, we.GetEventRef().GetEventType()))
	}
	var callbacks []string
	for _, cb := range started.GetCompletionCallbacks() {
		n := cb.GetNexus()
		callbacks = append(callbacks, fmt.Sprintf("URL set %v, token header set %v, links %d",
			n.GetUrl() != "", n.GetHeader()[nexus.HeaderOperationToken] != "", len(cb.GetLinks())))
	}
	return fmt.Sprintf("%s; its start links %v; callbacks %v", out, back, callbacks)
}

func handlerSideHistory(t *testing.T, oc officialclient.Client, id string) []*historypb.HistoryEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var events []*historypb.HistoryEvent
	it := oc.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	return events
}

// createHandlerSideEndpoint creates an endpoint that sends its operations
// to the worker of namespace and taskQueue, and deletes it when the test
// ends.
func createHandlerSideEndpoint(t *testing.T, oc officialclient.Client, name, namespace, taskQueue string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := oc.OperatorService().CreateNexusEndpoint(ctx, &operatorservice.CreateNexusEndpointRequest{Spec: &nexuspb.EndpointSpec{
		Name: name,
		Target: &nexuspb.EndpointTarget{Variant: &nexuspb.EndpointTarget_Worker_{Worker: &nexuspb.EndpointTarget_Worker{
			Namespace: namespace, TaskQueue: taskQueue}}},
	}})
	if err != nil {
		t.Fatalf("creating the Nexus endpoint %q: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = oc.OperatorService().DeleteNexusEndpoint(ctx, &operatorservice.DeleteNexusEndpointRequest{
			Id: resp.GetEndpoint().GetId(), Version: resp.GetEndpoint().GetVersion()})
	})
}
