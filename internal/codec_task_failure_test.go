package internal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	updatepb "go.temporal.io/api/update/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/registry"
)

// codecFailMatch marks the payloads a matchingCodec fails on.
const codecFailMatch = "codec-refuses-this"

// matchingCodec fails Encode or Decode, with err, for a batch of payloads
// one of which holds codecFailMatch (every batch with matchAll), and passes
// the others through unchanged.
type matchingCodec struct {
	onEncode, onDecode, matchAll bool
	err                          error
}

func (c *matchingCodec) refuses(payloads []*commonpb.Payload) bool {
	for _, p := range payloads {
		if c.matchAll || bytes.Contains(p.GetData(), []byte(codecFailMatch)) {
			return true
		}
	}
	return false
}

func (c *matchingCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if c.onEncode && c.refuses(payloads) {
		return nil, c.err
	}
	return payloads, nil
}

func (c *matchingCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if c.onDecode && c.refuses(payloads) {
		return nil, c.err
	}
	return payloads, nil
}

// codecTaskRun drives one workflow function through the engine with a
// data converter whose codec is codec.
type codecTaskRun struct {
	t        *testing.T
	x        *engine.Run
	events   []*historypb.HistoryEvent
	workflow string
}

var codecTestTime = timestamppb.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))

func newCodecTaskRun(t *testing.T, fn any, codec converter.PayloadCodec, failOnPanic bool, started *historypb.WorkflowExecutionStartedEventAttributes) *codecTaskRun {
	t.Helper()
	reg := registry.New()
	if err := reg.RegisterWorkflow(fn, "CodecWorkflow", false); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterActivity(codecTestLocalActivity, "CodecLocalActivity", false, false); err != nil {
		t.Fatal(err)
	}
	config := newRunConfig(reg, RunOptions{
		Namespace:     "ns",
		DataConverter: converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec),
		FailOnPanic:   failOnPanic,
	})
	x := engine.NewRun(config.engineOptions())
	x.SetRun("wf-1", "run-1")
	t.Cleanup(x.Close)
	if started == nil {
		started = &historypb.WorkflowExecutionStartedEventAttributes{}
	}
	started.WorkflowType = &commonpb.WorkflowType{Name: "CodecWorkflow"}
	started.TaskQueue = &taskqueuepb.TaskQueue{Name: "tq"}
	r := &codecTaskRun{t: t, x: x, workflow: "CodecWorkflow"}
	r.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: started})
	return r
}

func codecTestLocalActivity() (string, error) { return "", nil }

// add appends an event of type typ with attributes attrs (nil for none).
func (r *codecTaskRun) add(typ enumspb.EventType, attrs any) *historypb.HistoryEvent {
	ev := &historypb.HistoryEvent{EventId: int64(len(r.events) + 1), EventTime: codecTestTime, EventType: typ}
	switch a := attrs.(type) {
	case nil:
	case *historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes:
		ev.Attributes = a
	case *historypb.HistoryEvent_ActivityTaskScheduledEventAttributes:
		ev.Attributes = a
	case *historypb.HistoryEvent_ActivityTaskStartedEventAttributes:
		ev.Attributes = a
	case *historypb.HistoryEvent_ActivityTaskCompletedEventAttributes:
		ev.Attributes = a
	case *historypb.HistoryEvent_StartChildWorkflowExecutionInitiatedEventAttributes:
		ev.Attributes = a
	case *historypb.HistoryEvent_ChildWorkflowExecutionStartedEventAttributes:
		ev.Attributes = a
	case *historypb.HistoryEvent_ChildWorkflowExecutionCompletedEventAttributes:
		ev.Attributes = a
	case *historypb.HistoryEvent_WorkflowExecutionUpdateAdmittedEventAttributes:
		ev.Attributes = a
	case *historypb.HistoryEvent_WorkflowExecutionSignaledEventAttributes:
		ev.Attributes = a
	default:
		r.t.Fatalf("codecTaskRun.add: attributes %T", attrs)
	}
	r.events = append(r.events, ev)
	return ev
}

// task appends a new workflow task and processes it.
func (r *codecTaskRun) task() (*engine.TaskResult, error) {
	r.add(enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, nil)
	r.add(enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, nil)
	return r.x.ProcessTask(engine.Task{Events: engine.NewEventSource(context.Background(), r.events, nil, nil)})
}

