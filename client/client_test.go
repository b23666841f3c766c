package client_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// The dev server registers these custom search attributes for the tests.
const (
	keywordAttribute = "ClientTestKeyword"
	intAttribute     = "ClientTestInt"
	// otherNamespace is created at start, besides "default".
	otherNamespace = "client-tests"
)

func TestMain(m *testing.M) {
	testharness.Main(m, testharness.WithServerOptions(devserver.Options{
		Namespace:        otherNamespace,
		SearchAttributes: map[string]string{keywordAttribute: "Keyword", intAttribute: "Int"},
	}))
}

// dial connects to the test server's default namespace.
func dial(t *testing.T) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Identity: "client-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

var idCounter atomic.Int64

// workflowID is unique per call, and says which test made it.
func workflowID(t *testing.T) string {
	return fmt.Sprintf("%s-%d-%d", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().UnixNano(), idCounter.Add(1))
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// start starts a workflow that no worker will ever run, which is all these
// client calls need.
func start(t *testing.T, c client.Client, options client.StartWorkflowOptions, args ...any) client.WorkflowRun {
	t.Helper()
	if options.ID == "" {
		options.ID = workflowID(t)
	}
	if options.TaskQueue == "" {
		options.TaskQueue = "client-tests"
	}
	run, err := c.ExecuteWorkflow(ctxFor(t), options, "ClientTestWorkflow", args...)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func history(t *testing.T, c client.Client, id, runID string) []*historypb.HistoryEvent {
	t.Helper()
	it := c.GetWorkflowHistory(ctxFor(t), id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var events []*historypb.HistoryEvent
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	return events
}

func findEvent(events []*historypb.HistoryEvent, eventType enumspb.EventType) *historypb.HistoryEvent {
	for _, e := range events {
		if e.GetEventType() == eventType {
			return e
		}
	}
	return nil
}

func TestDialUnreachableServer(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddress := lis.Addr().String()
	_ = lis.Close()

	_, err = client.Dial(client.Options{HostPort: closedAddress})
	var unreachable *rpc.UnreachableError
	if !errors.As(err, &unreachable) {
		t.Fatalf("want an UnreachableError, got %T: %v", err, err)
	}
	if !strings.Contains(err.Error(), closedAddress) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("the error should name the address and the cause: %v", err)
	}

	// A lazy client only finds out on its first call.
	lazy, err := client.NewLazyClient(client.Options{HostPort: closedAddress})
	if err != nil {
		t.Fatalf("a lazy client must not connect: %v", err)
	}
	defer lazy.Close()
	_, err = lazy.DescribeWorkflowExecution(context.Background(), "any", "")
	if !errors.As(err, &unreachable) {
		t.Fatalf("want an UnreachableError on first use, got %T: %v", err, err)
	}
}

func TestDialUnknownNamespace(t *testing.T) {
	_, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Namespace: "no-such-namespace"})
	var notFound *rpc.NamespaceNotFoundError
	if !errors.As(err, &notFound) {
		t.Fatalf("want a NamespaceNotFoundError, got %T: %v", err, err)
	}
	if !strings.Contains(err.Error(), "temporal operator namespace create no-such-namespace") {
		t.Errorf("the error should say how to create the namespace: %v", err)
	}
}

func TestCheckHealth(t *testing.T) {
	c := dial(t)
	if _, err := c.CheckHealth(ctxFor(t), &client.CheckHealthRequest{}); err != nil {
		t.Fatal(err)
	}
}

