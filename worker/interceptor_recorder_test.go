package worker_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/workflow"
)

// Header keys the recording interceptor writes: the client's calls carry
// clientHeaderKey, the activities a workflow schedules activityHeaderKey.
const (
	clientHeaderKey   = "test-client"
	activityHeaderKey = "test-activity"
)

// Context keys under which the inbound interceptors hand header values to
// the code they call, which does not see headers itself.
type (
	clientHeaderValue   struct{}
	activityHeaderValue struct{}
)

// callLog is the calls interceptors saw, in order. Activities run on
// their own goroutines, hence the lock.
type callLog struct {
	mu    sync.Mutex
	calls []string
	// live: leave out the calls of replayed workflow tasks, whose calls
	// were recorded the first time (set for runs on a worker, not for the
	// replayer).
	live bool
}

// add records a call; workflow interceptors call it too.
//
//workflowcheck:ignore test instrumentation: the lock, there for the activities' goroutines, is never held across a yield
func (l *callLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, fmt.Sprintf(format, args...))
}

func (l *callLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.calls...)
}

func headerPayload(s string) *commonpb.Payload {
	p, err := converter.GetDefaultDataConverter().ToPayload(s)
	if err != nil {
		panic(err)
	}
	return p
}

// headerString decodes a header field written by headerPayload; "" if
// absent.
func headerString(header map[string]*commonpb.Payload, key string) string {
	var s string
	if p, ok := header[key]; ok {
		if err := converter.GetDefaultDataConverter().FromPayload(p, &s); err != nil {
			return "undecodable: " + err.Error()
		}
	}
	return s
}

// recordingInterceptor records what it sees of a client and of the
// workflows and activities of workers, and writes headers: one on each
// client call, one on each activity a workflow schedules. Its inbound
// interceptors hand the header values they receive to the code they call
// through context values.
type recordingInterceptor struct {
	interceptor.InterceptorBase
	log *callLog
}

func (r *recordingInterceptor) InterceptClient(next interceptor.ClientOutboundInterceptor) interceptor.ClientOutboundInterceptor {
	return &recordingClient{ClientOutboundInterceptorBase: interceptor.ClientOutboundInterceptorBase{Next: next}, log: r.log}
}

func (r *recordingInterceptor) InterceptWorkflow(_ workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &recordingWorkflowInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, log: r.log}
}

func (r *recordingInterceptor) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &recordingActivityInbound{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, log: r.log}
}

type recordingClient struct {
	interceptor.ClientOutboundInterceptorBase
	log *callLog
}

// sign records a client call and writes its name into the call's header.
func (c *recordingClient) sign(ctx context.Context, call string) {
	c.log.add("client %s", call)
	interceptor.Header(ctx)[clientHeaderKey] = headerPayload("client:" + call)
}

func (c *recordingClient) ExecuteWorkflow(ctx context.Context, in *interceptor.ClientExecuteWorkflowInput) (client.WorkflowRun, error) {
	c.sign(ctx, "ExecuteWorkflow "+in.WorkflowType)
	return c.Next.ExecuteWorkflow(ctx, in)
}

func (c *recordingClient) SignalWorkflow(ctx context.Context, in *interceptor.ClientSignalWorkflowInput) error {
	c.sign(ctx, "SignalWorkflow "+in.SignalName)
	return c.Next.SignalWorkflow(ctx, in)
}

func (c *recordingClient) SignalWithStartWorkflow(ctx context.Context, in *interceptor.ClientSignalWithStartWorkflowInput) (client.WorkflowRun, error) {
	c.sign(ctx, "SignalWithStartWorkflow "+in.SignalName)
	return c.Next.SignalWithStartWorkflow(ctx, in)
}

func (c *recordingClient) QueryWorkflow(ctx context.Context, in *interceptor.ClientQueryWorkflowInput) (converter.EncodedValue, error) {
	c.sign(ctx, "QueryWorkflow "+in.QueryType)
	return c.Next.QueryWorkflow(ctx, in)
}

func (c *recordingClient) DescribeWorkflow(ctx context.Context, in *interceptor.ClientDescribeWorkflowInput) (*interceptor.ClientDescribeWorkflowOutput, error) {
	c.log.add("client DescribeWorkflow")
	return c.Next.DescribeWorkflow(ctx, in)
}

func (c *recordingClient) CancelWorkflow(ctx context.Context, in *interceptor.ClientCancelWorkflowInput) error {
	c.log.add("client CancelWorkflow")
	return c.Next.CancelWorkflow(ctx, in)
}

func (c *recordingClient) TerminateWorkflow(ctx context.Context, in *interceptor.ClientTerminateWorkflowInput) error {
	c.log.add("client TerminateWorkflow %s", in.Reason)
	return c.Next.TerminateWorkflow(ctx, in)
}

type recordingWorkflowInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	log *callLog
	out *recordingWorkflowOutbound
}

func (w *recordingWorkflowInbound) Init(outbound interceptor.WorkflowOutboundInterceptor) error {
	w.out = &recordingWorkflowOutbound{WorkflowOutboundInterceptorBase: interceptor.WorkflowOutboundInterceptorBase{Next: outbound}, log: w.log}
	return w.Next.Init(w.out)
}