// completed records that the last task completed.
func (r *codecTaskRun) completed() {
	r.add(enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, nil)
}

// mustTask processes a task that must succeed.
func (r *codecTaskRun) mustTask() *engine.TaskResult {
	r.t.Helper()
	res, err := r.task()
	if err != nil {
		r.t.Fatalf("the task failed: %v", err)
	}
	return res
}

// result returns the payloads of v, encoded without the codec.
func codecTestPayloads(t *testing.T, v any) *commonpb.Payloads {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayloads(v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// assertCodecTaskFailure checks that err fails the workflow task for the
// codec's request: the task error, its cause, the codec's error in its
// chain, no panic, and a message that says what failed and what happens.
func assertCodecTaskFailure(t *testing.T, err, cause error, what string) {
	t.Helper()
	var te *engine.TaskError
	if !errors.As(err, &te) {
		t.Fatalf("the task did not fail for the codec: %v", err)
	}
	if te.Cause != enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE {
		t.Errorf("cause %v, want WORKFLOW_WORKER_UNHANDLED_FAILURE as go.temporal.io/sdk reports", te.Cause)
	}
	var request *converter.WorkflowTaskFailureError
	if !errors.As(err, &request) || !errors.Is(err, cause) {
		t.Errorf("the task error does not wrap the codec's WorkflowTaskFailureError and its cause: %v", err)
	}
	var p engine.Panicked
	if errors.As(err, &p) {
		t.Errorf("the task error is reported as a panic: %v", err)
	}
	if f := engine.PanicFailure(err); f != err {
		t.Errorf("the task failure would be sent as a panic: %v", f)
	}
	for _, want := range []string{"payload codec failed the workflow task", "server will retry the task", what, cause.Error()} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the task error does not say %q: %v", want, err)
		}
	}
}

// policies runs f under both workflow panic policies.
func policies(t *testing.T, f func(t *testing.T, failOnPanic bool)) {
	for _, failOnPanic := range []bool{false, true} {
		t.Run(fmt.Sprintf("FailWorkflowOnPanic=%v", failOnPanic), func(t *testing.T) { f(t, failOnPanic) })
	}
}

// Conversions a workflow task makes, whose payloads a codec refuses with a
// WorkflowTaskFailureError, fail the task under either panic policy; so
// does a refusal that workflow code sees and ignores.
func TestCodecTaskFailureAtEncodeSites(t *testing.T) {
	activityCtx := func(ctx Context, summary string) Context {
		return WithActivityOptions(ctx, ActivityOptions{StartToCloseTimeout: time.Minute, Summary: summary})
	}
	childCtx := func(ctx Context, summary string) Context {
		return WithChildOptions(ctx, ChildWorkflowOptions{WorkflowID: "child-1", StaticSummary: summary})
	}
	sites := []struct {
		name, what string
		fn         any
	}{
		{"workflow result", "encoding the workflow's result", func(Context) (string, error) { return codecFailMatch, nil }},
		{"continue-as-new input", "NewContinueAsNewError", func(ctx Context) error {
			return NewContinueAsNewError(ctx, "CodecWorkflow", codecFailMatch)
		}},
		{"failure details", "encoding the details of the failure", func(Context) error {
			return failure.NewApplicationError("failed", "Type", codecFailMatch)
		}},
		{"activity input", "ExecuteActivity(Greet): encoding the input", func(ctx Context) error {
			return ExecuteActivity(activityCtx(ctx, ""), "Greet", codecFailMatch).Get(ctx, nil)
		}},
		{"activity input, error ignored", "ExecuteActivity(Greet): encoding the input", func(ctx Context) error {
			_ = ExecuteActivity(activityCtx(ctx, ""), "Greet", codecFailMatch).Get(ctx, nil)
			return nil
		}},
		{"child input", "ExecuteChildWorkflow(Child): encoding the input", func(ctx Context) error {
			_ = ExecuteChildWorkflow(childCtx(ctx, ""), "Child", codecFailMatch).Get(ctx, nil)
			return nil
		}},
		{"child summary", "encoding the summary", func(ctx Context) error {
			ExecuteChildWorkflow(childCtx(ctx, codecFailMatch), "Child")
			return nil
		}},
		{"external signal input", "SignalExternalWorkflow(go)", func(ctx Context) error {
			_ = SignalExternalWorkflow(ctx, "other", "", "go", codecFailMatch).Get(ctx, nil)
			return nil
		}},
		{"timer summary", "encoding the summary", func(ctx Context) error {
			return NewTimerWithOptions(ctx, time.Minute, TimerOptions{Summary: codecFailMatch}).Get(ctx, nil)
		}},
		{"side effect", "SideEffect", func(ctx Context) error {
			SideEffect(ctx, func(Context) any { return codecFailMatch })
			return nil
		}},
		{"mutable side effect", "MutableSideEffect", func(ctx Context) error {
			MutableSideEffect(ctx, "id", func(Context) any { return codecFailMatch }, func(a, b any) bool { return a == b })
			return nil
		}},
		{"version marker", "marker", func(ctx Context) error {
			GetVersion(ctx, codecFailMatch, DefaultVersion, 1)
			return nil
		}},
	}
	for _, site := range sites {
		t.Run(site.name, func(t *testing.T) {
			policies(t, func(t *testing.T, failOnPanic bool) {
				cause := errors.New("key service unavailable")
				codec := &matchingCodec{onEncode: true, err: converter.NewWorkflowTaskFailureError(cause)}
				_, err := newCodecTaskRun(t, site.fn, codec, failOnPanic, nil).task()
				assertCodecTaskFailure(t, err, cause, site.what)
			})
		})
	}
}

