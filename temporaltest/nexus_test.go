package temporaltest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/operatorservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporalnexus"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The Nexus tests call, from workflows of the namespace "default", the
// operations of a service that a worker of the namespace "handlers"
// serves, through an endpoint created with the OperatorService.

const (
	handlerNamespace = "handlers"
	handlerQueue     = "nexus-handlers"
	callerQueue      = "nexus-callers"
	nexusService     = "greetings"
	nexusEndpoint    = "greetings-endpoint"
)

// NapHandler sleeps for d, then says how long it slept by its clock.
func NapHandler(ctx workflow.Context, d time.Duration) (string, error) {
	start := workflow.Now(ctx)
	if err := workflow.Sleep(ctx, d); err != nil {
		return "", err
	}
	return fmt.Sprintf("slept %v", workflow.Now(ctx).Sub(start)), nil
}

// BlockHandler waits for what never comes: it ends when it is canceled.
func BlockHandler(ctx workflow.Context, _ string) (string, error) {
	return "", workflow.Await(ctx, func() bool { return false })
}

func greetingsService() *nexus.Service {
	s := nexus.NewService(nexusService)
	s.MustRegister(
		nexus.NewSyncOperation("echo", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "echo: " + in, nil
		}),
		// flaky fails its first request with a retryable handler error
		// and, for input "refuse", every request with a bad request.
		nexus.NewSyncOperation("flaky", func(_ context.Context, in string, o nexus.StartOperationOptions) (string, error) {
			if in == "refuse" {
				return "", nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "refused %q", in)
			}
			if _, again := flakyRequests.LoadOrStore(o.RequestID, true); !again {
				return "", nexus.NewHandlerErrorf(nexus.HandlerErrorTypeUnavailable, "not yet")
			}
			return "flaky: " + in, nil
		}),
		temporalnexus.NewWorkflowRunOperation("nap", NapHandler,
			func(_ context.Context, _ time.Duration, o nexus.StartOperationOptions) (client.StartWorkflowOptions, error) {
				return client.StartWorkflowOptions{ID: "nap-" + o.RequestID}, nil
			}),
		temporalnexus.NewWorkflowRunOperation("block", BlockHandler,
			func(_ context.Context, _ string, o nexus.StartOperationOptions) (client.StartWorkflowOptions, error) {
				return client.StartWorkflowOptions{ID: "block-" + o.RequestID}, nil
			}),
	)
	return s
}

// flakyRequests are the request IDs the flaky operation has seen.
var flakyRequests sync.Map

// CallFlaky calls the synchronous flaky operation.
func CallFlaky(ctx workflow.Context, in string) (string, error) {
	var out string
	err := workflow.NewNexusClient(nexusEndpoint, nexusService).ExecuteOperation(ctx, "flaky", in,
		workflow.NexusOperationOptions{ScheduleToCloseTimeout: time.Hour}).Get(ctx, &out)
	return out, err
}

// CallEcho calls the synchronous echo operation.
func CallEcho(ctx workflow.Context, endpoint, in string) (string, error) {
	var out string
	err := workflow.NewNexusClient(endpoint, nexusService).ExecuteOperation(ctx, "echo", in,
		workflow.NexusOperationOptions{ScheduleToCloseTimeout: time.Hour}).Get(ctx, &out)
	return out, err
}

// CallNap calls the nap operation, whose workflow sleeps for d in the
// handler's namespace.
func CallNap(ctx workflow.Context, d time.Duration) (string, error) {
	var out string
	err := workflow.NewNexusClient(nexusEndpoint, nexusService).ExecuteOperation(ctx, "nap", d,
		workflow.NexusOperationOptions{ScheduleToCloseTimeout: 365 * 24 * time.Hour}).Get(ctx, &out)
	return out, err
}

// CallAndCancel starts the block operation, cancels it once it started,
// and describes what it saw.
func CallAndCancel(ctx workflow.Context) (string, error) {
	opCtx, cancel := workflow.WithCancel(ctx)
	fut := workflow.NewNexusClient(nexusEndpoint, nexusService).ExecuteOperation(opCtx, "block", "",
		workflow.NexusOperationOptions{ScheduleToCloseTimeout: time.Hour})
	var exec workflow.NexusOperationExecution
	if err := fut.GetNexusOperationExecution().Get(ctx, &exec); err != nil {
		return "", err
	}
	cancel()
	err := fut.Get(ctx, nil)
	var opErr *temporal.NexusOperationError
	var canceled *temporal.CanceledError
	return fmt.Sprintf("token set %v, operation error %v, canceled %v", exec.OperationToken != "", errors.As(err, &opErr), errors.As(err, &canceled)), nil
}

