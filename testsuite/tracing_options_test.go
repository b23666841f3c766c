package testsuite_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// namingTracer records the names of the spans started.
type namingTracer struct {
	interceptor.BaseTracer
	mu    sync.Mutex
	names []string
}

type namedSpan struct{ name string }

func (namedSpan) Finish(*interceptor.TracerFinishSpanOptions) {}

type namedSpanKey struct{}

func (*namingTracer) Options() interceptor.TracerOptions {
	return interceptor.TracerOptions{SpanContextKey: namedSpanKey{}, HeaderKey: "_named"}
}

func (*namingTracer) UnmarshalSpan(m map[string]string) (interceptor.TracerSpanRef, error) {
	if m["span"] == "" {
		return nil, nil
	}
	return namedSpan{m["span"]}, nil
}

func (*namingTracer) MarshalSpan(s interceptor.TracerSpan) (map[string]string, error) {
	return map[string]string{"span": s.(namedSpan).name}, nil
}

func (*namingTracer) SpanFromContext(ctx context.Context) interceptor.TracerSpan {
	s, _ := ctx.Value(namedSpanKey{}).(interceptor.TracerSpan)
	return s
}

func (*namingTracer) ContextWithSpan(ctx context.Context, s interceptor.TracerSpan) context.Context {
	return context.WithValue(ctx, namedSpanKey{}, s)
}

func (t *namingTracer) StartSpan(o *interceptor.TracerStartSpanOptions) (interceptor.TracerSpan, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	name := t.SpanName(o)
	t.names = append(t.names, name)
	return namedSpan{name}, nil
}

// SignalsWithOptionsWorkflow signals its child with both *WithOptions
// calls, then waits for it.
func SignalsWithOptionsWorkflow(ctx workflow.Context) error {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "signaled-child"})
	child := workflow.ExecuteChildWorkflow(ctx, TwoPingsWorkflow)
	if err := child.SignalChildWorkflowWithOptions(ctx, "ping", 1, workflow.SignalChildWorkflowOptions{}).Get(ctx, nil); err != nil {
		return err
	}
	if err := workflow.SignalExternalWorkflowWithOptions(ctx, "signaled-child", "", "ping", 2, workflow.SignalExternalWorkflowOptions{}).Get(ctx, nil); err != nil {
		return err
	}
	return child.Get(ctx, nil)
}

// TwoPingsWorkflow returns after two "ping" signals.
func TwoPingsWorkflow(ctx workflow.Context) error {
	ch := workflow.GetSignalChannel(ctx, "ping")
	ch.Receive(ctx, nil)
	ch.Receive(ctx, nil)
	return workflow.Sleep(ctx, time.Millisecond)
}

// The tracing interceptor traces the *WithOptions signals as it traces
// the calls without options, as go.temporal.io/sdk v1.51's does.
func TestTracingInterceptorTracesTheSignalsWithOptions(t *testing.T) {
	tracer := &namingTracer{}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	tracing := interceptor.NewTracingInterceptor(tracer)
	env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{tracing}})
	env.RegisterWorkflow(SignalsWithOptionsWorkflow)
	env.RegisterWorkflow(TwoPingsWorkflow)
	env.ExecuteWorkflow(SignalsWithOptionsWorkflow)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	tracer.mu.Lock()
	defer tracer.mu.Unlock()
	for _, want := range []string{"SignalChildWorkflow:ping", "SignalExternalWorkflow:ping"} {
		if !slices.Contains(tracer.names, want) {
			t.Errorf("no span %s among %v", want, tracer.names)
		}
	}
}

// hookCounter counts the calls of the outbound hooks that v1.51 split in
// two, by hook.
type hookCounter struct {
	interceptor.WorkerInterceptorBase
	interceptor.WorkflowInboundInterceptorBase
	interceptor.WorkflowOutboundInterceptorBase
	calls map[string]int
}

func (h *hookCounter) InterceptWorkflow(_ workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &hookCounter{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, calls: h.calls}
}

