package typed_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The typed calls go through the same interceptors, tracer, data
// converter and codec as the untyped ones: with all of them set, both
// forms write the same history (codec-encoded payloads and tracing
// headers included), the interceptors see the same calls with the same
// arguments, and the tracer starts the same spans.

// observations are what the interceptors and the tracer saw, in order.
type observations struct {
	mu      sync.Mutex
	entries []string
}

// add records one observation. The tracer hears of activities from the
// activity workers' goroutines, hence the lock.
//
//workflowcheck:ignore the lock guards the test's record, never the workflow's state
func (l *observations) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, fmt.Sprintf(format, args...))
}

func (l *observations) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.entries)
}

// recorder logs the calls workflow code makes through the outbound
// interceptor.
type recorder struct {
	interceptor.WorkerInterceptorBase
	seen *observations
}

func (r *recorder) InterceptWorkflow(_ workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &recorderInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, seen: r.seen}
}

type recorderInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	seen *observations
}

func (i *recorderInbound) Init(outbound interceptor.WorkflowOutboundInterceptor) error {
	return i.Next.Init(&recorderOutbound{WorkflowOutboundInterceptorBase: interceptor.WorkflowOutboundInterceptorBase{Next: outbound}, seen: i.seen})
}

type recorderOutbound struct {
	interceptor.WorkflowOutboundInterceptorBase
	seen *observations
}

func (o *recorderOutbound) ExecuteActivity(ctx workflow.Context, activityType string, args ...any) workflow.Future {
	o.seen.add("ExecuteActivity %s %#v", activityType, args)
	return o.Next.ExecuteActivity(ctx, activityType, args...)
}

func (o *recorderOutbound) ExecuteLocalActivity(ctx workflow.Context, activityType string, args ...any) workflow.Future {
	o.seen.add("ExecuteLocalActivity %s %#v", activityType, args)
	return o.Next.ExecuteLocalActivity(ctx, activityType, args...)
}

// spanTracer's spans are their names; a header carries the name.
type spanTracer struct {
	interceptor.BaseTracer
	seen *observations
}

type spanKey struct{}

type span struct{ name string }

func (*span) Finish(*interceptor.TracerFinishSpanOptions) {}

func (t *spanTracer) Options() interceptor.TracerOptions {
	return interceptor.TracerOptions{SpanContextKey: spanKey{}, HeaderKey: "_typed-test-span"}
}

func (t *spanTracer) UnmarshalSpan(m map[string]string) (interceptor.TracerSpanRef, error) {
	if m["span"] == "" {
		return nil, nil
	}
	return &span{name: m["span"]}, nil
}

func (t *spanTracer) MarshalSpan(s interceptor.TracerSpan) (map[string]string, error) {
	return map[string]string{"span": s.(*span).name}, nil
}

func (t *spanTracer) SpanFromContext(ctx context.Context) interceptor.TracerSpan {
	s, _ := ctx.Value(spanKey{}).(*span)
	if s == nil {
		return nil
	}
	return s
}

func (t *spanTracer) ContextWithSpan(ctx context.Context, s interceptor.TracerSpan) context.Context {
	return context.WithValue(ctx, spanKey{}, s)
}

func (t *spanTracer) StartSpan(o *interceptor.TracerStartSpanOptions) (interceptor.TracerSpan, error) {
	parent := "-"
	if p, ok := o.Parent.(*span); ok {
		parent = p.name
	}
	name := t.SpanName(o)
	t.seen.add("span %s under %s", name, parent)
	return &span{name: name}, nil
}

// instrumented sets a codec, the recorder and the tracer on env, and logs
// into l.
func instrumented(l *observations) func(env *testsuite.TestWorkflowEnvironment) {
	return func(env *testsuite.TestWorkflowEnvironment) {
		registerActivities(env)
		env.SetDataConverter(converter.NewCodecDataConverter(converter.GetDefaultDataConverter(),
			converter.NewZlibCodec(converter.ZlibCodecOptions{AlwaysEncode: true})))
		env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{
			interceptor.NewTracingInterceptor(&spanTracer{seen: l}),
			&recorder{seen: l},
		}})
	}
}

func TestTypedCallsGoThroughInterceptorsTracingAndCodecsAsUntypedOnes(t *testing.T) {
	order := Order{ID: "o-1", Customer: "Ada", Cents: 1200}
	var typedLog, untypedLog observations
	typedRun := runAs(t, "Activities", activitiesTyped, instrumented(&typedLog), order)
	untypedRun := runAs(t, "Activities", activitiesUntyped, instrumented(&untypedLog), order)
	requireSameHistory(t, typedRun, untypedRun)

	typedSeen, untypedSeen := typedLog.all(), untypedLog.all()
	if !slices.Equal(typedSeen, untypedSeen) {
		t.Fatalf("the interceptors and the tracer saw\n%s\nof the typed calls, and\n%s\nof the untyped ones",
			strings.Join(typedSeen, "\n"), strings.Join(untypedSeen, "\n"))
	}
	joined := strings.Join(typedSeen, "\n")
	for _, want := range []string{
		`ExecuteActivity join3 []interface {}{"a", 1, true}`,
		`ExecuteLocalActivity Charge []interface {}{typed_test.Order{ID:"o-1", Customer:"Ada", Cents:1200}}`,
		"span StartActivity:greet under RunWorkflow:Activities",
		"span RunActivity:greet under StartActivity:greet",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("nothing saw %q; they saw:\n%s", want, joined)
		}
	}
	// The codec encoded the payloads, and the tracer's header went with
	// the activities: both are in the history.
	var zlibbed, headers int
	for _, e := range historyOf(t, typedRun).GetEvents() {
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil {
			if p := a.GetInput().GetPayloads(); len(p) > 0 && string(p[0].GetMetadata()["encoding"]) == "binary/zlib" {
				zlibbed++
			}
			if a.GetHeader().GetFields()["_typed-test-span"] != nil {
				headers++
			}
		}
	}
	if zlibbed != 8 || headers != 10 {
		t.Errorf("%d activity inputs encoded by the codec (want the 8 with arguments), %d with the tracer's header (want 10)", zlibbed, headers)
	}
}