// startNexus starts a server with the namespace "handlers", the endpoint,
// a handler worker there and a caller worker in "default".
func startNexus(t *testing.T, opts temporaltest.ServerOptions) (*temporaltest.Server, client.Client, client.Client) {
	t.Helper()
	opts.Namespaces = append(opts.Namespaces, handlerNamespace)
	srv, c := start(t, opts)
	handlerOpts := srv.ClientOptions()
	handlerOpts.Namespace = handlerNamespace
	hc, err := client.Dial(handlerOpts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hc.Close)
	if _, err := c.OperatorService().CreateNexusEndpoint(context.Background(), &operatorservice.CreateNexusEndpointRequest{Spec: &nexuspb.EndpointSpec{
		Name: nexusEndpoint,
		Target: &nexuspb.EndpointTarget{Variant: &nexuspb.EndpointTarget_Worker_{Worker: &nexuspb.EndpointTarget_Worker{
			Namespace: handlerNamespace, TaskQueue: handlerQueue}}},
	}}); err != nil {
		t.Fatal(err)
	}
	hw := worker.New(hc, handlerQueue, worker.Options{})
	hw.RegisterNexusService(greetingsService())
	hw.RegisterWorkflow(NapHandler)
	hw.RegisterWorkflow(BlockHandler)
	if err := hw.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hw.Stop)
	startWorker(t, c, callerQueue, []any{CallEcho, CallNap, CallAndCancel, CallFlaky}, nil)
	return srv, c, hc
}

func runNexusCaller(t *testing.T, c client.Client, id string, workflowFn any, args ...any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: callerQueue}, workflowFn, args...)
	if err != nil {
		t.Fatal(err)
	}
	var out string
	if err := run.Get(ctx, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// nexusEvents lists a history's Nexus operation events.
func nexusEvents(t *testing.T, c client.Client, id string) string {
	t.Helper()
	var types []string
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if name := ev.GetEventType().String(); strings.HasPrefix(name, "NexusOperation") {
			types = append(types, strings.TrimPrefix(name, "NexusOperation"))
		}
	}
	return strings.Join(types, " ")
}

// TestNexusOperationsCrossNamespaces: a workflow of one namespace calls a
// synchronous operation and a workflow-run operation whose handler runs
// in another; the workflow's result reaches the caller by its callback.
// With time skipping, the handler's month-long sleep passes at once.
func TestNexusOperationsCrossNamespaces(t *testing.T) {
	_, c, hc := startNexus(t, temporaltest.ServerOptions{TimeSkipping: true})
	if got := runNexusCaller(t, c, "echo", CallEcho, nexusEndpoint, "hi"); got != "echo: hi" {
		t.Errorf("the echo operation answered %q", got)
	}
	if got := nexusEvents(t, c, "echo"); got != "Scheduled Completed" {
		t.Errorf("the echo caller's Nexus events: %s; want Scheduled Completed", got)
	}
	month := 30 * 24 * time.Hour
	if got := runNexusCaller(t, c, "nap", CallNap, month); got != fmt.Sprintf("slept %v", month) {
		t.Errorf("the nap operation answered %q", got)
	}
	if got := nexusEvents(t, c, "nap"); got != "Scheduled Started Completed" {
		t.Errorf("the nap caller's Nexus events: %s; want Scheduled Started Completed", got)
	}
	// The handler's workflow ran in its namespace, not in the caller's.
	napID := "nap-" + scheduledRequestID(t, c, "nap")
	if _, err := hc.DescribeWorkflowExecution(context.Background(), napID, ""); err != nil {
		t.Errorf("the handler's workflow %s is not in %s: %v", napID, handlerNamespace, err)
	}
	if _, err := c.DescribeWorkflowExecution(context.Background(), napID, ""); err == nil {
		t.Errorf("the handler's workflow %s is in the caller's namespace too", napID)
	}
}

