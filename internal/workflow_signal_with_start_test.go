package internal

import (
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/registry"
)

// signalWithStartCaller signal-with-starts "target-1" and returns the
// execution the future gives, as "id/run".
func signalWithStartCaller(ctx Context) (string, error) {
	var we clientapi.WorkflowExecution
	err := SignalWithStartWorkflow(ctx, SignalWithStartWorkflowOptions{
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowRunTimeout:       time.Minute,
		Memo:                     map[string]any{"m": "memo-value"},
		StaticSummary:            "the summary",
	}, "target-1", "sig", "signal-arg", "TargetWorkflow", "a", 1).Get(ctx, &we)
	if err != nil {
		return "", err
	}
	return we.ID + "/" + we.RunID, nil
}

// The request goes out as go.temporal.io/sdk sends it: one
// ScheduleNexusOperation of the server's system endpoint, whose input is
// the API's SignalWithStartWorkflowExecutionRequest in binary protobuf,
// marked a system payload and left to no codec, the user payloads in it
// encoded with the workflow's converter (its codec included); the
// operation's response gives the signaled run.
func TestSignalWithStartWorkflowSendsTheRequestAsASystemNexusOperation(t *testing.T) {
	r := newCodecTaskRun(t, signalWithStartCaller, chk.PrefixCodec("enc:"), false, nil)
	res := r.mustTask()
	if len(res.Commands) != 1 || res.Commands[0].GetCommandType() != enumspb.COMMAND_TYPE_SCHEDULE_NEXUS_OPERATION {
		t.Fatalf("the task made %v, want one ScheduleNexusOperation", res.Commands)
	}
	attrs := res.Commands[0].GetScheduleNexusOperationCommandAttributes()
	if attrs.GetEndpoint() != "__temporal_system" || attrs.GetService() != "temporal.api.workflowservice.v1.WorkflowService" || attrs.GetOperation() != "SignalWithStartWorkflowExecution" {
		t.Errorf("the operation is %s/%s/%s", attrs.GetEndpoint(), attrs.GetService(), attrs.GetOperation())
	}
	if len(attrs.GetNexusHeader()) != 0 || attrs.GetScheduleToCloseTimeout().AsDuration() != 0 {
		t.Errorf("a Nexus header %v or a timeout %v: the server refuses a header for its own endpoint", attrs.GetNexusHeader(), attrs.GetScheduleToCloseTimeout())
	}
	in := attrs.GetInput()
	md := in.GetMetadata()
	if string(md["encoding"]) != "binary/protobuf" || string(md["messageType"]) != "temporal.api.workflowservice.v1.SignalWithStartWorkflowExecutionRequest" || string(md["__temporal_system_payload"]) != "true" {
		t.Errorf("the input's metadata is %q", md)
	}
	var req workflowservice.SignalWithStartWorkflowExecutionRequest
	if err := proto.Unmarshal(in.GetData(), &req); err != nil {
		t.Fatalf("the input is not the request (did a codec encode it?): %v", err)
	}
	if req.GetNamespace() != "ns" || req.GetWorkflowId() != "target-1" || req.GetWorkflowType().GetName() != "TargetWorkflow" || req.GetSignalName() != "sig" {
		t.Errorf("the request names %q %q %q %q", req.GetNamespace(), req.GetWorkflowId(), req.GetWorkflowType().GetName(), req.GetSignalName())
	}
	if tq := req.GetTaskQueue(); tq.GetName() != "tq" || tq.GetKind() != enumspb.TASK_QUEUE_KIND_NORMAL {
		t.Errorf("the task queue is %v, want the caller's", tq)
	}
	if req.GetWorkflowIdReusePolicy() != enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE || req.GetWorkflowIdConflictPolicy() != enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING {
		t.Errorf("the policies are %v and %v", req.GetWorkflowIdReusePolicy(), req.GetWorkflowIdConflictPolicy())
	}
	if req.GetWorkflowRunTimeout().AsDuration() != time.Minute || req.WorkflowExecutionTimeout != nil || req.WorkflowTaskTimeout != nil || req.WorkflowStartDelay != nil {
		t.Errorf("the timeouts: run %v, execution %v, task %v, delay %v (unset ones must be absent)", req.GetWorkflowRunTimeout(), req.WorkflowExecutionTimeout, req.WorkflowTaskTimeout, req.WorkflowStartDelay)
	}
	if req.Header == nil || len(req.GetHeader().GetFields()) != 0 {
		t.Errorf("the header is %v, want an empty one, as go.temporal.io/sdk always sends", req.Header)
	}
	if req.GetRequestId() != "" || len(req.GetLinks()) != 0 || req.RetryPolicy != nil || req.Priority != nil || req.SearchAttributes != nil {
		t.Errorf("the request sets what the server sets or what was not given: %v", &req)
	}
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), chk.PrefixCodec("enc:"))
	for what, p := range map[string]*commonpb.Payload{
		"input": req.GetInput().GetPayloads()[0], "signal argument": req.GetSignalInput().GetPayloads()[0],
		"memo": req.GetMemo().GetFields()["m"], "summary": req.GetUserMetadata().GetSummary(),
	} {
		if !strings.HasPrefix(string(p.GetData()), "enc:") {
			t.Errorf("the %s was not encoded with the workflow's codec: %q", what, p.GetData())
		}
	}
	var a string
	var n int
	if err := dc.FromPayloads(req.GetInput(), &a, &n); err != nil || a != "a" || n != 1 {
		t.Errorf("the input decodes to %q %d (%v)", a, n, err)
	}
	var sig, summary string
	if len(req.GetSignalInput().GetPayloads()) != 1 {
		t.Errorf("the signal input has %d payloads, want 1", len(req.GetSignalInput().GetPayloads()))
	}
	if err := dc.FromPayloads(req.GetSignalInput(), &sig); err != nil || sig != "signal-arg" {
		t.Errorf("the signal argument decodes to %q (%v)", sig, err)
	}
	if err := dc.FromPayload(req.GetUserMetadata().GetSummary(), &summary); err != nil || summary != "the summary" || req.GetUserMetadata().GetDetails() != nil {
		t.Errorf("the summary decodes to %q (%v), details %v", summary, err, req.GetUserMetadata().GetDetails())
	}

	// The server's response: the run it signaled.
	r.completed()
	scheduled := r.addEvent(enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED, &historypb.HistoryEvent_NexusOperationScheduledEventAttributes{
		NexusOperationScheduledEventAttributes: &historypb.NexusOperationScheduledEventAttributes{Endpoint: attrs.GetEndpoint(), Service: attrs.GetService(), Operation: attrs.GetOperation(), Input: in}})
	result, err := converter.NewProtoPayloadConverter().ToPayload(&workflowservice.SignalWithStartWorkflowExecutionResponse{RunId: "run-9", Started: true})
	if err != nil {
		t.Fatal(err)
	}
	r.addEvent(enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED, &historypb.HistoryEvent_NexusOperationCompletedEventAttributes{
		NexusOperationCompletedEventAttributes: &historypb.NexusOperationCompletedEventAttributes{ScheduledEventId: scheduled.EventId, Result: result}})
	res = r.mustTask()
	if len(res.Commands) != 1 || res.Commands[0].GetCommandType() != enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION {
		t.Fatalf("the second task made %v, want the workflow's completion", res.Commands)
	}
	var got string
	if err := dc.FromPayloads(res.Commands[0].GetCompleteWorkflowExecutionCommandAttributes().GetResult(), &got); err != nil || got != "target-1/run-9" {
		t.Errorf("the future gave %q (%v), want the signaled run target-1/run-9", got, err)
	}
}

