package main

import (
	"context"
	"errors"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/historycheck"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
)

// TestAcrossTwoNamespacesOnTheEmbeddedServer runs the example on the
// embedded server (temporaltest), set up as its README does with the CLI,
// but through the client's and the OperatorService's gRPC calls: the two
// namespaces registered, the endpoint created. Both operations answer as
// on a dev server, a language the handler does not know fails the
// operation with the handler workflow's error, and the HelloHandlerWorkflow
// run is in my-target-namespace, not in my-caller-namespace. The callers'
// histories hold the events they hold on a dev server.
func TestAcrossTwoNamespacesOnTheEmbeddedServer(t *testing.T) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	hostPort := historycheck.Server(t, srv.HostPort())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := createNamespaces(ctx, hostPort); err != nil {
		t.Fatal(err)
	}
	handlerClient := dial(t, hostPort, HandlerNamespace)
	callerClient := dial(t, hostPort, CallerNamespace)
	if err := createEndpoint(ctx, callerClient); err != nil {
		t.Fatal(err)
	}
	// A second setup finds the namespaces and the endpoint there, as the
	// program's does on a server it ran on before.
	if err := createNamespaces(ctx, hostPort); err != nil {
		t.Fatal(err)
	}
	if err := createEndpoint(ctx, callerClient); err != nil {
		t.Fatal(err)
	}
	for _, w := range []worker.Worker{NewHandlerWorker(handlerClient), NewCallerWorker(callerClient)} {
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
	}

	echo, hello, err := callBoth(ctx, callerClient, "ping", "Temporal", Turkish)
	if err != nil {
		t.Fatal(err)
	}
	if echo != "ping" || hello != "Merhaba Temporal!" {
		t.Errorf("the operations answered %q and %q, want %q and %q", echo, hello, "ping", "Merhaba Temporal!")
	}
	// The hello operation's workflow ran in the handler's namespace, not
	// in the caller's: its ID comes from the request's ID, which the
	// caller's NexusOperationScheduled event records.
	var requestID string
	for _, ev := range history(t, callerClient, "nexus-hello-caller") {
		if a := ev.GetNexusOperationScheduledEventAttributes(); a != nil {
			requestID = a.GetRequestId()
		}
	}
	handlerRun := "hello-" + requestID
	events := history(t, handlerClient, handlerRun)
	if last := events[len(events)-1].GetEventType(); last != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED {
		t.Errorf("the handler's workflow %s in %s ended with %v", handlerRun, HandlerNamespace, last)
	}
	if _, err := callerClient.DescribeWorkflowExecution(ctx, handlerRun, ""); err == nil {
		t.Errorf("the handler's workflow %s is found in %s too", handlerRun, CallerNamespace)
	}

	run, err := callerClient.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "nexus-hello-unknown-language", TaskQueue: CallerTaskQueue},
		HelloCallerWorkflow, "Temporal", Language("tlh"))
	if err != nil {
		t.Fatal(err)
	}
	err = run.Get(ctx, nil)
	var opErr *temporal.NexusOperationError
	var appErr *temporal.ApplicationError
	if !errors.As(err, &opErr) || opErr.Endpoint != Endpoint || opErr.Service != ServiceName || opErr.Operation != HelloOperationName {
		t.Fatalf("got %v; want a NexusOperationError of %s/%s/%s", err, Endpoint, ServiceName, HelloOperationName)
	}
	if !errors.As(opErr, &appErr) || appErr.Type() != "UnsupportedLanguage" {
		t.Errorf("the operation's cause: got %v, want the handler workflow's UnsupportedLanguage error", opErr.Unwrap())
	}

	// The callers' histories hold the events they hold on a dev server,
	// but for the workflow tasks: an operation's start and outcome come
	// from the handler's side at times of their own. (The handler's
	// workflows are named by the request's random ID.)
	historycheck.Check(t, callerClient, "testdata/callers.json", historycheck.OutcomeEvents,
		"nexus-echo-caller", "nexus-hello-caller", "nexus-hello-unknown-language")
}

// history is a workflow's history.
func history(t *testing.T, c client.Client, workflowID string) []*historypb.HistoryEvent {
	t.Helper()
	var events []*historypb.HistoryEvent
	it := c.GetWorkflowHistory(context.Background(), workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	return events
}