// A workflow input a codec refuses to decode fails the task.
func TestCodecTaskFailureDecodingTheWorkflowInput(t *testing.T) {
	policies(t, func(t *testing.T, failOnPanic bool) {
		cause := errors.New("key service unavailable")
		codec := &matchingCodec{onDecode: true, err: fmt.Errorf("decrypting: %w", converter.NewWorkflowTaskFailureError(cause))}
		run := newCodecTaskRun(t, func(Context, string) error { return nil }, codec, failOnPanic,
			&historypb.WorkflowExecutionStartedEventAttributes{Input: codecTestPayloads(t, codecFailMatch)})
		_, err := run.task()
		assertCodecTaskFailure(t, err, cause, `decoding the input of workflow "CodecWorkflow": argument 1`)
	})
}

// The result of an activity or child workflow that a codec refuses to
// decode fails the task from Future.Get, even when the code ignores the
// error.
func TestCodecTaskFailureDecodingResults(t *testing.T) {
	type started struct {
		scheduled func(r *codecTaskRun, cmd *commandpb.Command)
		what      string
		call      func(ctx Context) Future
	}
	calls := map[string]started{
		"activity": {
			what: `decoding the result of activity "Greet"`,
			call: func(ctx Context) Future {
				return ExecuteActivity(WithActivityOptions(ctx, ActivityOptions{StartToCloseTimeout: time.Minute}), "Greet")
			},
			scheduled: func(r *codecTaskRun, cmd *commandpb.Command) {
				a := cmd.GetScheduleActivityTaskCommandAttributes()
				ev := r.add(enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
					ActivityId: a.GetActivityId(), ActivityType: a.GetActivityType(), TaskQueue: a.GetTaskQueue()}})
				r.add(enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: ev.GetEventId()}})
				r.add(enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{
					ScheduledEventId: ev.GetEventId(), StartedEventId: ev.GetEventId() + 1, Result: codecTestPayloads(r.t, codecFailMatch)}})
			},
		},
		"child workflow": {
			what: `decoding the result of child workflow "Child"`,
			call: func(ctx Context) Future {
				return ExecuteChildWorkflow(WithChildOptions(ctx, ChildWorkflowOptions{WorkflowID: "child-1"}), "Child")
			},
			scheduled: func(r *codecTaskRun, cmd *commandpb.Command) {
				a := cmd.GetStartChildWorkflowExecutionCommandAttributes()
				child := &commonpb.WorkflowExecution{WorkflowId: a.GetWorkflowId(), RunId: "child-run"}
				ev := r.add(enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED, &historypb.HistoryEvent_StartChildWorkflowExecutionInitiatedEventAttributes{StartChildWorkflowExecutionInitiatedEventAttributes: &historypb.StartChildWorkflowExecutionInitiatedEventAttributes{
					WorkflowId: a.GetWorkflowId(), WorkflowType: a.GetWorkflowType(), TaskQueue: a.GetTaskQueue()}})
				r.add(enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED, &historypb.HistoryEvent_ChildWorkflowExecutionStartedEventAttributes{ChildWorkflowExecutionStartedEventAttributes: &historypb.ChildWorkflowExecutionStartedEventAttributes{
					InitiatedEventId: ev.GetEventId(), WorkflowExecution: child, WorkflowType: a.GetWorkflowType()}})
				r.add(enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED, &historypb.HistoryEvent_ChildWorkflowExecutionCompletedEventAttributes{ChildWorkflowExecutionCompletedEventAttributes: &historypb.ChildWorkflowExecutionCompletedEventAttributes{
					InitiatedEventId: ev.GetEventId(), StartedEventId: ev.GetEventId() + 1, WorkflowExecution: child, WorkflowType: a.GetWorkflowType(), Result: codecTestPayloads(r.t, codecFailMatch)}})
			},
		},
	}
	for name, c := range calls {
		for _, ignored := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/error ignored=%v", name, ignored), func(t *testing.T) {
				policies(t, func(t *testing.T, failOnPanic bool) {
					cause := errors.New("key service unavailable")
					codec := &matchingCodec{onDecode: true, err: converter.NewWorkflowTaskFailureError(cause)}
					run := newCodecTaskRun(t, func(ctx Context) (string, error) {
						var s string
						err := c.call(ctx).Get(ctx, &s)
						if ignored {
							return "handled", nil
						}
						return s, err
					}, codec, failOnPanic, nil)
					res := run.mustTask()
					if len(res.Commands) != 1 {
						t.Fatalf("the first task made %d commands, want 1", len(res.Commands))
					}
					run.completed()
					c.scheduled(run, res.Commands[0])
					_, err := run.task()
					assertCodecTaskFailure(t, err, cause, c.what)
				})
			})
		}
	}
}

