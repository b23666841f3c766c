// Package updates tests this SDK's client sending workflow updates to the
// same workflow served by a go.temporal.io/sdk worker and by this SDK's
// worker, on a dev server whose update long polls end after two seconds,
// so that waits longer than that cross several of them.
package updates

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	officialclient "go.temporal.io/sdk/client"
	officiallog "go.temporal.io/sdk/log"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// serverLongPoll is how long the dev server holds an update call or poll
// before answering that the update has not reached the stage asked for.
const serverLongPoll = 2 * time.Second

func TestMain(m *testing.M) {
	testharness.Main(m, testharness.WithServerOptions(devserver.Options{
		DynamicConfig: map[string]string{"history.longPollExpirationInterval": `"2s"`},
	}))
}

type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(string, ...any) {}

var _ officiallog.Logger = quiet{}

// tenantKey is the Go context key that tenantPropagator sends.
type tenantKey struct{}

// tenantPropagator sends the tenant of a client call's context in the
// "tenant" header field.
type tenantPropagator struct{}

func (tenantPropagator) Inject(ctx context.Context, writer workflow.HeaderWriter) error {
	tenant, ok := ctx.Value(tenantKey{}).(string)
	if !ok {
		return nil
	}
	payload, err := converter.GetDefaultDataConverter().ToPayload(tenant)
	if err != nil {
		return err
	}
	writer.Set("tenant", payload)
	return nil
}

func (tenantPropagator) Extract(ctx context.Context, _ workflow.HeaderReader) (context.Context, error) {
	return ctx, nil
}

func (tenantPropagator) InjectFromWorkflow(workflow.Context, workflow.HeaderWriter) error { return nil }

func (tenantPropagator) ExtractToWorkflow(ctx workflow.Context, _ workflow.HeaderReader) (workflow.Context, error) {
	return ctx, nil
}

// updateRecorder is a client interceptor that writes the "intercepted"
// header field of updates and counts the calls it sees.
type updateRecorder struct {
	interceptor.ClientInterceptorBase
	updates, updatesWithStart atomic.Int32
}

func (r *updateRecorder) InterceptClient(next interceptor.ClientOutboundInterceptor) interceptor.ClientOutboundInterceptor {
	return &updateRecorderOutbound{ClientOutboundInterceptorBase: interceptor.ClientOutboundInterceptorBase{Next: next}, root: r}
}

type updateRecorderOutbound struct {
	interceptor.ClientOutboundInterceptorBase
	root *updateRecorder
}

func (o *updateRecorderOutbound) mark(ctx context.Context, by string) error {
	payload, err := converter.GetDefaultDataConverter().ToPayload(by)
	if err != nil {
		return err
	}
	interceptor.Header(ctx)["intercepted"] = payload
	return nil
}

func (o *updateRecorderOutbound) UpdateWorkflow(ctx context.Context, in *interceptor.ClientUpdateWorkflowInput) (client.WorkflowUpdateHandle, error) {
	o.root.updates.Add(1)
	if err := o.mark(ctx, "UpdateWorkflow "+in.UpdateID); err != nil {
		return nil, err
	}
	return o.Next.UpdateWorkflow(ctx, in)
}

func (o *updateRecorderOutbound) UpdateWithStartWorkflow(ctx context.Context, in *interceptor.ClientUpdateWithStartWorkflowInput) (client.WorkflowUpdateHandle, error) {
	o.root.updatesWithStart.Add(1)
	if err := o.mark(ctx, "UpdateWithStartWorkflow "+in.UpdateOptions.UpdateID); err != nil {
		return nil, err
	}
	return o.Next.UpdateWithStartWorkflow(ctx, in)
}

// fixture is this SDK's client, with the recorder and the tenant
// propagator, and a task queue where a worker serves UpdatesWorkflow.
type fixture struct {
	c         client.Client
	recorder  *updateRecorder
	taskQueue string

	mu    sync.Mutex
	calls map[string]int // gRPC calls by method name
}

// countCalls counts the client's gRPC calls by method.
func (f *fixture) countCalls(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	f.mu.Lock()
	f.calls[path.Base(method)]++
	f.mu.Unlock()
	return invoker(ctx, method, req, reply, cc, opts...)
}

