package updates

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	updatepb "go.temporal.io/api/update/v1"
	"go.temporal.io/api/workflowservice/v1"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The scenarios of the update fixtures (testdata/histories/update*.json,
// which go.temporal.io/sdk recorded), driven by this SDK's client against
// AccountWorkflow on a worker of each SDK.

// Greet is the activity of AccountWorkflow's greet update, as the
// recorder's.
func Greet(_ context.Context, name string) (string, error) { return "Hello, " + name + "!", nil }

// sdkSide is a worker of one SDK serving AccountWorkflow, with this SDK's
// client driving it.
type sdkSide struct {
	name      string // "this SDK" or "go.temporal.io/sdk"
	c         client.Client
	outcomes  *outcomeRecorder
	taskQueue string
	// serve starts a worker of the side's SDK on a task queue, until the
	// test ends.
	serve func(t *testing.T, taskQueue string)
}

// outcomeRecorder keeps the update outcomes that the server's answers to
// the client carried, by workflow and update ID, to compare the two SDKs'
// failures as the client receives them.
type outcomeRecorder struct {
	mu       sync.Mutex
	outcomes map[string]*updatepb.Outcome
}

func (o *outcomeRecorder) record(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	if err != nil {
		return err
	}
	switch r := reply.(type) {
	case *workflowservice.UpdateWorkflowExecutionResponse:
		o.keep(r.GetUpdateRef(), r.GetOutcome())
	case *workflowservice.PollWorkflowExecutionUpdateResponse:
		o.keep(r.GetUpdateRef(), r.GetOutcome())
	case *workflowservice.ExecuteMultiOperationResponse:
		for _, op := range r.GetResponses() {
			u := op.GetUpdateWorkflow()
			o.keep(u.GetUpdateRef(), u.GetOutcome())
		}
	}
	return nil
}

func (o *outcomeRecorder) keep(ref *updatepb.UpdateRef, outcome *updatepb.Outcome) {
	if outcome == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.outcomes[ref.GetWorkflowExecution().GetWorkflowId()+"/"+ref.GetUpdateId()] = outcome
}

func (o *outcomeRecorder) outcome(workflowID, updateID string) *updatepb.Outcome {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.outcomes[workflowID+"/"+updateID]
}

// newSide dials this SDK's client, recording update outcomes, and starts
// a worker of the SDK that serve starts on a task queue of its own.
func newSide(t *testing.T, name string, serve func(t *testing.T, hostPort, taskQueue string)) *sdkSide {
	t.Helper()
	hp := testharness.HostPort(t)
	s := &sdkSide{name: name, outcomes: &outcomeRecorder{outcomes: map[string]*updatepb.Outcome{}},
		taskQueue: fmt.Sprintf("accounts-%s-%d", strings.ReplaceAll(name, " ", "-"), time.Now().UnixNano())}
	var err error
	s.c, err = client.Dial(client.Options{
		HostPort:          hp,
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(s.outcomes.record)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.c.Close)
	s.serve = func(t *testing.T, taskQueue string) { serve(t, hp, taskQueue) }
	s.serve(t, s.taskQueue)
	return s
}

// serveAccountsWithOurWorker runs AccountWorkflowOurs on this SDK's worker.
func serveAccountsWithOurWorker(t *testing.T, hostPort, taskQueue string) {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: hostPort})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(AccountWorkflowOurs, workflow.RegisterOptions{Name: "AccountWorkflow"})
	w.RegisterActivity(Greet)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
}