// TestARetryableHandlerErrorIsRetried: as on a server, a request that a
// handler fails with a retryable handler error is sent again after a
// backoff (skipped here), and one it refuses for good fails the operation.
func TestARetryableHandlerErrorIsRetried(t *testing.T) {
	_, c, _ := startNexus(t, temporaltest.ServerOptions{TimeSkipping: true})
	if got := runNexusCaller(t, c, "flaky", CallFlaky, "hi"); got != "flaky: hi" {
		t.Errorf("the flaky operation answered %q", got)
	}
	if got := nexusEvents(t, c, "flaky"); got != "Scheduled Completed" {
		t.Errorf("the flaky caller's Nexus events: %s; want Scheduled Completed (retries write none)", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "refused", TaskQueue: callerQueue}, CallFlaky, "refuse")
	if err != nil {
		t.Fatal(err)
	}
	var handlerErr *nexus.HandlerError
	if err := run.Get(ctx, nil); !errors.As(err, &handlerErr) || handlerErr.Type != nexus.HandlerErrorTypeBadRequest {
		t.Fatalf("the refused operation ended with %v; want its bad-request handler error", err)
	}
}

// scheduledRequestID is the request ID of a workflow's first Nexus
// operation, from which the handlers derive their workflows' IDs.
func scheduledRequestID(t *testing.T, c client.Client, id string) string {
	t.Helper()
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetNexusOperationScheduledEventAttributes(); a != nil {
			return a.GetRequestId()
		}
	}
	t.Fatalf("%s scheduled no Nexus operation", id)
	return ""
}

// TestACanceledNexusOperationCancelsItsWorkflowInTheOtherNamespace: the
// caller cancels a started workflow-run operation; its cancel request
// reaches the handler, which cancels its workflow, whose close cancels the
// caller's operation by its callback.
func TestACanceledNexusOperationCancelsItsWorkflowInTheOtherNamespace(t *testing.T) {
	_, c, hc := startNexus(t, temporaltest.ServerOptions{})
	got := runNexusCaller(t, c, "cancel", CallAndCancel)
	if got != "token set true, operation error true, canceled true" {
		t.Errorf("the caller saw: %s", got)
	}
	if events := nexusEvents(t, c, "cancel"); events != "Scheduled Started CancelRequested CancelRequestCompleted Canceled" {
		t.Errorf("the caller's Nexus events: %s", events)
	}
	blockID := "block-" + scheduledRequestID(t, c, "cancel")
	desc, err := hc.DescribeWorkflowExecution(context.Background(), blockID, "")
	if err != nil {
		t.Fatal(err)
	}
	if status := desc.GetWorkflowExecutionInfo().GetStatus(); status != enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED {
		t.Errorf("the handler's workflow is %v; want canceled", status)
	}
}

// TestAnOperationOfAnUnknownEndpointFailsItsWorkflowTask: as on a server,
// the command is refused and the workflow task fails, saying which
// endpoint was not found; the workflow waits for it.
func TestAnOperationOfAnUnknownEndpointFailsItsWorkflowTask(t *testing.T) {
	_, c, _ := startNexus(t, temporaltest.ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "unknown", TaskQueue: callerQueue}, CallEcho, "no-such-endpoint", "hi")
	if err != nil {
		t.Fatal(err)
	}
	var failed *historypb.WorkflowTaskFailedEventAttributes
	for failed == nil && ctx.Err() == nil {
		it := c.GetWorkflowHistory(ctx, "unknown", run.GetRunID(), true, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() && failed == nil {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			failed = ev.GetWorkflowTaskFailedEventAttributes()
		}
	}
	if failed.GetCause() != enumspb.WORKFLOW_TASK_FAILED_CAUSE_BAD_SCHEDULE_NEXUS_OPERATION_ATTRIBUTES ||
		failed.GetFailure().GetMessage() != `endpoint "no-such-endpoint" not found` {
		t.Errorf("the workflow task failed with %v: %q; want BAD_SCHEDULE_NEXUS_OPERATION_ATTRIBUTES, endpoint not found",
			failed.GetCause(), failed.GetFailure().GetMessage())
	}
	desc, err := c.DescribeWorkflowExecution(ctx, "unknown", "")
	if err != nil {
		t.Fatal(err)
	}
	if status := desc.GetWorkflowExecutionInfo().GetStatus(); status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		t.Errorf("the workflow is %v; want running, its task retried", status)
	}
	if err := c.TerminateWorkflow(ctx, "unknown", "", "done"); err != nil {
		t.Fatal(err)
	}
}