func (f *fixture) callCount(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[method]
}

func newFixture(t *testing.T, serve func(t *testing.T, hostPort, taskQueue string)) *fixture {
	t.Helper()
	hp := testharness.HostPort(t)
	f := &fixture{
		recorder:  &updateRecorder{},
		taskQueue: fmt.Sprintf("updates-%s-%d", t.Name(), time.Now().UnixNano()),
		calls:     map[string]int{},
	}
	var err error
	f.c, err = client.Dial(client.Options{
		HostPort:           hp,
		ConnectionOptions:  client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(f.countCalls)}},
		ContextPropagators: []workflow.ContextPropagator{tenantPropagator{}},
		Interceptors:       []interceptor.ClientInterceptor{f.recorder},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.c.Close)
	serve(t, hp, f.taskQueue)
	return f
}

// scenarios run against workflows served by each SDK's worker.
var scenarios = []struct {
	name string
	run  func(t *testing.T, f *fixture)
}{
	{"UpdateCompletesWithAValue", scenarioUpdateCompletesWithAValue},
	{"UpdateWithoutAnIDGetsOne", scenarioUpdateWithoutAnIDGetsOne},
	{"UpdateCompletesWithAnError", scenarioUpdateCompletesWithAnError},
	{"UpdateRejectedByTheValidator", scenarioUpdateRejectedByTheValidator},
	{"UpdateIDDeduplicates", scenarioUpdateIDDeduplicates},
	{"UpdateAcceptedThenGetAcrossLongPolls", scenarioUpdateAcceptedThenGetAcrossLongPolls},
	{"UpdateWaitingForCompletionCrossesLongPolls", scenarioUpdateWaitingForCompletionCrossesLongPolls},
	{"UpdateCarriesHeaders", scenarioUpdateCarriesHeaders},
	{"UpdateOfAWorkflowThatDoesNotExist", scenarioUpdateOfAWorkflowThatDoesNotExist},
	{"UpdateCallEndsWithItsContext", scenarioUpdateCallEndsWithItsContext},
	{"UpdateWithStartStartsTheWorkflow", scenarioUpdateWithStartStartsTheWorkflow},
}

func TestUpdatesServedByTheOfficialWorker(t *testing.T) {
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) { s.run(t, newFixture(t, serveWithTheOfficialWorker)) })
	}
}

func TestUpdatesServedByThisSDKsWorker(t *testing.T) {
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) { s.run(t, newFixture(t, serveWithOurWorker)) })
	}
}