func TestSecondStartWithTheSameID(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	id := workflowID(t)
	first := start(t, c, client.StartWorkflowOptions{ID: id})

	// By default the caller gets the running workflow, as the official SDK does.
	again, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: "client-tests"}, "ClientTestWorkflow")
	if err != nil {
		t.Fatal(err)
	}
	if again.GetRunID() != first.GetRunID() {
		t.Errorf("want the running run %s, got %s", first.GetRunID(), again.GetRunID())
	}

	// Asked to, it reports the conflict as the server's typed error.
	_, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: "client-tests", WorkflowExecutionErrorWhenAlreadyStarted: true,
	}, "ClientTestWorkflow")
	var alreadyStarted *serviceerror.WorkflowExecutionAlreadyStarted
	if !errors.As(err, &alreadyStarted) || !temporal.IsWorkflowExecutionAlreadyStartedError(err) {
		t.Fatalf("want WorkflowExecutionAlreadyStarted, got %T: %v", err, err)
	}
	if alreadyStarted.RunId != first.GetRunID() || !strings.Contains(err.Error(), id) {
		t.Errorf("the error should name the workflow and its run: %v (run %s)", err, alreadyStarted.RunId)
	}

	// The conflict policy can allow it: use the running workflow...
	existing, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: "client-tests", WorkflowExecutionErrorWhenAlreadyStarted: true,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, "ClientTestWorkflow")
	if err != nil {
		t.Fatal(err)
	}
	if existing.GetRunID() != first.GetRunID() {
		t.Errorf("USE_EXISTING: want run %s, got %s", first.GetRunID(), existing.GetRunID())
	}

	// ... or replace it.
	replacement, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: "client-tests", WorkflowExecutionErrorWhenAlreadyStarted: true,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING,
	}, "ClientTestWorkflow")
	if err != nil {
		t.Fatal(err)
	}
	if replacement.GetRunID() == first.GetRunID() {
		t.Error("TERMINATE_EXISTING must start a new run")
	}
	if err := first.Get(ctx, nil); !temporal.IsTerminatedError(err) {
		t.Errorf("the replaced run should be terminated, got %v", err)
	}
}

func TestIDReusePolicy(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	id := workflowID(t)
	first := start(t, c, client.StartWorkflowOptions{ID: id})
	if err := c.TerminateWorkflow(ctx, id, first.GetRunID(), "done"); err != nil {
		t.Fatal(err)
	}

	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: "client-tests", WorkflowExecutionErrorWhenAlreadyStarted: true,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, "ClientTestWorkflow")
	var alreadyStarted *serviceerror.WorkflowExecutionAlreadyStarted
	if !errors.As(err, &alreadyStarted) {
		t.Fatalf("REJECT_DUPLICATE: want WorkflowExecutionAlreadyStarted, got %T: %v", err, err)
	}

	second, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: "client-tests", WorkflowExecutionErrorWhenAlreadyStarted: true,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
	}, "ClientTestWorkflow")
	if err != nil {
		t.Fatalf("ALLOW_DUPLICATE_FAILED_ONLY allows reuse after termination: %v", err)
	}
	if second.GetRunID() == first.GetRunID() {
		t.Error("want a new run")
	}
}

