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

// updateRecordingRoot ends a client chain, keeping the header of the
// update calls it got.
type updateRecordingRoot struct {
	recordingClientRoot
}

func (r *updateRecordingRoot) UpdateWorkflow(ctx context.Context, _ *clientapi.ClientUpdateWorkflowInput) (clientapi.WorkflowUpdateHandle, error) {
	r.header = propagation.Header(ctx)
	return nil, r.err
}

func (r *updateRecordingRoot) UpdateWithStartWorkflow(ctx context.Context, _ *clientapi.ClientUpdateWithStartWorkflowInput) (clientapi.WorkflowUpdateHandle, error) {
	r.header = propagation.Header(ctx)
	return nil, r.err
}

// errUpdateTest is the error the chain's end returns.
var errUpdateTest = errors.New("update refused")

func TestClientUpdateSpansGoInTheHeader(t *testing.T) {
	calls := map[string]func(clientapi.ClientOutboundInterceptor, context.Context) error{
		"UpdateWorkflow:add": func(chain clientapi.ClientOutboundInterceptor, ctx context.Context) error {
			_, err := chain.UpdateWorkflow(ctx, &clientapi.ClientUpdateWorkflowInput{WorkflowID: "wf", UpdateID: "u1", UpdateName: "add"})
			return err
		},
		"UpdateWithStartWorkflow:add": func(chain clientapi.ClientOutboundInterceptor, ctx context.Context) error {
			_, err := chain.UpdateWithStartWorkflow(ctx, &clientapi.ClientUpdateWithStartWorkflowInput{
				UpdateOptions: &clientapi.UpdateWorkflowOptions{WorkflowID: "wf", UpdateID: "u1", UpdateName: "add"},
			})
			return err
		},
	}
	for spanName, call := range calls {
		tracer := newFakeTracer()
		root := &updateRecordingRoot{recordingClientRoot{err: errUpdateTest}}
		chain := NewTracingInterceptor(tracer).InterceptClient(root)
		caller := &fakeSpan{tracer: tracer, name: "caller"}
		err := call(chain, propagation.ContextWithNewHeader(tracer.ContextWithSpan(context.Background(), caller)))
		if !errors.Is(err, errUpdateTest) {
			t.Fatalf("%s: error %v, want %v", spanName, err, errUpdateTest)
		}
		if len(tracer.started) != 1 || tracer.started[0].Parent != TracerSpanRef(caller) {
			t.Fatalf("%s: started %+v, want one span under the caller's", spanName, tracer.started)
		}
		if tags := tracer.started[0].Tags; !maps.Equal(tags, map[string]string{"temporalWorkflowID": "wf", "temporalUpdateID": "u1"}) {
			t.Fatalf("%s: tags %v", spanName, tags)
		}
		var fields map[string]string
		if err := converter.GetDefaultDataConverter().FromPayload(root.header["_tracer-data"], &fields); err != nil || fields["span"] != spanName {
			t.Fatalf("%s: header field %v, %v", spanName, fields, err)
		}
		if len(tracer.finished) != 1 || !errors.Is(tracer.finished[0].err, errUpdateTest) {
			t.Fatalf("%s: finished %+v, want one span ended with the call's error", spanName, tracer.finished)
		}

		tracer = newFakeTracer()
		tracer.options.DisableUpdateTracing = true
		root = &updateRecordingRoot{}
		if err := call(NewTracingInterceptor(tracer).InterceptClient(root), propagation.ContextWithNewHeader(context.Background())); err != nil {
			t.Fatalf("%s with DisableUpdateTracing: %v", spanName, err)
		}
		if len(tracer.started) != 0 || len(root.header) != 0 {
			t.Fatalf("%s with DisableUpdateTracing: spans %v, header %v", spanName, tracer.started, root.header)
		}
	}
}