// serveAccountsWithTheOfficialWorker runs AccountWorkflowOfficial on a
// go.temporal.io/sdk worker.
func serveAccountsWithTheOfficialWorker(t *testing.T, hostPort, taskQueue string) {
	t.Helper()
	oc, err := officialclient.Dial(officialclient.Options{HostPort: hostPort, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(oc.Close)
	w := officialworker.New(oc, taskQueue, officialworker.Options{})
	w.RegisterWorkflowWithOptions(AccountWorkflowOfficial, officialworkflow.RegisterOptions{Name: "AccountWorkflow"})
	w.RegisterActivity(Greet)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
}

// accountCall is an update of AccountWorkflow and the outcome it must
// have: a result, or an application error (message, type, details).
type accountCall struct {
	id, name string
	arg      any
	want     any
	wantErr  *wantedError
}

type wantedError struct {
	message, errType string
	details          any // nil: none
}

// check waits for the update's outcome and compares it with the one
// wanted.
func (u accountCall) check(ctx context.Context, handle client.WorkflowUpdateHandle) error {
	if u.wantErr != nil {
		err := handle.Get(ctx, nil)
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) {
			return fmt.Errorf("update %s: want an application error, got %T: %v", u.id, err, err)
		}
		if appErr.Message() != u.wantErr.message || appErr.Type() != u.wantErr.errType {
			return fmt.Errorf("update %s: error %q of type %q, want %q of type %q", u.id, appErr.Message(), appErr.Type(), u.wantErr.message, u.wantErr.errType)
		}
		if u.wantErr.details != nil {
			details := reflect.New(reflect.TypeOf(u.wantErr.details))
			if err := appErr.Details(details.Interface()); err != nil || !reflect.DeepEqual(details.Elem().Interface(), u.wantErr.details) {
				return fmt.Errorf("update %s: error details %v (%v), want %v", u.id, details.Elem().Interface(), err, u.wantErr.details)
			}
		} else if appErr.HasDetails() {
			return fmt.Errorf("update %s: the error has details, want none", u.id)
		}
		return nil
	}
	got := reflect.New(reflect.TypeOf(u.want))
	if err := handle.Get(ctx, got.Interface()); err != nil {
		return fmt.Errorf("update %s: %w", u.id, err)
	}
	if !reflect.DeepEqual(got.Elem().Interface(), u.want) {
		return fmt.Errorf("update %s returned %v, want %v", u.id, got.Elem().Interface(), u.want)
	}
	return nil
}

func (u accountCall) options(workflowID string) client.UpdateWorkflowOptions {
	return client.UpdateWorkflowOptions{WorkflowID: workflowID, UpdateID: u.id, UpdateName: u.name,
		Args: []any{u.arg}, WaitForStage: client.WorkflowUpdateStageCompleted}
}

// accountScenario is one update fixture's scenario: it starts
// AccountWorkflow with the ID, drives it to its end and returns its run.
type accountScenario struct {
	name string // the fixture's
	want int    // the workflow's result
	run  func(t *testing.T, ctx context.Context, s *sdkSide, id string) client.WorkflowRun
}

var accountScenarios = []accountScenario{
	{"updatevalue", 15, sendAccountUpdates(10, accountCall{id: "deposit-5", name: DepositUpdateName, arg: 5, want: 15})},
	{"updateerror", 10, sendAccountUpdates(10, accountCall{id: "withdraw-25", name: WithdrawUpdateName, arg: 25,
		wantErr: &wantedError{"cannot withdraw 25 from 10", "InsufficientFunds", 10}})},
	{"updaterejected", 10, sendAccountUpdates(10, accountCall{id: "deposit-minus-5", name: DepositUpdateName, arg: -5,
		wantErr: &wantedError{message: "cannot deposit -5: amounts must be positive", errType: ""}})},
	{"updateactivity", 0, sendAccountUpdates(0, accountCall{id: "greet", name: GreetUpdateName, arg: "Temporal", want: "Hello, Temporal!"})},
	{"updatewithstart", 101, accountUpdateWithStart(100, accountCall{id: "deposit-1", name: DepositUpdateName, arg: 1, want: 101})},
	{"updatebeforefirsttask", 15, accountUpdateBeforeFirstTask(10, accountCall{id: "deposit-5", name: DepositUpdateName, arg: 5, want: 15})},
	// Updates that wait for their handlers run in the order the code sets
	// the handlers.
	{"updatesbeforefirsttask", 12, accountUpdateBeforeFirstTask(10,
		accountCall{id: "withdraw-3", name: WithdrawUpdateName, arg: 3, want: 12},
		accountCall{id: "greet-early", name: GreetUpdateName, arg: "Early", want: "Hello, Early!"},
		accountCall{id: "deposit-5", name: DepositUpdateName, arg: 5, want: 15})},
	// Not a fixture: an update rejected right after one was completed, so
	// that the rejected update's speculative workflow task holds the events
	// of the commands of the task before it. go.temporal.io/sdk tells the
	// server it may discard such a task (capability
	// discard_speculative_workflow_task_with_events), and the server does:
	// history keeps no trace of the rejected update.
	{"updaterejectedafteraccepted", 15, sendAccountUpdates(10,
		accountCall{id: "deposit-5", name: DepositUpdateName, arg: 5, want: 15},
		accountCall{id: "deposit-minus-5", name: DepositUpdateName, arg: -5,
			wantErr: &wantedError{message: "cannot deposit -5: amounts must be positive", errType: ""}})},
}

// sendAccountUpdates starts the workflow, waits for its first workflow
// task to complete, sends the updates one after the other and signals the
// workflow to close.
func sendAccountUpdates(opening int, calls ...accountCall) func(*testing.T, context.Context, *sdkSide, string) client.WorkflowRun {
	return func(t *testing.T, ctx context.Context, s *sdkSide, id string) client.WorkflowRun {
		run, err := s.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: s.taskQueue}, "AccountWorkflow", opening)
		if err != nil {
			t.Fatal(err)
		}
		awaitFirstWorkflowTask(t, ctx, s.c, id)
		for _, u := range calls {
			handle, err := s.c.UpdateWorkflow(ctx, u.options(id))
			if err != nil {
				t.Fatalf("update %s: %v", u.id, err)
			}
			if err := u.check(ctx, handle); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.c.SignalWorkflow(ctx, id, "", CloseSignalName, nil); err != nil {
			t.Fatal(err)
		}
		return run
	}
}

