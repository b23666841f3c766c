package interceptor

import (
	"context"
	"errors"
	"maps"
	"testing"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
)

// activityRecordingRoot ends a client chain, keeping the header of the
// standalone activity start it got.
type activityRecordingRoot struct {
	recordingClientRoot
}

func (r *activityRecordingRoot) ExecuteActivity(ctx context.Context, _ *clientapi.ClientExecuteActivityInput) (clientapi.ActivityHandle, error) {
	r.header = propagation.Header(ctx)
	return nil, r.err
}

// A standalone activity's start is traced as StartActivity:<type>, tagged
// with its ID, under the caller's span, in the start's header (where the
// worker's RunActivity span finds its parent), ending with the call's
// error; the handle's other calls start no span, as in go.temporal.io/sdk.
func TestStandaloneActivityStartSpanGoesInTheHeader(t *testing.T) {
	errRefused := errors.New("start refused")
	tracer := newFakeTracer()
	root := &activityRecordingRoot{recordingClientRoot{err: errRefused}}
	chain := NewTracingInterceptor(tracer).InterceptClient(root)
	caller := &fakeSpan{tracer: tracer, name: "caller"}
	ctx := propagation.ContextWithNewHeader(tracer.ContextWithSpan(context.Background(), caller))
	_, err := chain.ExecuteActivity(ctx, &clientapi.ClientExecuteActivityInput{
		Options: &clientapi.StartActivityOptions{ID: "act-1", TaskQueue: "q"}, ActivityType: "Charge",
	})
	if !errors.Is(err, errRefused) {
		t.Fatalf("error %v, want %v", err, errRefused)
	}
	if len(tracer.started) != 1 || tracer.started[0].Parent != TracerSpanRef(caller) {
		t.Fatalf("started %+v, want one span under the caller's", tracer.started)
	}
	if tags := tracer.started[0].Tags; !maps.Equal(tags, map[string]string{"temporalActivityID": "act-1"}) {
		t.Fatalf("tags %v", tags)
	}
	var fields map[string]string
	if err := converter.GetDefaultDataConverter().FromPayload(root.header["_tracer-data"], &fields); err != nil || fields["span"] != "StartActivity:Charge" {
		t.Fatalf("header field %v, %v", fields, err)
	}
	if len(tracer.finished) != 1 || !errors.Is(tracer.finished[0].err, errRefused) {
		t.Fatalf("finished %+v, want one span ended with the call's error", tracer.finished)
	}
}
