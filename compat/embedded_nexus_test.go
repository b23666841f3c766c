package compat

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// nexusHandlerNamespace is the namespace of the handler's worker in
// TestEmbeddedNexusHistoriesMatchTheDevServer; the caller's is "default".
const nexusHandlerNamespace = "compat-nexus-handlers"

// nexusSetup is one server's side of the test: a client of the caller's
// namespace (this SDK's) and of the handler's (go.temporal.io/sdk's), and
// the endpoint that routes to the handler's worker.
type nexusSetup struct {
	caller                client.Client
	handler               officialclient.Client
	callerQueue, endpoint string
}

// setUpNexus registers the handler's namespace (unless it exists) and
// an endpoint to its task queue on the server at hostPort, through the
// gRPC calls the CLI makes, and runs the handler's worker
// (go.temporal.io/sdk's) and the caller's (this SDK's).
func setUpNexus(t *testing.T, hostPort string, stamp int64) nexusSetup {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	namespaces, err := client.NewNamespaceClient(client.Options{HostPort: hostPort})
	if err != nil {
		t.Fatal(err)
	}
	defer namespaces.Close()
	err = namespaces.Register(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace: nexusHandlerNamespace, WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour)})
	var exists *serviceerror.NamespaceAlreadyExists
	if err != nil && !errors.As(err, &exists) {
		t.Fatal(err)
	}
	caller, err := client.Dial(client.Options{HostPort: hostPort})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(caller.Close)
	handler, err := officialclient.Dial(officialclient.Options{HostPort: hostPort, Namespace: nexusHandlerNamespace, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(handler.Close)
	handlerQueue, callerQueue := fmt.Sprintf("embedded-nexus-handler-%d", stamp), fmt.Sprintf("embedded-nexus-caller-%d", stamp)
	s := nexusSetup{caller: caller, handler: handler, callerQueue: callerQueue, endpoint: fmt.Sprintf("embedded-nexus-%d", stamp)}
	resp, err := caller.OperatorService().CreateNexusEndpoint(ctx, &operatorservice.CreateNexusEndpointRequest{Spec: &nexuspb.EndpointSpec{
		Name: s.endpoint,
		Target: &nexuspb.EndpointTarget{Variant: &nexuspb.EndpointTarget_Worker_{Worker: &nexuspb.EndpointTarget_Worker{
			Namespace: nexusHandlerNamespace, TaskQueue: handlerQueue}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = caller.OperatorService().DeleteNexusEndpoint(context.Background(), &operatorservice.DeleteNexusEndpointRequest{
			Id: resp.GetEndpoint().GetId(), Version: resp.GetEndpoint().GetVersion()})
	})
	hw := officialworker.New(handler, handlerQueue, officialworker.Options{})
	hw.RegisterNexusService(officialNexusService(t))
	hw.RegisterWorkflowWithOptions(NexusHandlerWorkflow, officialworkflow.RegisterOptions{Name: "NexusHandlerWorkflow"})
	if err := hw.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hw.Stop)
	cw := worker.New(caller, callerQueue, worker.Options{})
	cw.RegisterWorkflowWithOptions(NexusCallerWorkflowOurs, workflow.RegisterOptions{Name: "NexusCallerWorkflow"})
	if err := cw.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cw.Stop)
	return s
}

// run runs the caller workflow for scenario and returns the event types
// of its history and, for a workflow-run operation, of the handler's
// workflow, whose ID the handler made from the request's ID.
func (s nexusSetup) run(t *testing.T, scenario string) (caller, handler string) {
	t.Helper()
	described, h := runNexusCaller(t, s.caller, s.callerQueue, s.endpoint, scenario)
	t.Logf("%s: %s", scenario, described)
	callerTypes, handlerTypes := eventTypes, eventTypes
	switch scenario {
	case "workflow":
		// Whether the operation's completion comes before the workflow
		// task its start caused is timing's, on a dev server too.
		callerTypes = nonTaskEventTypes
	case "wait-completed":
		// So is where the cancellation's events fall.
		callerTypes, handlerTypes = sortedNonTaskEventTypes, sortedNonTaskEventTypes
	}
	for _, ev := range h.GetEvents() {
		if a := ev.GetNexusOperationScheduledEventAttributes(); a != nil && scenario != "sync" {
			handler = handlerTypes(handlerSideHistory(t, s.handler, "nexus-handler-"+a.GetRequestId()))
		}
	}
	return callerTypes(h.GetEvents()), handler
}

// nonTaskEventTypes lists a history's event types in order, without its
// workflow task events.
func nonTaskEventTypes(events []*historypb.HistoryEvent) string {
	var kept []*historypb.HistoryEvent
	for _, ev := range events {
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			continue
		}
		kept = append(kept, ev)
	}
	return eventTypes(kept)
}

// TestEmbeddedNexusHistoriesMatchTheDevServer calls, from a workflow in
// the namespace "default", a synchronous operation and a workflow-run
// operation of a handler that go.temporal.io/sdk's worker serves in
// another namespace, on the dev server and on the embedded server: the
// caller's history and the handler workflow's must have the same events,
// event type for event type, on both (the workflow-run operation's
// caller, whose workflow tasks fall where the handler's timing puts them,
// without its workflow task events). A workflow-run operation that the
// caller cancels and waits for (its handler cancels its workflow) must
// have the same events too, but for the workflow task events, in any
// order.
func TestEmbeddedNexusHistoriesMatchTheDevServer(t *testing.T) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	stamp := time.Now().UnixNano()
	dev, embedded := setUpNexus(t, testharness.HostPort(t), stamp), setUpNexus(t, srv.HostPort(), stamp)
	for _, scenario := range []string{"sync", "workflow", "wait-completed"} {
		devCaller, devHandler := dev.run(t, scenario)
		embeddedCaller, embeddedHandler := embedded.run(t, scenario)
		if devCaller != embeddedCaller {
			t.Errorf("%s: the callers' histories differ:\n dev server: %s\n embedded:   %s", scenario, devCaller, embeddedCaller)
		}
		if devHandler != embeddedHandler {
			t.Errorf("%s: the handler workflows' histories differ:\n dev server: %s\n embedded:   %s", scenario, devHandler, embeddedHandler)
		}
	}
}