func TestStartOptionsReachTheServer(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	keyword := temporal.NewSearchAttributeKeyKeyword(keywordAttribute)
	run := start(t, c, client.StartWorkflowOptions{
		TaskQueue:                "client-tests-options",
		WorkflowExecutionTimeout: time.Hour,
		WorkflowRunTimeout:       30 * time.Minute,
		WorkflowTaskTimeout:      7 * time.Second,
		RetryPolicy:              &temporal.RetryPolicy{InitialInterval: 2 * time.Second, MaximumAttempts: 4},
		Memo:                     map[string]any{"customer": "acme"},
		TypedSearchAttributes:    temporal.NewSearchAttributes(keyword.ValueSet("gold")),
		StartDelay:               time.Hour,
		StaticSummary:            "a summary",
		Priority:                 temporal.Priority{PriorityKey: 2},
	}, "order-1", 3)

	desc, err := c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
	if err != nil {
		t.Fatal(err)
	}
	info := desc.GetWorkflowExecutionInfo()
	if got := info.GetType().GetName(); got != "ClientTestWorkflow" {
		t.Errorf("workflow type %q", got)
	}
	if got := info.GetTaskQueue(); got != "client-tests-options" {
		t.Errorf("task queue %q", got)
	}
	if info.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		t.Errorf("status %v", info.GetStatus())
	}
	var customer string
	if err := converter.GetDefaultDataConverter().FromPayload(info.GetMemo().GetFields()["customer"], &customer); err != nil || customer != "acme" {
		t.Errorf("memo: %q, %v", customer, err)
	}
	var level string
	if err := converter.GetDefaultDataConverter().FromPayload(info.GetSearchAttributes().GetIndexedFields()[keywordAttribute], &level); err != nil || level != "gold" {
		t.Errorf("search attribute: %q, %v", level, err)
	}
	if delay := info.GetExecutionTime().AsTime().Sub(info.GetStartTime().AsTime()); delay < 59*time.Minute {
		t.Errorf("the start delay should postpone the execution by an hour, got %v", delay)
	}
	var summary string
	if err := converter.GetDefaultDataConverter().FromPayload(desc.GetExecutionConfig().GetUserMetadata().GetSummary(), &summary); err != nil || summary != "a summary" {
		t.Errorf("summary: %q, %v", summary, err)
	}

	described, err := c.DescribeWorkflow(ctx, run.GetID(), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := described.WorkflowExecution; got.ID != run.GetID() || got.RunID != run.GetRunID() {
		t.Errorf("DescribeWorkflow execution %v", got)
	}
	if described.WorkflowType.Name != "ClientTestWorkflow" || described.TaskQueueName != "client-tests-options" ||
		described.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING || described.WorkflowCloseTime != nil {
		t.Errorf("DescribeWorkflow metadata %+v", described.WorkflowExecutionMetadata)
	}
	if err := described.GetMemoValue("customer", &customer); err != nil || customer != "acme" {
		t.Errorf("GetMemoValue: %q, %v", customer, err)
	}
	if err := described.GetMemoValue("nothing", &customer); !errors.Is(err, temporal.ErrNoData) {
		t.Errorf("GetMemoValue of a missing key: %v", err)
	}
	if got, ok := described.TypedSearchAttributes.GetKeyword(keyword); !ok || got != "gold" {
		t.Errorf("typed search attribute %q %v", got, ok)
	}
	if got, err := described.GetStaticSummary(); err != nil || got != "a summary" {
		t.Errorf("GetStaticSummary: %q, %v", got, err)
	}
	if got, err := described.GetStaticDetails(); err != nil || got != "" {
		t.Errorf("GetStaticDetails: %q, %v", got, err)
	}
	if described.ExecutionTime == nil || described.ExecutionTime.Sub(described.WorkflowStartTime) < 59*time.Minute {
		t.Errorf("execution time %v, start %v", described.ExecutionTime, described.WorkflowStartTime)
	}
	// RawResponse is the server's answer, with what the fields leave out.
	raw := described.RawResponse
	if raw.GetWorkflowExecutionInfo().GetExecution().GetRunId() != run.GetRunID() ||
		raw.GetExecutionConfig().GetTaskQueue().GetName() != "client-tests-options" {
		t.Errorf("RawResponse %v", raw)
	}

	started := findEvent(history(t, c, run.GetID(), run.GetRunID()), enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED).
		GetWorkflowExecutionStartedEventAttributes()
	if got := started.GetWorkflowExecutionTimeout().AsDuration(); got != time.Hour {
		t.Errorf("execution timeout %v", got)
	}
	if got := started.GetWorkflowRunTimeout().AsDuration(); got != 30*time.Minute {
		t.Errorf("run timeout %v", got)
	}
	if got := started.GetWorkflowTaskTimeout().AsDuration(); got != 7*time.Second {
		t.Errorf("task timeout %v", got)
	}
	if got := started.GetRetryPolicy(); got.GetMaximumAttempts() != 4 || got.GetInitialInterval().AsDuration() != 2*time.Second {
		t.Errorf("retry policy %v", got)
	}
	if got := started.GetFirstWorkflowTaskBackoff().AsDuration(); got != time.Hour {
		t.Errorf("first workflow task backoff %v", got)
	}
	if got := started.GetPriority().GetPriorityKey(); got != 2 {
		t.Errorf("priority %d", got)
	}
	if got := started.GetIdentity(); got != "client-test" {
		t.Errorf("identity %q", got)
	}
	var orderID string
	var quantity int
	if err := converter.GetDefaultDataConverter().FromPayloads(started.GetInput(), &orderID, &quantity); err != nil || orderID != "order-1" || quantity != 3 {
		t.Errorf("input: %q %d %v", orderID, quantity, err)
	}
}

