package worker_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// parentTracer's spans are names; it records each span's parent's name.
type parentTracer struct {
	interceptor.BaseTracer
	encode  bool
	mu      sync.Mutex
	parents map[string]string // span name -> parent name
}

type namedSpan struct{ name string }

func (namedSpan) Finish(*interceptor.TracerFinishSpanOptions) {}

type namedSpanKey struct{}

func (t *parentTracer) Options() interceptor.TracerOptions {
	return interceptor.TracerOptions{SpanContextKey: namedSpanKey{}, HeaderKey: "_parent-tracer", EncodeHeaders: t.encode}
}

func (*parentTracer) UnmarshalSpan(m map[string]string) (interceptor.TracerSpanRef, error) {
	if m["span"] == "" {
		return nil, fmt.Errorf("no span in %v", m)
	}
	return namedSpan{m["span"]}, nil
}

func (*parentTracer) MarshalSpan(s interceptor.TracerSpan) (map[string]string, error) {
	return map[string]string{"span": s.(namedSpan).name}, nil
}

func (*parentTracer) SpanFromContext(ctx context.Context) interceptor.TracerSpan {
	s, _ := ctx.Value(namedSpanKey{}).(namedSpan)
	if s.name == "" {
		return nil
	}
	return s
}

func (*parentTracer) ContextWithSpan(ctx context.Context, s interceptor.TracerSpan) context.Context {
	return context.WithValue(ctx, namedSpanKey{}, s)
}

func (t *parentTracer) StartSpan(o *interceptor.TracerStartSpanOptions) (interceptor.TracerSpan, error) {
	name := o.Operation + ":" + o.Name
	parent := ""
	if p, ok := o.Parent.(namedSpan); ok {
		parent = p.name
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.parents[name] = parent
	return namedSpan{name}, nil
}

func EncodedSpanActivity(context.Context) error { return nil }

func EncodedSpanWorkflow(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	return workflow.ExecuteActivity(ctx, EncodedSpanActivity).Get(ctx, nil)
}

// With TracerOptions.EncodeHeaders, the span's header field goes through
// the client's payload codec on the way out (the start, the activity's
// scheduling) and is decoded on the way in, so each span still has its
// parent.
func TestTracingHeaderGoesThroughTheCodecWithEncodeHeaders(t *testing.T) {
	tracer := &parentTracer{encode: true, parents: map[string]string{}}
	c, err := client.Dial(client.Options{
		HostPort:      testharness.HostPort(t),
		DataConverter: converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), converter.NewZlibCodec(converter.ZlibCodecOptions{AlwaysEncode: true})),
		Interceptors:  []interceptor.ClientInterceptor{interceptor.NewTracingInterceptor(tracer)},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	taskQueue := fmt.Sprintf("encoded-span-%d", time.Now().UnixNano())
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(EncodedSpanWorkflow)
	w.RegisterActivity(EncodedSpanActivity)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue}, EncodedSpanWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	tracer.mu.Lock()
	for span, parent := range map[string]string{
		"RunWorkflow:EncodedSpanWorkflow":   "StartWorkflow:EncodedSpanWorkflow",
		"StartActivity:EncodedSpanActivity": "RunWorkflow:EncodedSpanWorkflow",
		"RunActivity:EncodedSpanActivity":   "StartActivity:EncodedSpanActivity",
	} {
		if got := tracer.parents[span]; got != parent {
			t.Errorf("span %s has parent %q, want %q (spans: %v)", span, got, parent, tracer.parents)
		}
	}
	tracer.mu.Unlock()

	iter := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		e, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		fields := e.GetWorkflowExecutionStartedEventAttributes().GetHeader().GetFields()
		if fields == nil {
			fields = e.GetActivityTaskScheduledEventAttributes().GetHeader().GetFields()
		}
		if fields == nil {
			continue
		}
		if enc := string(fields["_parent-tracer"].GetMetadata()["encoding"]); enc != "binary/zlib" {
			t.Errorf("%s: the span's header field has encoding %q, want the codec's binary/zlib", e.GetEventType(), enc)
		}
	}
}