// A local activity's result that a codec refuses to decode, and a local
// activity marker it refuses to encode, fail the task.
func TestCodecTaskFailureAtLocalActivities(t *testing.T) {
	cases := []struct {
		name, what string
		codec      func(err error) *matchingCodec
		result     string
	}{
		{"result", `decoding the result of local activity "CodecLocalActivity"`,
			func(err error) *matchingCodec { return &matchingCodec{onDecode: true, err: err} }, codecFailMatch},
		{"marker", "encoding its marker",
			func(err error) *matchingCodec { return &matchingCodec{onEncode: true, matchAll: true, err: err} }, "fine"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			policies(t, func(t *testing.T, failOnPanic bool) {
				cause := errors.New("key service unavailable")
				run := newCodecTaskRun(t, func(ctx Context) error {
					ctx = WithLocalActivityOptions(ctx, LocalActivityOptions{StartToCloseTimeout: time.Minute})
					var s string
					_ = ExecuteLocalActivity(ctx, "CodecLocalActivity").Get(ctx, &s)
					return nil
				}, c.codec(converter.NewWorkflowTaskFailureError(cause)), failOnPanic, nil)
				res := run.mustTask()
				if !res.WaitingForLocalActivities || len(res.StartLocalActivities) != 1 {
					t.Fatalf("the task does not wait for the local activity: %+v", res)
				}
				_, err := run.x.ResolveLocalActivity(res.StartLocalActivities[0].ID, engine.LocalActivityOutcome{
					Result: codecTestPayloads(t, c.result), Attempt: 1})
				assertCodecTaskFailure(t, err, cause, c.what)
			})
		})
	}
}

// An update whose result a codec refuses to encode fails the task.
func TestCodecTaskFailureEncodingAnUpdateResult(t *testing.T) {
	policies(t, func(t *testing.T, failOnPanic bool) {
		cause := errors.New("key service unavailable")
		codec := &matchingCodec{onEncode: true, err: converter.NewWorkflowTaskFailureError(cause)}
		run := newCodecTaskRun(t, func(ctx Context) error {
			if err := SetUpdateHandler(ctx, "u", func(Context) (string, error) { return codecFailMatch, nil }); err != nil {
				return err
			}
			return Await(ctx, func() bool { return false })
		}, codec, failOnPanic, nil)
		run.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED, &historypb.HistoryEvent_WorkflowExecutionUpdateAdmittedEventAttributes{WorkflowExecutionUpdateAdmittedEventAttributes: &historypb.WorkflowExecutionUpdateAdmittedEventAttributes{
			Request: &updatepb.Request{Meta: &updatepb.Meta{UpdateId: "update-1"}, Input: &updatepb.Input{Name: "u"}}}})
		_, err := run.task()
		assertCodecTaskFailure(t, err, cause, `the result of update "u"`)
	})
}