func TestUntypedSearchAttributesAndCron(t *testing.T) {
	c := dial(t)
	run := start(t, c, client.StartWorkflowOptions{
		//lint:ignore SA1019 the untyped form is deprecated but supported.
		SearchAttributes: map[string]any{intAttribute: 42},
		CronSchedule:     "0 0 1 1 *",
	})
	desc, err := c.DescribeWorkflowExecution(ctxFor(t), run.GetID(), run.GetRunID())
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := converter.GetDefaultDataConverter().FromPayload(desc.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()[intAttribute], &n); err != nil || n != 42 {
		t.Errorf("search attribute: %d, %v", n, err)
	}
	started := findEvent(history(t, c, run.GetID(), run.GetRunID()), enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED).
		GetWorkflowExecutionStartedEventAttributes()
	if started.GetCronSchedule() != "0 0 1 1 *" {
		t.Errorf("cron schedule %q", started.GetCronSchedule())
	}
	if started.GetFirstWorkflowTaskBackoff().AsDuration() <= 0 {
		t.Error("a cron workflow waits for its first slot")
	}
}

func TestBadStartsSendNothing(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	id := workflowID(t)

	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: "q"}, "ClientTestWorkflow", "fine", make(chan int))
	if err == nil || !strings.Contains(err.Error(), "argument 2 (chan int) cannot be encoded") {
		t.Errorf("want an error naming the argument, got %v", err)
	}
	_, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id}, "ClientTestWorkflow")
	if err == nil || !strings.Contains(err.Error(), "TaskQueue is required") {
		t.Errorf("want an error about the task queue, got %v", err)
	}
	workflowFunc := func(ctx workflow.Context, n int) error { return nil }
	_, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: "q"}, workflowFunc, "not an int")
	if err == nil || !strings.Contains(err.Error(), "argument 1 is string") {
		t.Errorf("want an error about the argument's type, got %v", err)
	}

	_, err = c.DescribeWorkflowExecution(ctx, id, "")
	var notFound *serviceerror.NotFound
	if !errors.As(err, &notFound) {
		t.Fatalf("nothing should have started; Describe: %T %v", err, err)
	}
}

func TestGetWorkflowFindsTheCurrentRun(t *testing.T) {
	c := dial(t)
	run := start(t, c, client.StartWorkflowOptions{})
	handle := c.GetWorkflow(ctxFor(t), run.GetID(), "")
	if handle.GetID() != run.GetID() || handle.GetRunID() != run.GetRunID() {
		t.Errorf("want %s/%s, got %s/%s", run.GetID(), run.GetRunID(), handle.GetID(), handle.GetRunID())
	}
	if run.GetFirstExecutionRunID() != run.GetRunID() {
		t.Errorf("a new workflow's first run is itself: %q", run.GetFirstExecutionRunID())
	}
}