// accountUpdateWithStart starts the workflow with the update.
func accountUpdateWithStart(opening int, u accountCall) func(*testing.T, context.Context, *sdkSide, string) client.WorkflowRun {
	return func(t *testing.T, ctx context.Context, s *sdkSide, id string) client.WorkflowRun {
		start := s.c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: id, TaskQueue: s.taskQueue,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL}, "AccountWorkflow", opening)
		handle, err := s.c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: start, UpdateOptions: u.options("")})
		if err != nil {
			t.Fatal(err)
		}
		if err := u.check(ctx, handle); err != nil {
			t.Fatal(err)
		}
		run, err := start.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.c.SignalWorkflow(ctx, id, run.GetRunID(), CloseSignalName, nil); err != nil {
			t.Fatal(err)
		}
		return run
	}
}

// accountUpdateBeforeFirstTask starts the workflow on a task queue no
// worker polls, sends the updates, each once the server admitted the one
// before, and then starts a worker of the side's SDK there: the updates
// come with the first workflow task, in the order sent.
func accountUpdateBeforeFirstTask(opening int, calls ...accountCall) func(*testing.T, context.Context, *sdkSide, string) client.WorkflowRun {
	return func(t *testing.T, ctx context.Context, s *sdkSide, id string) client.WorkflowRun {
		late := s.taskQueue + "-late-" + id
		run, err := s.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: late}, "AccountWorkflow", opening)
		if err != nil {
			t.Fatal(err)
		}
		sent := make(chan error, len(calls))
		for _, u := range calls {
			go func() {
				handle, err := s.c.UpdateWorkflow(ctx, u.options(id))
				if err == nil {
					err = u.check(ctx, handle)
				}
				sent <- err
			}()
			awaitAdmitted(t, ctx, s.c, id, u.id)
		}
		s.serve(t, late)
		for range calls {
			if err := <-sent; err != nil {
				t.Fatal(err)
			}
		}
		if err := s.c.SignalWorkflow(ctx, id, run.GetRunID(), CloseSignalName, nil); err != nil {
			t.Fatal(err)
		}
		return run
	}
}