// A workflow that is not one fails the call at once, as a programming
// error: go.temporal.io/sdk panics too.
func TestSignalWithStartWorkflowRefusesWhatIsNotAWorkflow(t *testing.T) {
	r := newCodecTaskRun(t, func(ctx Context) error {
		return SignalWithStartWorkflow(ctx, SignalWithStartWorkflowOptions{}, "target-1", "sig", nil, 42).Get(ctx, nil)
	}, chk.PrefixCodec("enc:"), false, nil)
	_, err := r.task()
	if err == nil || !strings.Contains(err.Error(), "SignalWithStartWorkflow: int is not a workflow") {
		t.Errorf("the task's error is %v, want the refusal of the workflow argument", err)
	}
}

// addEvent appends an event of any kind the test needs.
func (r *codecTaskRun) addEvent(typ enumspb.EventType, attrs any) *historypb.HistoryEvent {
	ev := &historypb.HistoryEvent{EventId: int64(len(r.events) + 1), EventTime: codecTestTime, EventType: typ}
	switch a := attrs.(type) {
	case *historypb.HistoryEvent_NexusOperationScheduledEventAttributes:
		ev.Attributes = a
	case *historypb.HistoryEvent_NexusOperationCompletedEventAttributes:
		ev.Attributes = a
	default:
		r.t.Fatalf("addEvent: attributes %T", attrs)
	}
	r.events = append(r.events, ev)
	return ev
}