func TestSignalIsRecorded(t *testing.T) {
	c := dial(t)
	run := start(t, c, client.StartWorkflowOptions{})
	if err := c.SignalWorkflow(ctxFor(t), run.GetID(), "", "approve", map[string]string{"by": "ann"}); err != nil {
		t.Fatal(err)
	}
	signaled := findEvent(history(t, c, run.GetID(), run.GetRunID()), enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED).
		GetWorkflowExecutionSignaledEventAttributes()
	if signaled.GetSignalName() != "approve" || signaled.GetIdentity() != "client-test" {
		t.Fatalf("signal event %v", signaled)
	}
	var arg map[string]string
	if err := converter.GetDefaultDataConverter().FromPayloads(signaled.GetInput(), &arg); err != nil || arg["by"] != "ann" {
		t.Errorf("signal input %v, %v", arg, err)
	}

	err := c.SignalWorkflow(ctxFor(t), workflowID(t), "", "approve", nil)
	var notFound *serviceerror.NotFound
	if !errors.As(err, &notFound) {
		t.Errorf("signaling a missing workflow: want NotFound, got %T %v", err, err)
	}
}

func TestSignalWithStart(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	id := workflowID(t)
	options := client.StartWorkflowOptions{TaskQueue: "client-tests", Memo: map[string]any{"k": "v"}}
	run, err := c.SignalWithStartWorkflow(ctx, id, "add", 1, options, "ClientTestWorkflow", "arg")
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.SignalWithStartWorkflow(ctx, id, "add", 2, options, "ClientTestWorkflow", "arg")
	if err != nil {
		t.Fatal(err)
	}
	if again.GetRunID() != run.GetRunID() {
		t.Errorf("the second call should signal the running workflow: %s vs %s", again.GetRunID(), run.GetRunID())
	}
	var signals []int
	for _, e := range history(t, c, id, run.GetRunID()) {
		if a := e.GetWorkflowExecutionSignaledEventAttributes(); a != nil {
			var n int
			if err := converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &n); err != nil {
				t.Fatal(err)
			}
			signals = append(signals, n)
		}
	}
	if fmt.Sprint(signals) != "[1 2]" {
		t.Errorf("signals %v", signals)
	}

	_, err = c.SignalWithStartWorkflow(ctx, id, "add", 3, client.StartWorkflowOptions{ID: "other", TaskQueue: "q"}, "ClientTestWorkflow")
	if err == nil || !strings.Contains(err.Error(), "differs from workflowID") {
		t.Errorf("want an error about the two IDs, got %v", err)
	}
}

func TestCancelIsRequested(t *testing.T) {
	c := dial(t)
	run := start(t, c, client.StartWorkflowOptions{})
	if err := c.CancelWorkflowWithOptions(ctxFor(t), client.CancelWorkflowOptions{
		WorkflowID: run.GetID(), RunID: run.GetRunID(), Reason: "customer left",
	}); err != nil {
		t.Fatal(err)
	}
	requested := findEvent(history(t, c, run.GetID(), run.GetRunID()), enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED)
	if requested == nil {
		t.Fatal("no cancel-requested event")
	}
	if a := requested.GetWorkflowExecutionCancelRequestedEventAttributes(); a.GetIdentity() != "client-test" || a.GetCause() != "customer left" {
		t.Errorf("cancel-requested event %v", a)
	}
	if err := c.CancelWorkflow(ctxFor(t), run.GetID(), ""); err != nil {
		t.Errorf("a repeated cancel request is accepted: %v", err)
	}
}