// closingCommand is the command that closes the workflow in res.
func closingCommand(t *testing.T, res *engine.TaskResult) *commandpb.Command {
	t.Helper()
	if len(res.Commands) == 0 {
		t.Fatal("the task made no command")
	}
	return res.Commands[len(res.Commands)-1]
}

// Where the request does not apply, the error is an ordinary one: a codec
// error without the request fails the workflow as before; a request that
// workflow code returns itself fails the workflow; the other decoding
// APIs (GetLastCompletionResult here) return it to the code; a signal the
// codec refuses is dropped, as any undecodable signal.
func TestCodecTaskFailureOnlyWhereItApplies(t *testing.T) {
	t.Run("codec error without the request", func(t *testing.T) {
		codec := &matchingCodec{onDecode: true, err: errors.New("plain codec failure")}
		run := newCodecTaskRun(t, func(Context, string) error { return nil }, codec, false,
			&historypb.WorkflowExecutionStartedEventAttributes{Input: codecTestPayloads(t, codecFailMatch)})
		if got := closingCommand(t, run.mustTask()).GetCommandType(); got != enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION {
			t.Errorf("closed with %v, want a failed workflow", got)
		}
	})
	t.Run("returned by workflow code", func(t *testing.T) {
		run := newCodecTaskRun(t, func(Context) error {
			return converter.NewWorkflowTaskFailureError(errors.New("not from a codec"))
		}, &matchingCodec{}, false, nil)
		if got := closingCommand(t, run.mustTask()).GetCommandType(); got != enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION {
			t.Errorf("closed with %v, want a failed workflow", got)
		}
	})
	t.Run("GetLastCompletionResult", func(t *testing.T) {
		cause := errors.New("key service unavailable")
		codec := &matchingCodec{onDecode: true, err: converter.NewWorkflowTaskFailureError(cause)}
		run := newCodecTaskRun(t, func(ctx Context) (bool, error) {
			var last string
			err := GetLastCompletionResult(ctx, &last)
			var request *converter.WorkflowTaskFailureError
			return errors.As(err, &request) && errors.Is(err, cause), nil
		}, codec, false, &historypb.WorkflowExecutionStartedEventAttributes{LastCompletionResult: codecTestPayloads(t, codecFailMatch)})
		cmd := closingCommand(t, run.mustTask())
		var got bool
		if err := converter.GetDefaultDataConverter().FromPayloads(cmd.GetCompleteWorkflowExecutionCommandAttributes().GetResult(), &got); err != nil || !got {
			t.Errorf("the workflow did not get the codec's error from GetLastCompletionResult: %v %v", got, err)
		}
	})
	t.Run("signal", func(t *testing.T) {
		codec := &matchingCodec{onDecode: true, err: converter.NewWorkflowTaskFailureError(errors.New("key service unavailable"))}
		run := newCodecTaskRun(t, func(ctx Context) (string, error) {
			var s string
			ok, _ := GetSignalChannel(ctx, "go").ReceiveWithTimeout(ctx, time.Second, &s)
			return fmt.Sprintf("received=%v", ok), nil
		}, codec, false, nil)
		run.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, &historypb.HistoryEvent_WorkflowExecutionSignaledEventAttributes{WorkflowExecutionSignaledEventAttributes: &historypb.WorkflowExecutionSignaledEventAttributes{
			SignalName: "go", Input: codecTestPayloads(t, codecFailMatch)}})
		res := run.mustTask()
		if len(res.Commands) != 1 || res.Commands[0].GetCommandType() != enumspb.COMMAND_TYPE_START_TIMER {
			t.Errorf("the undecodable signal was not dropped: commands %v", res.Commands)
		}
	})
}
