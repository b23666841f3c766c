package interceptor

import (
	"strings"
	"sync"
	"testing"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// signalWithStartRecorder keeps what an outbound interceptor inside the
// tracing one (listed before it: outbound interceptors wrap in the
// reverse order) sees of each SignalWithStartWorkflow: the workflow type and the
// header's tracing field.
type signalWithStartRecorder struct {
	WorkerInterceptorBase
	mu    sync.Mutex
	calls []string
}

func (r *signalWithStartRecorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

func (r *signalWithStartRecorder) InterceptWorkflow(_ workflow.Context, next WorkflowInboundInterceptor) WorkflowInboundInterceptor {
	return &signalWithStartInbound{WorkflowInboundInterceptorBase: WorkflowInboundInterceptorBase{Next: next}, recorder: r}
}

type signalWithStartInbound struct {
	WorkflowInboundInterceptorBase
	recorder *signalWithStartRecorder
}

func (i *signalWithStartInbound) Init(outbound WorkflowOutboundInterceptor) error {
	return i.Next.Init(&signalWithStartOutbound{WorkflowOutboundInterceptorBase: WorkflowOutboundInterceptorBase{Next: outbound}, recorder: i.recorder})
}

type signalWithStartOutbound struct {
	WorkflowOutboundInterceptorBase
	recorder *signalWithStartRecorder
}

func (o *signalWithStartOutbound) SignalWithStartWorkflow(ctx internal.Context, options workflow.SignalWithStartWorkflowOptions, workflowID, signal string, signalArg any, workflowType string, args ...any) workflow.Future {
	o.recorder.mu.Lock()
	o.recorder.calls = append(o.recorder.calls, workflowType+" "+workflowID+" "+signal+" header "+string(propagation.WorkflowHeader(ctx)["_tracer-data"].GetData()))
	o.recorder.mu.Unlock()
	return o.Next.SignalWithStartWorkflow(ctx, options, workflowID, signal, signalArg, workflowType, args...)
}

func signalWithStartsTarget(ctx workflow.Context) error {
	return workflow.SignalWithStartWorkflow(ctx, workflow.SignalWithStartWorkflowOptions{}, "target-1", "sig", "hello", "TargetWorkflow", "input").Get(ctx, nil)
}

// TestSignalWithStartWorkflowSpanGoesInTheHeader: the interceptors see
// workflow.SignalWithStartWorkflow with the workflow's type name; the
// tracing interceptor traces it as SignalWithStartWorkflow:<type> and
// writes the span to the request's header, as go.temporal.io/sdk's does.
// (The test environment does not run the operation: the interceptors'
// view is all this test needs.)
func TestSignalWithStartWorkflowSpanGoesInTheHeader(t *testing.T) {
	tracer := &lockedTracer{fakeTracer: newFakeTracer()}
	recorder := &signalWithStartRecorder{}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Interceptors: []WorkerInterceptor{recorder, NewTracingInterceptor(tracer)}})
	env.RegisterWorkflow(signalWithStartsTarget)
	env.ExecuteWorkflow(signalWithStartsTarget)
	if names := tracer.startedSpans(); !strings.Contains(strings.Join(names, ","), "SignalWithStartWorkflow:TargetWorkflow") {
		t.Fatalf("spans started: %v", names)
	}
	calls := recorder.seen()
	if len(calls) == 0 || !strings.HasPrefix(calls[0], "TargetWorkflow target-1 sig header ") || !strings.Contains(calls[0], "SignalWithStartWorkflow:TargetWorkflow") {
		t.Fatalf("the inner interceptor saw %q, want the call with the span in its header", calls)
	}
}