// serveWithTheOfficialWorker runs UpdatesWorkflowOfficial on a
// go.temporal.io/sdk worker until the test ends.
func serveWithTheOfficialWorker(t *testing.T, hostPort, taskQueue string) {
	t.Helper()
	oc, err := officialclient.Dial(officialclient.Options{
		HostPort:           hostPort,
		Logger:             quiet{},
		ContextPropagators: []officialworkflow.ContextPropagator{officialHeaderPropagator{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(oc.Close)
	w := officialworker.New(oc, taskQueue, officialworker.Options{})
	w.RegisterWorkflowWithOptions(UpdatesWorkflowOfficial, officialworkflow.RegisterOptions{Name: "UpdatesWorkflow"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
}

// serveWithOurWorker runs UpdatesWorkflowOurs on this SDK's worker until
// the test ends.
func serveWithOurWorker(t *testing.T, hostPort, taskQueue string) {
	t.Helper()
	c, err := client.Dial(client.Options{
		HostPort:           hostPort,
		ContextPropagators: []workflow.ContextPropagator{ourHeaderPropagator{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(UpdatesWorkflowOurs, workflow.RegisterOptions{Name: "UpdatesWorkflow"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// start starts UpdatesWorkflow with a total of start, and ends it with
// the test.
func (f *fixture) start(t *testing.T, start int) client.WorkflowRun {
	t.Helper()
	id := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	run, err := f.c.ExecuteWorkflow(testContext(t), client.StartWorkflowOptions{ID: id, TaskQueue: f.taskQueue}, "UpdatesWorkflow", start)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.c.TerminateWorkflow(context.Background(), id, "", "test over") })
	return run
}

// finish signals the workflow done and returns its total.
func (f *fixture) finish(t *testing.T, run client.WorkflowRun) int {
	t.Helper()
	ctx := testContext(t)
	if err := f.c.SignalWorkflow(ctx, run.GetID(), "", signalDone, nil); err != nil {
		t.Fatal(err)
	}
	var total int
	if err := run.Get(ctx, &total); err != nil {
		t.Fatal(err)
	}
	return total
}

func (f *fixture) adds(t *testing.T, run client.WorkflowRun) int {
	t.Helper()
	value, err := f.c.QueryWorkflow(testContext(t), run.GetID(), "", queryAdds)
	if err != nil {
		t.Fatal(err)
	}
	var adds int
	if err := value.Get(&adds); err != nil {
		t.Fatal(err)
	}
	return adds
}

// updateEventCount counts the update events of a run's history.
func (f *fixture) updateEventCount(t *testing.T, run client.WorkflowRun) int {
	t.Helper()
	it := f.c.GetWorkflowHistory(testContext(t), run.GetID(), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	n := 0
	for it.HasNext() {
		event, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		switch event.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED,
			enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
			enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED,
			enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED:
			n++
		}
	}
	return n
}

func scenarioUpdateCompletesWithAValue(t *testing.T, f *fixture) {
	run := f.start(t, 10)
	handle, err := f.c.UpdateWorkflow(testContext(t), client.UpdateWorkflowOptions{
		WorkflowID:   run.GetID(),
		UpdateID:     "add-5",
		UpdateName:   updateAdd,
		Args:         []any{5},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		t.Fatal(err)
	}
	if handle.WorkflowID() != run.GetID() || handle.RunID() != run.GetRunID() || handle.UpdateID() != "add-5" {
		t.Errorf("handle names workflow %q run %q update %q, want %q %q %q",
			handle.WorkflowID(), handle.RunID(), handle.UpdateID(), run.GetID(), run.GetRunID(), "add-5")
	}
	var total int
	if err := handle.Get(testContext(t), &total); err != nil {
		t.Fatal(err)
	}
	if total != 15 {
		t.Errorf("update result %d, want 15", total)
	}
	if got := f.finish(t, run); got != 15 {
		t.Errorf("workflow result %d, want 15", got)
	}
	if got := f.recorder.updates.Load(); got != 1 {
		t.Errorf("the interceptor saw %d UpdateWorkflow calls, want 1", got)
	}
}

func scenarioUpdateWithoutAnIDGetsOne(t *testing.T, f *fixture) {
	run := f.start(t, 0)
	handle, err := f.c.UpdateWorkflow(testContext(t), client.UpdateWorkflowOptions{
		WorkflowID:   run.GetID(),
		UpdateName:   updateAdd,
		Args:         []any{1},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(handle.UpdateID()) != 36 {
		t.Errorf("generated update ID %q is not a UUID", handle.UpdateID())
	}
	// The handler saw that ID: asking for the update by it gives its result.
	var total int
	byID := f.c.GetWorkflowUpdateHandle(client.GetWorkflowUpdateHandleOptions{WorkflowID: run.GetID(), UpdateID: handle.UpdateID()})
	if err := byID.Get(testContext(t), &total); err != nil || total != 1 {
		t.Errorf("update by its generated ID: %d, %v; want 1", total, err)
	}
}

func scenarioUpdateCompletesWithAnError(t *testing.T, f *fixture) {
	run := f.start(t, 0)
	handle, err := f.c.UpdateWorkflow(testContext(t), client.UpdateWorkflowOptions{
		WorkflowID:   run.GetID(),
		UpdateName:   updateFail,
		Args:         []any{"out of stock"},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		t.Fatalf("a failed update is an outcome, not an error of UpdateWorkflow: %v", err)
	}
	var result int
	err = handle.Get(testContext(t), &result)
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) {
		t.Fatalf("want the handler's *temporal.ApplicationError, got %T: %v", err, err)
	}
	var detail string
	if appErr.Message() != "out of stock" || appErr.Type() != "UpdateFailed" || appErr.Details(&detail) != nil || detail != "detail" {
		t.Errorf("error message %q type %q detail %q, want out of stock, UpdateFailed, detail", appErr.Message(), appErr.Type(), detail)
	}
	if f.updateEventCount(t, run) != 2 {
		t.Errorf("want the update accepted and completed in history")
	}
}

func scenarioUpdateRejectedByTheValidator(t *testing.T, f *fixture) {
	run := f.start(t, 3)
	handle, err := f.c.UpdateWorkflow(testContext(t), client.UpdateWorkflowOptions{
		WorkflowID:   run.GetID(),
		UpdateName:   updateAdd,
		Args:         []any{-1},
		WaitForStage: client.WorkflowUpdateStageAccepted,
	})
	if err != nil {
		t.Fatalf("a rejection is an outcome, not an error of UpdateWorkflow: %v", err)
	}
	err = handle.Get(testContext(t), nil)
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Message() != "cannot add -1: only positive numbers" {
		t.Fatalf("want the validator's error, got %T: %v", err, err)
	}
	if adds := f.adds(t, run); adds != 0 {
		t.Errorf("the handler ran %d times after a rejection", adds)
	}
	if got := f.finish(t, run); got != 3 {
		t.Errorf("workflow result %d, want 3", got)
	}
	if n := f.updateEventCount(t, run); n != 0 {
		t.Errorf("a rejected update wrote %d events to history", n)
	}
}

func scenarioUpdateIDDeduplicates(t *testing.T, f *fixture) {
	run := f.start(t, 0)
	options := client.UpdateWorkflowOptions{
		WorkflowID:   run.GetID(),
		UpdateID:     "only-once",
		UpdateName:   updateAdd,
		Args:         []any{7},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	}
	var results [2]int
	for i := range results {
		handle, err := f.c.UpdateWorkflow(testContext(t), options)
		if err != nil {
			t.Fatal(err)
		}
		if err := handle.Get(testContext(t), &results[i]); err != nil {
			t.Fatal(err)
		}
	}
	if results != [2]int{7, 7} {
		t.Errorf("results %v, want the first outcome twice", results)
	}
	if adds := f.adds(t, run); adds != 1 {
		t.Errorf("the handler ran %d times, want once", adds)
	}
	if got := f.finish(t, run); got != 7 {
		t.Errorf("workflow result %d, want 7", got)
	}
}

func scenarioUpdateAcceptedThenGetAcrossLongPolls(t *testing.T, f *fixture) {
	run := f.start(t, 0)
	handle, err := f.c.UpdateWorkflow(testContext(t), client.UpdateWorkflowOptions{
		WorkflowID:   run.GetID(),
		UpdateID:     "wait",
		UpdateName:   updateWaitForRelease,
		WaitForStage: client.WorkflowUpdateStageAccepted,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Release the update only after more than one of the server's long
	// polls has ended without an outcome.
	released := make(chan error, 1)
	time.AfterFunc(2*serverLongPoll+500*time.Millisecond, func() {
		released <- f.c.SignalWorkflow(context.Background(), run.GetID(), "", signalRelease, nil)
	})
	began := time.Now()
	var result string
	if err := handle.Get(testContext(t), &result); err != nil {
		t.Fatal(err)
	}
	if err := <-released; err != nil {
		t.Fatal(err)
	}
	if result != "released" {
		t.Errorf("result %q, want released", result)
	}
	if waited := time.Since(began); waited < 2*serverLongPoll {
		t.Errorf("Get returned after %v, before the release", waited)
	}
	if n := f.callCount("PollWorkflowExecutionUpdate"); n < 2 {
		t.Errorf("Get polled %d times; the server's long polls end every %v", n, serverLongPoll)
	}

	// A handle made from the IDs alone, with and without the run ID.
	for _, runID := range []string{"", run.GetRunID()} {
		result = ""
		byID := f.c.GetWorkflowUpdateHandle(client.GetWorkflowUpdateHandleOptions{WorkflowID: run.GetID(), RunID: runID, UpdateID: "wait"})
		if byID.WorkflowID() != run.GetID() || byID.RunID() != runID || byID.UpdateID() != "wait" {
			t.Errorf("handle names %q %q %q", byID.WorkflowID(), byID.RunID(), byID.UpdateID())
		}
		if err := byID.Get(testContext(t), &result); err != nil || result != "released" {
			t.Errorf("GetWorkflowUpdateHandle(run %q).Get: %q, %v", runID, result, err)
		}
	}
	missing := f.c.GetWorkflowUpdateHandle(client.GetWorkflowUpdateHandleOptions{WorkflowID: run.GetID(), UpdateID: "never-sent"})
	var notFound *serviceerror.NotFound
	if err := missing.Get(testContext(t), nil); !errors.As(err, &notFound) {
		t.Errorf("Get of an update never sent: want *serviceerror.NotFound, got %T: %v", err, err)
	}
}

func scenarioUpdateWaitingForCompletionCrossesLongPolls(t *testing.T, f *fixture) {
	run := f.start(t, 0)
	time.AfterFunc(2*serverLongPoll+500*time.Millisecond, func() {
		_ = f.c.SignalWorkflow(context.Background(), run.GetID(), "", signalRelease, nil)
	})
	handle, err := f.c.UpdateWorkflow(testContext(t), client.UpdateWorkflowOptions{
		WorkflowID:   run.GetID(),
		UpdateName:   updateWaitForRelease,
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		t.Fatal(err)
	}
	polls := f.callCount("PollWorkflowExecutionUpdate")
	if polls < 2 {
		t.Errorf("UpdateWorkflow polled %d times; the server's long polls end every %v", polls, serverLongPoll)
	}
	var result string
	if err := handle.Get(testContext(t), &result); err != nil || result != "released" {
		t.Errorf("Get: %q, %v", result, err)
	}
	if n := f.callCount("PollWorkflowExecutionUpdate"); n != polls {
		t.Errorf("Get of a completed update polled again")
	}
}

func scenarioUpdateCarriesHeaders(t *testing.T, f *fixture) {
	run := f.start(t, 0)
	ctx := context.WithValue(testContext(t), tenantKey{}, "acme")
	for field, want := range map[string]string{"tenant": "acme", "intercepted": "UpdateWorkflow header-intercepted"} {
		handle, err := f.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
			WorkflowID:   run.GetID(),
			UpdateID:     "header-" + field,
			UpdateName:   updateHeader,
			Args:         []any{field},
			WaitForStage: client.WorkflowUpdateStageCompleted,
		})
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := handle.Get(ctx, &got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("header field %q reached the handler as %q, want %q", field, got, want)
		}
	}
}

func scenarioUpdateOfAWorkflowThatDoesNotExist(t *testing.T, f *fixture) {
	_, err := f.c.UpdateWorkflow(testContext(t), client.UpdateWorkflowOptions{
		WorkflowID:   "no-such-workflow",
		UpdateName:   updateAdd,
		Args:         []any{1},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if _, ok := err.(*serviceerror.NotFound); !ok {
		t.Fatalf("want *serviceerror.NotFound as is, got %T: %v", err, err)
	}
}

func scenarioUpdateCallEndsWithItsContext(t *testing.T, f *fixture) {
	// No worker polls this task queue: the update stays admitted.
	id := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	if _, err := f.c.ExecuteWorkflow(testContext(t), client.StartWorkflowOptions{ID: id, TaskQueue: "nobody-" + id}, "UpdatesWorkflow", 0); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.c.TerminateWorkflow(context.Background(), id, "", "test over") }()
	ctx, cancel := context.WithTimeout(context.Background(), serverLongPoll+time.Second)
	defer cancel()
	began := time.Now()
	_, err := f.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   id,
		UpdateName:   updateAdd,
		Args:         []any{1},
		WaitForStage: client.WorkflowUpdateStageAccepted,
	})
	var timeout *client.WorkflowUpdateServiceTimeoutOrCanceledError
	if !errors.As(err, &timeout) {
		t.Fatalf("want *WorkflowUpdateServiceTimeoutOrCanceledError, got %T: %v", err, err)
	}
	if took := time.Since(began); took > serverLongPoll+3*time.Second {
		t.Errorf("the call took %v, well past its context's deadline", took)
	}
	if n := f.callCount("UpdateWorkflowExecution"); n < 2 {
		t.Errorf("the update was sent %d times; it should be sent again when the server's long poll ends", n)
	}
}

func scenarioUpdateWithStartStartsTheWorkflow(t *testing.T, f *fixture) {
	id := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	t.Cleanup(func() { _ = f.c.TerminateWorkflow(context.Background(), id, "", "test over") })
	startOp := f.c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
		ID:                       id,
		TaskQueue:                f.taskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, "UpdatesWorkflow", 100)
	ctx := context.WithValue(testContext(t), tenantKey{}, "initech")
	handle, err := f.c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: startOp,
		UpdateOptions: client.UpdateWorkflowOptions{
			UpdateID:     "first",
			UpdateName:   updateAdd,
			Args:         []any{1},
			WaitForStage: client.WorkflowUpdateStageCompleted,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var total int
	if err := handle.Get(ctx, &total); err != nil || total != 101 {
		t.Fatalf("update result %d, %v; want 101", total, err)
	}
	run, err := startOp.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if run.GetID() != id || run.GetRunID() == "" || run.GetRunID() != handle.RunID() || handle.WorkflowID() != id {
		t.Errorf("run %q/%q, handle %q/%q", run.GetID(), run.GetRunID(), handle.WorkflowID(), handle.RunID())
	}
	if got := f.recorder.updatesWithStart.Load(); got != 1 {
		t.Errorf("the interceptor saw %d UpdateWithStartWorkflow calls, want 1", got)
	}
	_, err = f.c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: startOp,
		UpdateOptions:          client.UpdateWorkflowOptions{UpdateName: updateAdd, Args: []any{1}, WaitForStage: client.WorkflowUpdateStageCompleted},
	})
	if err == nil || !strings.Contains(err.Error(), "already executed") {
		t.Errorf("a second use of the operation: want an error saying it was already executed, got %v", err)
	}

	// Again on the running workflow: USE_EXISTING updates it, with the
	// header of the call.
	for field, want := range map[string]string{"tenant": "initech", "intercepted": "UpdateWithStartWorkflow "} {
		again := f.c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
			ID:                       id,
			TaskQueue:                f.taskQueue,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		}, "UpdatesWorkflow", 0)
		handle, err = f.c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
			StartWorkflowOperation: again,
			UpdateOptions: client.UpdateWorkflowOptions{
				UpdateName:   updateHeader,
				Args:         []any{field},
				WaitForStage: client.WorkflowUpdateStageAccepted,
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if field == "intercepted" {
			want += handle.UpdateID()
		}
		var got string
		if err := handle.Get(ctx, &got); err != nil || got != want {
			t.Errorf("header field %q reached the handler as %q (%v), want %q", field, got, err, want)
		}
		againRun, err := again.Get(ctx)
		if err != nil || againRun.GetRunID() != run.GetRunID() {
			t.Errorf("the operation's run: %v, %v; want the running %q", againRun, err, run.GetRunID())
		}
	}

	// With FAIL, a running workflow fails the call, and the start says so.
	failing := f.c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
		ID:                       id,
		TaskQueue:                f.taskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
	}, "UpdatesWorkflow", 0)
	_, err = f.c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: failing,
		UpdateOptions:          client.UpdateWorkflowOptions{UpdateName: updateAdd, Args: []any{4}, WaitForStage: client.WorkflowUpdateStageCompleted},
	})
	var alreadyStarted *serviceerror.WorkflowExecutionAlreadyStarted
	if !errors.As(err, &alreadyStarted) {
		t.Fatalf("want a *serviceerror.WorkflowExecutionAlreadyStarted, got %T: %v", err, err)
	}
	if _, getErr := failing.Get(ctx); getErr == nil || getErr.Error() != err.Error() {
		t.Errorf("the failed operation's Get: %v, want the call's error", getErr)
	}
	if got := f.finish(t, run); got != 101 {
		t.Errorf("workflow result %d, want 101", got)
	}
}