func (h *hookCounter) Init(outbound interceptor.WorkflowOutboundInterceptor) error {
	return h.WorkflowInboundInterceptorBase.Next.Init(&hookCounter{WorkflowOutboundInterceptorBase: interceptor.WorkflowOutboundInterceptorBase{Next: outbound}, calls: h.calls})
}

func (h *hookCounter) GetVersion(ctx workflow.Context, changeID string, lo, hi workflow.Version) workflow.Version {
	h.calls["GetVersion"]++
	return h.WorkflowOutboundInterceptorBase.Next.GetVersion(ctx, changeID, lo, hi)
}

func (h *hookCounter) GetVersionWithOptions(ctx workflow.Context, changeID string, lo, hi workflow.Version, o workflow.GetVersionOptions) workflow.Version {
	h.calls["GetVersionWithOptions"]++
	return h.WorkflowOutboundInterceptorBase.Next.GetVersionWithOptions(ctx, changeID, lo, hi, o)
}

func (h *hookCounter) UpsertMemo(ctx workflow.Context, memo map[string]any) error {
	h.calls["UpsertMemo"]++
	return h.WorkflowOutboundInterceptorBase.Next.UpsertMemo(ctx, memo)
}

func (h *hookCounter) UpsertMemoWithOptions(ctx workflow.Context, memo map[string]any, o workflow.UpsertMemoOptions) error {
	h.calls["UpsertMemoWithOptions"]++
	return h.WorkflowOutboundInterceptorBase.Next.UpsertMemoWithOptions(ctx, memo, o)
}

func (h *hookCounter) NewContinueAsNewError(ctx workflow.Context, wfn any, args ...any) error {
	h.calls["NewContinueAsNewError"]++
	return h.WorkflowOutboundInterceptorBase.Next.NewContinueAsNewError(ctx, wfn, args...)
}

func (h *hookCounter) NewContinueAsNewErrorWithOptions(ctx workflow.Context, o workflow.ContinueAsNewErrorOptions, wfn any, args ...any) error {
	h.calls["NewContinueAsNewErrorWithOptions"]++
	return h.WorkflowOutboundInterceptorBase.Next.NewContinueAsNewErrorWithOptions(ctx, o, wfn, args...)
}

// BothCallsWorkflow makes each call twice, without and with options.
func BothCallsWorkflow(ctx workflow.Context) error {
	workflow.GetVersion(ctx, "a", workflow.DefaultVersion, 1)
	workflow.GetVersionWithOptions(ctx, "b", workflow.DefaultVersion, 1, workflow.GetVersionOptions{})
	if err := workflow.UpsertMemo(ctx, map[string]any{"a": 1}); err != nil {
		return err
	}
	if err := workflow.UpsertMemoWithOptions(ctx, map[string]any{"b": 2}, workflow.UpsertMemoOptions{}); err != nil {
		return err
	}
	_ = workflow.NewContinueAsNewError(ctx, BothCallsWorkflow)
	return workflow.NewContinueAsNewErrorWithOptions(ctx, workflow.ContinueAsNewErrorOptions{}, BothCallsWorkflow)
}

// Each call reaches the hook of its own name, and only it, as in
// go.temporal.io/sdk v1.51: an interceptor written before v1.51 sees the
// calls without options as before.
func TestCallsWithAndWithoutOptionsReachTheirOwnHooks(t *testing.T) {
	counter := &hookCounter{calls: map[string]int{}}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{counter}})
	env.RegisterWorkflow(BothCallsWorkflow)
	env.ExecuteWorkflow(BothCallsWorkflow)
	if !workflow.IsContinueAsNewError(env.GetWorkflowError()) {
		t.Fatalf("workflow error %v, want it to continue as new", env.GetWorkflowError())
	}
	for _, hook := range []string{"GetVersion", "GetVersionWithOptions", "UpsertMemo", "UpsertMemoWithOptions", "NewContinueAsNewError", "NewContinueAsNewErrorWithOptions"} {
		if counter.calls[hook] != 1 {
			t.Errorf("%s was called %d times, want 1 (all calls: %v)", hook, counter.calls[hook], counter.calls)
		}
	}
}