func TestTerminateThenGet(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	run := start(t, c, client.StartWorkflowOptions{})

	// Get blocks until the workflow closes.
	got := make(chan error, 1)
	go func() { got <- run.Get(ctx, nil) }()
	select {
	case err := <-got:
		t.Fatalf("Get returned before the workflow closed: %v", err)
	case <-time.After(300 * time.Millisecond):
	}

	if err := c.TerminateWorkflow(ctx, run.GetID(), run.GetRunID(), "stuck", "detail"); err != nil {
		t.Fatal(err)
	}
	err := <-got
	var execErr *temporal.WorkflowExecutionError
	if !errors.As(err, &execErr) {
		t.Fatalf("want a WorkflowExecutionError, got %T: %v", err, err)
	}
	var terminated *temporal.TerminatedError
	if !errors.As(err, &terminated) || !temporal.IsTerminatedError(err) {
		t.Errorf("want the cause to be a TerminatedError: %v", err)
	}
	if !strings.Contains(err.Error(), run.GetID()) || !strings.Contains(err.Error(), run.GetRunID()) {
		t.Errorf("the error should name the run: %v", err)
	}

	// A handle without a run ID gives the same answer.
	if err := c.GetWorkflow(ctx, run.GetID(), "").Get(ctx, nil); !temporal.IsTerminatedError(err) {
		t.Errorf("GetWorkflow(...).Get: %v", err)
	}

	events := history(t, c, run.GetID(), run.GetRunID())
	a := events[len(events)-1].GetWorkflowExecutionTerminatedEventAttributes()
	var detail string
	if a == nil || a.GetReason() != "stuck" || converter.GetDefaultDataConverter().FromPayloads(a.GetDetails(), &detail) != nil || detail != "detail" {
		t.Errorf("terminated event %v", events[len(events)-1])
	}
}

func TestGetWorkflowHistory(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	run := start(t, c, client.StartWorkflowOptions{})
	for i := range 3 {
		if err := c.SignalWorkflow(ctx, run.GetID(), run.GetRunID(), "s", i); err != nil {
			t.Fatal(err)
		}
	}

	// A long poll for the close event waits for it.
	closed := make(chan *historypb.HistoryEvent, 1)
	go func() {
		it := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), true, enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT)
		var last *historypb.HistoryEvent
		for it.HasNext() {
			e, err := it.Next()
			if err != nil {
				t.Error(err)
				break
			}
			last = e
		}
		closed <- last
	}()
	time.Sleep(300 * time.Millisecond)
	if err := c.TerminateWorkflow(ctx, run.GetID(), run.GetRunID(), "end"); err != nil {
		t.Fatal(err)
	}
	if e := <-closed; e.GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED {
		t.Errorf("long poll for the close event got %v", e.GetEventType())
	}

	events := history(t, c, run.GetID(), run.GetRunID())
	if events[0].GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED {
		t.Errorf("history starts with %v", events[0].GetEventType())
	}
	for i, e := range events {
		if e.GetEventId() != int64(i+1) {
			t.Fatalf("event %d has ID %d", i, e.GetEventId())
		}
	}
	signals := 0
	for _, e := range events {
		if e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED {
			signals++
		}
	}
	if signals != 3 || events[len(events)-1].GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED {
		t.Errorf("%d signals, last event %v", signals, events[len(events)-1].GetEventType())
	}

	it := c.GetWorkflowHistory(ctx, workflowID(t), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	if !it.HasNext() {
		t.Fatal("a missing workflow's history should end with an error")
	}
	_, err := it.Next()
	var notFound *serviceerror.NotFound
	if !errors.As(err, &notFound) {
		t.Errorf("want NotFound, got %T %v", err, err)
	}
}