func (w *recordingWorkflowInbound) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (any, error) {
	fromClient := headerString(interceptor.WorkflowHeader(ctx), clientHeaderKey)
	w.out.record(ctx, "ExecuteWorkflow header=%s", fromClient)
	return w.Next.ExecuteWorkflow(workflow.WithValue(ctx, clientHeaderValue{}, fromClient), in)
}

func (w *recordingWorkflowInbound) HandleSignal(ctx workflow.Context, in *interceptor.HandleSignalInput) error {
	w.out.record(ctx, "HandleSignal %s header=%s", in.SignalName, headerString(interceptor.WorkflowHeader(ctx), clientHeaderKey))
	return w.Next.HandleSignal(ctx, in)
}

func (w *recordingWorkflowInbound) HandleQuery(ctx workflow.Context, in *interceptor.HandleQueryInput) (any, error) {
	w.out.record(ctx, "HandleQuery %s header=%s", in.QueryType, headerString(interceptor.WorkflowHeader(ctx), clientHeaderKey))
	return w.Next.HandleQuery(ctx, in)
}

type recordingWorkflowOutbound struct {
	interceptor.WorkflowOutboundInterceptorBase
	log *callLog
}

// record adds a call, unless the log is live and the task is a replay.
// It asks Next whether the run replays, so that the question itself is
// not recorded.
func (w *recordingWorkflowOutbound) record(ctx workflow.Context, format string, args ...any) {
	if w.log.live && w.Next.IsReplaying(ctx) {
		return
	}
	w.log.add(format, args...)
}

func (w *recordingWorkflowOutbound) Go(ctx workflow.Context, name string, f func(ctx workflow.Context)) workflow.Context {
	w.record(ctx, "Go %s", name)
	return w.Next.Go(ctx, name, f)
}

func (w *recordingWorkflowOutbound) Await(ctx workflow.Context, condition func() bool) error {
	w.record(ctx, "Await")
	return w.Next.Await(ctx, condition)
}

func (w *recordingWorkflowOutbound) ExecuteActivity(ctx workflow.Context, activityType string, args ...any) workflow.Future {
	w.record(ctx, "ExecuteActivity(workflow) %s", activityType)
	interceptor.WorkflowHeader(ctx)[activityHeaderKey] = headerPayload("workflow:" + activityType)
	return w.Next.ExecuteActivity(ctx, activityType, args...)
}

func (w *recordingWorkflowOutbound) NewTimer(ctx workflow.Context, d time.Duration) workflow.Future {
	w.record(ctx, "NewTimer %v", d)
	return w.Next.NewTimer(ctx, d)
}

func (w *recordingWorkflowOutbound) Sleep(ctx workflow.Context, d time.Duration) error {
	w.record(ctx, "Sleep %v", d)
	return w.Next.Sleep(ctx, d)
}

func (w *recordingWorkflowOutbound) GetSignalChannel(ctx workflow.Context, name string) workflow.ReceiveChannel {
	w.record(ctx, "GetSignalChannel %s", name)
	return w.Next.GetSignalChannel(ctx, name)
}

func (w *recordingWorkflowOutbound) SetQueryHandler(ctx workflow.Context, queryType string, handler any) error {
	w.record(ctx, "SetQueryHandler %s", queryType)
	return w.Next.SetQueryHandler(ctx, queryType, handler)
}

func (w *recordingWorkflowOutbound) SideEffect(ctx workflow.Context, f func(ctx workflow.Context) any) converter.EncodedValue {
	w.record(ctx, "SideEffect")
	return w.Next.SideEffect(ctx, f)
}

type recordingActivityInbound struct {
	interceptor.ActivityInboundInterceptorBase
	log *callLog
	out *recordingActivityOutbound
}

func (a *recordingActivityInbound) Init(outbound interceptor.ActivityOutboundInterceptor) error {
	a.out = &recordingActivityOutbound{ActivityOutboundInterceptorBase: interceptor.ActivityOutboundInterceptorBase{Next: outbound}, log: a.log}
	return a.Next.Init(a.out)
}

func (a *recordingActivityInbound) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	name := a.out.Next.GetInfo(ctx).ActivityType.Name
	fromWorkflow := headerString(interceptor.Header(ctx), activityHeaderKey)
	a.log.add("ExecuteActivity(activity) %s header=%s", name, fromWorkflow)
	return a.Next.ExecuteActivity(context.WithValue(ctx, activityHeaderValue{}, fromWorkflow), in)
}

type recordingActivityOutbound struct {
	interceptor.ActivityOutboundInterceptorBase
	log *callLog
}

func (a *recordingActivityOutbound) GetInfo(ctx context.Context) activity.Info {
	info := a.Next.GetInfo(ctx)
	a.log.add("GetInfo(activity) %s", info.ActivityType.Name)
	return info
}

func (a *recordingActivityOutbound) RecordHeartbeat(ctx context.Context, details ...any) {
	a.log.add("RecordHeartbeat(activity) %v", details)
	a.Next.RecordHeartbeat(ctx, details...)
}

func converterFromPayload(p *commonpb.Payload, valuePtr any) error {
	return converter.GetDefaultDataConverter().FromPayload(p, valuePtr)
}