// awaitFirstWorkflowTask waits until the workflow's history records a
// completed workflow task.
func awaitFirstWorkflowTask(t *testing.T, ctx context.Context, c client.Client, id string) {
	t.Helper()
	for {
		for _, ev := range history(t, c, id).GetEvents() {
			if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("workflow %s: no workflow task completed: %v", id, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// awaitAdmitted waits until the server admitted the update (it does not
// know the update's ID before).
func awaitAdmitted(t *testing.T, ctx context.Context, c client.Client, workflowID, updateID string) {
	t.Helper()
	for {
		resp, err := c.WorkflowService().PollWorkflowExecutionUpdate(ctx, &workflowservice.PollWorkflowExecutionUpdateRequest{
			Namespace:  "default",
			UpdateRef:  &updatepb.UpdateRef{WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: workflowID}, UpdateId: updateID},
			WaitPolicy: &updatepb.WaitPolicy{LifecycleStage: enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED},
		})
		var notFound *serviceerror.NotFound
		switch {
		case errors.As(err, &notFound):
			time.Sleep(20 * time.Millisecond)
		case err != nil:
			t.Fatalf("poll update %s: %v", updateID, err)
		case resp.GetStage() != enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED:
			t.Fatalf("update %s reached stage %v before a worker polled, want admitted", updateID, resp.GetStage())
		default:
			return
		}
	}
}

// history is the workflow's (current run's) history.
func history(t *testing.T, c client.Client, id string) *historypb.History {
	t.Helper()
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	return h
}

// runScenario runs the scenario on the side's worker and returns the
// workflow's ID and history, checked to have no failed workflow task.
func runScenario(t *testing.T, sc accountScenario, s *sdkSide) (string, *historypb.History) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := fmt.Sprintf("%s-%s-%d", sc.name, strings.ReplaceAll(s.name, " ", "-"), time.Now().UnixNano())
	run := sc.run(t, ctx, s, id)
	var got int
	if err := run.Get(ctx, &got); err != nil {
		t.Fatalf("%s: %v", s.name, err)
	}
	if got != sc.want {
		t.Errorf("%s: the workflow returned %d, want %d", s.name, got, sc.want)
	}
	h := history(t, s.c, id)
	for _, ev := range h.GetEvents() {
		if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil {
			t.Errorf("%s: workflow task failed at event %d (%v): %s", s.name, ev.GetEventId(), a.GetCause(), a.GetFailure().GetMessage())
		}
	}
	return id, h
}

// TestUpdateHistoriesOfBothSDKs runs each update fixture's scenario on a
// worker of each SDK, with this SDK's client, and checks that
//   - the client sees the same outcomes (checked by the scenarios; the
//     failures compared as the server carried them),
//   - each SDK's replayer replays the other's history (and this SDK's
//     its own),
//   - the two histories are the same: event for event, the same SDK flags
//     in each workflow task, the same acceptances and completions.
func TestUpdateHistoriesOfBothSDKs(t *testing.T) {
	oursSide := newSide(t, "this SDK", serveAccountsWithOurWorker)
	officialSide := newSide(t, "go.temporal.io/sdk", serveAccountsWithTheOfficialWorker)
	oursReplayer := worker.NewWorkflowReplayer()
	oursReplayer.RegisterWorkflowWithOptions(AccountWorkflowOurs, workflow.RegisterOptions{Name: "AccountWorkflow"})
	officialReplayer := officialworker.NewWorkflowReplayer()
	officialReplayer.RegisterWorkflowWithOptions(AccountWorkflowOfficial, officialworkflow.RegisterOptions{Name: "AccountWorkflow"})

	for _, sc := range accountScenarios {
		t.Run(sc.name, func(t *testing.T) {
			oursID, ours := runScenario(t, sc, oursSide)
			officialID, official := runScenario(t, sc, officialSide)
			if err := officialReplayer.ReplayWorkflowHistory(quiet{}, ours); err != nil {
				t.Errorf("go.temporal.io/sdk's replayer rejects this SDK's history: %v", err)
			}
			if err := oursReplayer.ReplayWorkflowHistory(nil, official); err != nil {
				t.Errorf("this SDK's replayer rejects go.temporal.io/sdk's history: %v", err)
			}
			if err := oursReplayer.ReplayWorkflowHistory(nil, ours); err != nil {
				t.Errorf("this SDK's replayer rejects its own history: %v", err)
			}
			compareUpdateHistories(t, ours, official)
			for _, ev := range official.GetEvents() {
				if a := ev.GetWorkflowExecutionUpdateCompletedEventAttributes(); a != nil {
					compareOutcomes(t, a.GetMeta().GetUpdateId(), oursSide.outcomes.outcome(oursID, a.GetMeta().GetUpdateId()),
						officialSide.outcomes.outcome(officialID, a.GetMeta().GetUpdateId()))
				}
			}
			if sc.name == "updaterejected" || sc.name == "updaterejectedafteraccepted" {
				compareOutcomes(t, "deposit-minus-5", oursSide.outcomes.outcome(oursID, "deposit-minus-5"),
					officialSide.outcomes.outcome(officialID, "deposit-minus-5"))
			}
		})
	}
}

// compareUpdateHistories compares two runs of one scenario: the event
// types in order, the SDK flags of each completed workflow task, and the
// update events' attributes (acceptances, with the request they accepted,
// and completions, with their outcome).
func compareUpdateHistories(t *testing.T, ours, official *historypb.History) {
	t.Helper()
	oursEvents, officialEvents := ours.GetEvents(), official.GetEvents()
	if got, want := eventTypes(oursEvents), eventTypes(officialEvents); got != want {
		t.Errorf("the histories differ:\n this SDK:           %s\n go.temporal.io/sdk: %s", got, want)
		return
	}
	for i, o := range oursEvents {
		off := officialEvents[i]
		if a := o.GetWorkflowTaskCompletedEventAttributes(); a != nil {
			// go.temporal.io/sdk lists a task's new flags in map order.
			got := slices.Sorted(slices.Values(a.GetSdkMetadata().GetLangUsedFlags()))
			want := slices.Sorted(slices.Values(off.GetWorkflowTaskCompletedEventAttributes().GetSdkMetadata().GetLangUsedFlags()))
			if !slices.Equal(got, want) {
				t.Errorf("event %d WorkflowTaskCompleted: this SDK used flags %v, go.temporal.io/sdk %v", o.GetEventId(), got, want)
			}
		}
		if a := o.GetWorkflowExecutionUpdateAcceptedEventAttributes(); a != nil {
			if want := off.GetWorkflowExecutionUpdateAcceptedEventAttributes(); !proto.Equal(a, want) {
				t.Errorf("event %d WorkflowExecutionUpdateAccepted differs:\n this SDK:           %v\n go.temporal.io/sdk: %v", o.GetEventId(), a, want)
			}
		}
		if a := o.GetWorkflowExecutionUpdateCompletedEventAttributes(); a != nil {
			want := off.GetWorkflowExecutionUpdateCompletedEventAttributes()
			if !proto.Equal(a.GetMeta(), want.GetMeta()) || a.GetAcceptedEventId() != want.GetAcceptedEventId() {
				t.Errorf("event %d WorkflowExecutionUpdateCompleted differs:\n this SDK:           %v\n go.temporal.io/sdk: %v", o.GetEventId(), a, want)
			}
			compareOutcomes(t, a.GetMeta().GetUpdateId()+" (in history)", a.GetOutcome(), want.GetOutcome())
		}
	}
}

// compareOutcomes compares two updates' outcomes, their failures without
// stack traces (which name each SDK's code).
func compareOutcomes(t *testing.T, update string, ours, official *updatepb.Outcome) {
	t.Helper()
	if ours == nil || official == nil {
		t.Errorf("update %s: no outcome recorded (this SDK's: %v, go.temporal.io/sdk's: %v)", update, ours, official)
		return
	}
	ours, official = withoutStackTraces(ours), withoutStackTraces(official)
	if !proto.Equal(ours, official) {
		t.Errorf("update %s: the outcomes differ:\n this SDK:           %v\n go.temporal.io/sdk: %v", update, ours, official)
	}
}

func withoutStackTraces(o *updatepb.Outcome) *updatepb.Outcome {
	o = proto.CloneOf(o)
	for f := o.GetFailure(); f != nil; f = f.GetCause() {
		f.StackTrace = ""
	}
	return o
}

func eventTypes(events []*historypb.HistoryEvent) string {
	names := make([]string, len(events))
	for i, ev := range events {
		names[i] = strings.TrimPrefix(ev.GetEventType().String(), "EVENT_TYPE_")
	}
	return strings.Join(names, ", ")
}