func TestQueryRejectedForAClosedWorkflow(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	run := start(t, c, client.StartWorkflowOptions{})
	if err := c.TerminateWorkflow(ctx, run.GetID(), "", "end"); err != nil {
		t.Fatal(err)
	}
	resp, err := c.QueryWorkflowWithOptions(ctx, &client.QueryWorkflowWithOptionsRequest{
		WorkflowID:           run.GetID(),
		QueryType:            "state",
		QueryRejectCondition: enumspb.QUERY_REJECT_CONDITION_NOT_OPEN,
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.QueryRejected.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED || resp.QueryResult != nil {
		t.Errorf("want a rejection naming the status, got %v", resp)
	}
}

func TestListAndCount(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	tag := workflowID(t)
	keyword := temporal.NewSearchAttributeKeyKeyword(keywordAttribute)
	var runs []client.WorkflowRun
	for range 3 {
		runs = append(runs, start(t, c, client.StartWorkflowOptions{
			TypedSearchAttributes: temporal.NewSearchAttributes(keyword.ValueSet(tag)),
		}))
	}
	if err := c.TerminateWorkflow(ctx, runs[0].GetID(), "", "closed for the test"); err != nil {
		t.Fatal(err)
	}
	query := fmt.Sprintf("%s = '%s'", keywordAttribute, tag)

	// Visibility is eventually consistent.
	var listed *workflowservice.ListWorkflowExecutionsResponse
	eventually(t, func() bool {
		var err error
		listed, err = c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		return len(listed.GetExecutions()) == 3 && countOpen(listed) == 2
	})
	count, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: query})
	if err != nil || count.GetCount() != 3 {
		t.Errorf("count %d, %v", count.GetCount(), err)
	}
	running, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: query + " AND ExecutionStatus = 'Running'"})
	if err != nil || running.GetCount() != 2 {
		t.Errorf("running count %d, %v", running.GetCount(), err)
	}
	//lint:ignore SA1019 Scan is deprecated but part of the Client interface.
	scanned, err := c.ScanWorkflow(ctx, &workflowservice.ScanWorkflowExecutionsRequest{Query: query})
	if err != nil || len(scanned.GetExecutions()) != 3 {
		t.Errorf("scan found %d, %v", len(scanned.GetExecutions()), err)
	}

	_, err = c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: "NoSuchAttribute = 1"})
	var invalid *serviceerror.InvalidArgument
	if !errors.As(err, &invalid) {
		t.Errorf("a bad query: want InvalidArgument, got %T %v", err, err)
	}
}

func countOpen(resp *workflowservice.ListWorkflowExecutionsResponse) int {
	n := 0
	for _, e := range resp.GetExecutions() {
		if e.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			n++
		}
	}
	return n
}

func eventually(t *testing.T, condition func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !condition() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 20s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestGetSearchAttributes(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	resp, err := c.GetSearchAttributes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]enumspb.IndexedValueType{
		"WorkflowId":      enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		"ExecutionStatus": enumspb.INDEXED_VALUE_TYPE_KEYWORD,
		"StartTime":       enumspb.INDEXED_VALUE_TYPE_DATETIME,
	} {
		if got := resp.GetKeys()[name]; got != want {
			t.Errorf("%s has type %v, want %v", name, got, want)
		}
	}

	// With SQL visibility (the dev server's) custom attributes are
	// per-namespace aliases, listed by the operator service.
	listed, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: client.DefaultNamespace})
	if err != nil {
		t.Fatal(err)
	}
	if got := listed.GetCustomAttributes()[keywordAttribute]; got != enumspb.INDEXED_VALUE_TYPE_KEYWORD {
		t.Errorf("%s has type %v", keywordAttribute, got)
	}
}

func TestClientFromExistingWorksInItsNamespace(t *testing.T) {
	base := dial(t)
	other, err := client.NewClientFromExisting(base, client.Options{Namespace: otherNamespace})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx := ctxFor(t)
	run := start(t, other, client.StartWorkflowOptions{})
	if _, err := other.DescribeWorkflowExecution(ctx, run.GetID(), ""); err != nil {
		t.Errorf("the workflow is in %s: %v", otherNamespace, err)
	}
	_, err = base.DescribeWorkflowExecution(ctx, run.GetID(), "")
	var notFound *serviceerror.NotFound
	if !errors.As(err, &notFound) {
		t.Errorf("the workflow is not in the default namespace: %T %v", err, err)
	}

	_, err = client.NewClientFromExisting(base, client.Options{Namespace: "no-such-namespace"})
	var nsNotFound *rpc.NamespaceNotFoundError
	if !errors.As(err, &nsNotFound) {
		t.Errorf("want NamespaceNotFoundError, got %T %v", err, err)
	}
}

