package temporaltest_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/workflow"
)

// GreetWorkflow greets name with the Greet activity.
func GreetWorkflow(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var greeting string
	err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting)
	return greeting, err
}

// Holder runs the activity Hold, which returns when its test says.
func Holder(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	return workflow.ExecuteActivity(ctx, "Hold").Get(ctx, nil)
}

// holdActivity is the activity Hold: it says it started, and returns
// once released.
type holdActivity struct{ started, release chan struct{} }

func (h *holdActivity) Hold(context.Context) error {
	close(h.started)
	<-h.release
	return nil
}

// dialNamespace is a client of another namespace of srv, closed at the
// test's end.
func dialNamespace(t *testing.T, srv *temporaltest.Server, namespace string) client.Client {
	t.Helper()
	opts := srv.ClientOptions()
	opts.Namespace = namespace
	c, err := client.Dial(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestARegisteredNamespaceRunsWorkflowsApart: a namespace registered
// with the namespace client runs workflows as the default one does, and
// the same workflow ID names different runs in each.
func TestARegisteredNamespaceRunsWorkflowsApart(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{InMemory: true})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	nc, err := client.NewNamespaceClient(srv.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	err = nc.Register(ctx, &workflowservice.RegisterNamespaceRequest{Namespace: "orders", Description: "the orders",
		WorkflowExecutionRetentionPeriod: durationpb.New(72 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	var exists *serviceerror.NamespaceAlreadyExists
	if err := nc.Register(ctx, &workflowservice.RegisterNamespaceRequest{Namespace: "orders",
		WorkflowExecutionRetentionPeriod: durationpb.New(72 * time.Hour)}); !errors.As(err, &exists) {
		t.Errorf("registering it again answered %v; want NamespaceAlreadyExists", err)
	}
	desc, err := nc.Describe(ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	if desc.GetNamespaceInfo().GetDescription() != "the orders" || desc.GetConfig().GetWorkflowExecutionRetentionTtl().AsDuration() != 72*time.Hour {
		t.Errorf("the namespace is described as %v", desc)
	}

	orders := dialNamespace(t, srv, "orders")
	startWorker(t, c, "greet", []any{GreetWorkflow}, []any{Greet})
	startWorker(t, orders, "greet", []any{GreetWorkflow}, []any{Greet})
	runs := map[string]string{}
	for name, cl := range map[string]client.Client{"default": c, "orders": orders} {
		run, err := cl.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "same-id", TaskQueue: "greet"}, GreetWorkflow, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got string
		if err := run.Get(ctx, &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(got, name) {
			t.Errorf("%s: the workflow answered %q", name, got)
		}
		runs[name] = run.GetRunID()
	}
	if runs["default"] == runs["orders"] {
		t.Error("the two namespaces' runs of one workflow ID are one run")
	}
	if _, err := orders.DescribeWorkflowExecution(ctx, "same-id", runs["default"]); err == nil {
		t.Error("the default namespace's run is found in orders")
	}
}

// TestACallToAnUnknownNamespaceIsNotFound: as on a server, a call of a
// namespace that does not exist answers NamespaceNotFound, naming it.
func TestACallToAnUnknownNamespaceIsNotFound(t *testing.T) {
	srv, _ := start(t, temporaltest.ServerOptions{})
	nowhere := dialNamespaceLazily(t, srv, "nowhere")
	_, err := nowhere.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: "q"}, "W")
	var notFound *serviceerror.NamespaceNotFound
	if !errors.As(err, &notFound) || notFound.Namespace != "nowhere" || !strings.Contains(err.Error(), "Namespace nowhere is not found.") {
		t.Errorf("a start in an unknown namespace answered %v; want NamespaceNotFound for it", err)
	}
}

// dialNamespaceLazily is a client of a namespace that may not exist: it
// does not check the namespace when it connects.
func dialNamespaceLazily(t *testing.T, srv *temporaltest.Server, namespace string) client.Client {
	t.Helper()
	opts := srv.ClientOptions()
	opts.Namespace = namespace
	c, err := client.NewLazyClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestTheOperatorServiceAnswersWhatItDoesNotServeWithTheDevServer: the
// OperatorService is served, and its calls the embedded server does not
// serve say to use a dev server.
func TestTheOperatorServiceAnswersWhatItDoesNotServeWithTheDevServer(t *testing.T) {
	_, c := start(t, temporaltest.ServerOptions{})
	_, err := c.OperatorService().ListClusters(context.Background(), &operatorservice.ListClustersRequest{})
	var unimplemented *serviceerror.Unimplemented
	if !errors.As(err, &unimplemented) || !strings.Contains(err.Error(), "ListClusters") || !strings.Contains(err.Error(), "temporal server start-dev") {
		t.Errorf("ListClusters answered %v; want Unimplemented naming the call and the dev server", err)
	}
	if _, err := c.OperatorService().ListNexusEndpoints(context.Background(), &operatorservice.ListNexusEndpointsRequest{}); err != nil {
		t.Errorf("ListNexusEndpoints: %v", err)
	}
}

// TestTimeSkippingWaitsForWorkInFlightInAnyNamespace: the clock is one
// for all namespaces. While an activity of one namespace runs, a timer of
// another does not skip ahead; once it is done, the timer fires at once.
func TestTimeSkippingWaitsForWorkInFlightInAnyNamespace(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{TimeSkipping: true, Namespaces: []string{"busy"}})
	busy := dialNamespace(t, srv, "busy")
	hold := &holdActivity{started: make(chan struct{}), release: make(chan struct{})}
	startWorker(t, busy, "hold", []any{Holder}, []any{hold})
	startWorker(t, c, "month", []any{Month}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	held, err := busy.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "holder", TaskQueue: "hold"}, Holder)
	if err != nil {
		t.Fatal(err)
	}
	<-hold.started
	month, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "month", TaskQueue: "month"}, Month)
	if err != nil {
		t.Fatal(err)
	}
	// The month's timer is set, and the activity still runs: the clock
	// must not skip, however long the test waits.
	waitForEvent(t, c, "month", enumspb.EVENT_TYPE_TIMER_STARTED)
	time.Sleep(200 * time.Millisecond)
	desc, err := c.DescribeWorkflowExecution(ctx, "month", "")
	if err != nil {
		t.Fatal(err)
	}
	if status := desc.GetWorkflowExecutionInfo().GetStatus(); status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		t.Fatalf("the month-long sleep ended (%v) while an activity of another namespace ran", status)
	}
	close(hold.release)
	if err := held.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	var slept time.Duration
	if err := month.Get(ctx, &slept); err != nil {
		t.Fatal(err)
	}
	if slept != 30*24*time.Hour {
		t.Errorf("the workflow slept %v by its clock; want 720h", slept)
	}
}

// waitForEvent waits until a workflow's history holds an event of type
// want.
func waitForEvent(t *testing.T, c client.Client, workflowID string, want enumspb.EventType) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	it := c.GetWorkflowHistory(ctx, workflowID, "", true, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.GetEventType() == want {
			return
		}
	}
	t.Fatalf("%s closed without a %v event", workflowID, want)
}
