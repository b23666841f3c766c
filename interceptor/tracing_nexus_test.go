package interceptor

import (
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// nexusHeaderRecorder keeps the Nexus header each operation is sent with.
type nexusHeaderRecorder struct {
	WorkerInterceptorBase
	mu      sync.Mutex
	headers []map[string]string
}

func (r *nexusHeaderRecorder) first() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.headers) == 0 {
		return nil
	}
	return r.headers[0]
}

func (r *nexusHeaderRecorder) InterceptWorkflow(_ workflow.Context, next WorkflowInboundInterceptor) WorkflowInboundInterceptor {
	return &nexusHeaderInbound{WorkflowInboundInterceptorBase: WorkflowInboundInterceptorBase{Next: next}, recorder: r}
}

type nexusHeaderInbound struct {
	WorkflowInboundInterceptorBase
	recorder *nexusHeaderRecorder
}

func (i *nexusHeaderInbound) Init(outbound WorkflowOutboundInterceptor) error {
	return i.Next.Init(&nexusHeaderOutbound{WorkflowOutboundInterceptorBase: WorkflowOutboundInterceptorBase{Next: outbound}, recorder: i.recorder})
}

type nexusHeaderOutbound struct {
	WorkflowOutboundInterceptorBase
	recorder *nexusHeaderRecorder
}

func (o *nexusHeaderOutbound) ExecuteNexusOperation(ctx internal.Context, input ExecuteNexusOperationInput) workflow.NexusOperationFuture {
	o.recorder.mu.Lock()
	o.recorder.headers = append(o.recorder.headers, maps.Clone(map[string]string(input.NexusHeader)))
	o.recorder.mu.Unlock()
	return o.Next.ExecuteNexusOperation(ctx, input)
}

// lockedTracer is fakeTracer for workflow code, which the test
// environment may run on more than one goroutine (a failed task is run
// again): its spans and their record are guarded.
type lockedTracer struct {
	*fakeTracer
	mu sync.Mutex
}

type lockedSpan struct {
	tracer *lockedTracer
	span   TracerSpan
}

func (s *lockedSpan) Finish(o *TracerFinishSpanOptions) {
	s.tracer.mu.Lock()
	defer s.tracer.mu.Unlock()
	s.span.Finish(o)
}

func (t *lockedTracer) StartSpan(o *TracerStartSpanOptions) (TracerSpan, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	span, err := t.fakeTracer.StartSpan(o)
	return &lockedSpan{tracer: t, span: span}, err
}

func (t *lockedTracer) MarshalSpan(s TracerSpan) (map[string]string, error) {
	return t.fakeTracer.MarshalSpan(s.(*lockedSpan).span)
}

// startedSpans are the names of the spans started so far.
func (t *lockedTracer) startedSpans() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var names []string
	for _, o := range t.started {
		names = append(names, o.Operation+":"+o.Name)
	}
	return names
}

func callsNexusOperation(ctx workflow.Context) error {
	return workflow.NewNexusClient("endpoint", "orders").ExecuteOperation(ctx, "reserve", "sku", workflow.NexusOperationOptions{}).Get(ctx, nil)
}

// TestNexusOperationSpanGoesInTheNexusHeader: a workflow's Nexus operation
// is traced as StartNexusOperation:<service>/<operation>, and the span
// goes with the request in its Nexus header, as go.temporal.io/sdk sends
// it. (The test environment does not run the operation: the span is all
// this test needs.)
func TestNexusOperationSpanGoesInTheNexusHeader(t *testing.T) {
	tracer := &lockedTracer{fakeTracer: newFakeTracer()}
	recorder := &nexusHeaderRecorder{}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Interceptors: []WorkerInterceptor{recorder, NewTracingInterceptor(tracer)}})
	env.RegisterWorkflow(callsNexusOperation)
	env.ExecuteWorkflow(callsNexusOperation)
	if names := tracer.startedSpans(); !strings.Contains(strings.Join(names, ","), "StartNexusOperation:orders/reserve") {
		t.Fatalf("spans started: %v", names)
	}
	if header := recorder.first(); header["span"] != "StartNexusOperation:orders/reserve" {
		t.Fatalf("Nexus header sent: %v", header)
	}
}