func TestActivityCallsForAMissingActivity(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	run := start(t, c, client.StartWorkflowOptions{})
	var notFound *serviceerror.NotFound
	err := c.CompleteActivityByID(ctx, client.DefaultNamespace, run.GetID(), run.GetRunID(), "no-such-activity", "result", nil)
	if !errors.As(err, &notFound) {
		t.Errorf("CompleteActivityByID: want NotFound, got %T %v", err, err)
	}
	err = c.RecordActivityHeartbeatByID(ctx, client.DefaultNamespace, run.GetID(), run.GetRunID(), "no-such-activity", "progress")
	if !errors.As(err, &notFound) {
		t.Errorf("RecordActivityHeartbeatByID: want NotFound, got %T %v", err, err)
	}
	err = c.CompleteActivity(ctx, []byte("not a task token"), nil, nil)
	var invalid *serviceerror.InvalidArgument
	if !errors.As(err, &invalid) {
		t.Errorf("CompleteActivity with a bad token: want InvalidArgument, got %T %v", err, err)
	}
}

// TestRunGetPastItsContextIsTheServiceError: Get of a run that does not
// end before the caller's context does returns what go.temporal.io/sdk
// returns, a *serviceerror.DeadlineExceeded (or *serviceerror.Canceled),
// which ported code asserts (issue 32 item 5).
func TestRunGetPastItsContextIsTheServiceError(t *testing.T) {
	c := dial(t)
	ctx := context.Background()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflowID(t), TaskQueue: "no-worker-polls-this"}, "Nothing")
	if err != nil {
		t.Fatal(err)
	}
	defer c.TerminateWorkflow(ctx, run.GetID(), "", "test done")
	deadline, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := run.Get(deadline, nil); !isType[*serviceerror.DeadlineExceeded](err) {
		t.Errorf("Get past its deadline: %T %v; want a *serviceerror.DeadlineExceeded", err, err)
	}
	canceled, cancel := context.WithCancel(ctx)
	time.AfterFunc(300*time.Millisecond, cancel)
	if err := run.Get(canceled, nil); !isType[*serviceerror.Canceled](err) {
		t.Errorf("Get canceled: %T %v; want a *serviceerror.Canceled", err, err)
	}
}

// isType reports whether err is a T itself, as err.(T) asserts.
func isType[T error](err error) bool {
	_, ok := err.(T)
	return ok
}

// TestServerTakesThisSDKsName: clients identify as this SDK ("durable-go"
// and its own version), not as go.temporal.io/sdk. The server checks the
// version of the SDKs it knows and refuses one it does not support; a name
// it does not know goes through, whatever its version, so nothing depends
// on posing as "temporal-go".
func TestServerTakesThisSDKsName(t *testing.T) {
	testharness.NeedsDevServer(t, "a server's check of the client's SDK name and version")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hp := testharness.HostPort(t)
	_, err := rpc.Dial(ctx, rpc.Options{HostPort: hp, ClientName: "temporal-go", ClientVersion: "9.0.0"})
	var notSupported *serviceerror.ClientVersionNotSupported
	if !errors.As(err, &notSupported) {
		t.Fatalf("the server took temporal-go 9.0.0 (%v): the premise of this test, that it checks the SDKs it knows, is gone", err)
	}
	for _, version := range []string{rpc.DefaultClientVersion, "9.0.0"} {
		conn, err := rpc.Dial(ctx, rpc.Options{HostPort: hp, ClientVersion: version})
		if err != nil {
			t.Fatalf("the server refused %s %s: %v", rpc.DefaultClientName, version, err)
		}
		_ = conn.Close()
	}
	if rpc.DefaultClientName != "durable-go" {
		t.Errorf("clients identify as %q", rpc.DefaultClientName)
	}
}