// targetTaggingConverter tags each payload with the workflow ID of the
// serialization context it was told (none when it was told none).
type targetTaggingConverter struct {
	converter.DataConverter
	workflowID string
}

func (c targetTaggingConverter) WithSerializationContext(sc converter.SerializationContext) converter.DataConverter {
	if w, ok := sc.(converter.WorkflowSerializationContext); ok {
		return targetTaggingConverter{c.DataConverter, w.Namespace + "/" + w.WorkflowID}
	}
	return targetTaggingConverter{c.DataConverter, "other context"}
}

func (c targetTaggingConverter) ToPayload(v any) (*commonpb.Payload, error) {
	p, err := c.DataConverter.ToPayload(v)
	if p != nil {
		p.Metadata["context"] = []byte(c.workflowID)
	}
	return p, err
}

func (c targetTaggingConverter) ToPayloads(vs ...any) (*commonpb.Payloads, error) {
	ps, err := c.DataConverter.ToPayloads(vs...)
	for _, p := range ps.GetPayloads() {
		p.Metadata["context"] = []byte(c.workflowID)
	}
	return ps, err
}

// The user payloads of the request are encoded with the serialization
// context of the workflow it signals, as go.temporal.io/sdk encodes them.
func TestSignalWithStartWorkflowEncodesWithTheTargetsSerializationContext(t *testing.T) {
	reg := registry.New()
	if err := reg.RegisterWorkflow(signalWithStartCaller, "Caller", false); err != nil {
		t.Fatal(err)
	}
	config := newRunConfig(reg, RunOptions{Namespace: "ns", DataConverter: targetTaggingConverter{DataConverter: converter.GetDefaultDataConverter()}})
	x := engine.NewRun(config.engineOptions())
	x.SetRun("caller-1", "run-1")
	t.Cleanup(x.Close)
	r := &codecTaskRun{t: t, x: x, workflow: "Caller"}
	r.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType: &commonpb.WorkflowType{Name: "Caller"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "tq"}}})
	res := r.mustTask()
	if len(res.Commands) != 1 {
		t.Fatalf("the task made %v", res.Commands)
	}
	var req workflowservice.SignalWithStartWorkflowExecutionRequest
	if err := proto.Unmarshal(res.Commands[0].GetScheduleNexusOperationCommandAttributes().GetInput().GetData(), &req); err != nil {
		t.Fatal(err)
	}
	for what, p := range map[string]*commonpb.Payload{
		"input": req.GetInput().GetPayloads()[0], "signal argument": req.GetSignalInput().GetPayloads()[0],
		"memo": req.GetMemo().GetFields()["m"], "summary": req.GetUserMetadata().GetSummary(),
	} {
		if got := string(p.GetMetadata()["context"]); got != "ns/target-1" {
			t.Errorf("the %s was encoded with context %q, want the target's, ns/target-1", what, got)
		}
	}
}

// A query handler may not signal-with-start: the call panics with the
// error that says so, as for every command.
func TestSignalWithStartWorkflowIsRefusedInAQueryHandler(t *testing.T) {
	r := newCodecTaskRun(t, func(ctx Context) error {
		if err := SetQueryHandler(ctx, "start", func() (string, error) {
			SignalWithStartWorkflow(ctx, SignalWithStartWorkflowOptions{}, "target-1", "sig", nil, "TargetWorkflow")
			return "", nil
		}); err != nil {
			return err
		}
		return Await(ctx, func() bool { return false })
	}, chk.PrefixCodec("enc:"), false, nil)
	r.mustTask()
	_, err := r.x.Query("start", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "query handler or an update validator made workflow.SignalWithStartWorkflow") {
		t.Errorf("the query's error is %v, want the read-only refusal naming the call", err)
	}
}
