package internal

import (
	"context"
	"testing"

	"github.com/durable-go/sdk/converter"
)

// updateRecordingRoot ends a client chain, keeping the header of the
// update calls it got.
type updateRecordingRoot struct {
	recordingClientRoot
}

func (r *updateRecordingRoot) UpdateWorkflow(ctx context.Context, _ *ClientUpdateWorkflowInput) (WorkflowUpdateHandle, error) {
	r.header = Header(ctx)
	return nil, r.err
}

func (r *updateRecordingRoot) UpdateWithStartWorkflow(ctx context.Context, _ *ClientUpdateWithStartWorkflowInput) (WorkflowUpdateHandle, error) {
	r.header = Header(ctx)
	return nil, r.err
}

func TestClientUpdateSpansGoInTheHeader(t *testing.T) {
	calls := map[string]func(ClientOutboundInterceptor, context.Context) error{
		"UpdateWorkflow:add": func(chain ClientOutboundInterceptor, ctx context.Context) error {
			_, err := chain.UpdateWorkflow(ctx, &ClientUpdateWorkflowInput{WorkflowID: "wf", UpdateID: "u1", UpdateName: "add"})
			return err
		},
		"UpdateWithStartWorkflow:add": func(chain ClientOutboundInterceptor, ctx context.Context) error {
			_, err := chain.UpdateWithStartWorkflow(ctx, &ClientUpdateWithStartWorkflowInput{
				UpdateOptions: &UpdateWorkflowOptions{WorkflowID: "wf", UpdateID: "u1", UpdateName: "add"},
			})
			return err
		},
	}
	for spanName, call := range calls {
		tracer := newFakeTracer()
		root := &updateRecordingRoot{recordingClientRoot{err: errClientTest}}
		chain := NewTracingInterceptor(tracer).InterceptClient(root)
		caller := &fakeSpan{tracer: tracer, name: "caller"}
		err := call(chain, contextWithNewHeader(tracer.ContextWithSpan(context.Background(), caller)))
		chkErrIs(t, err, errClientTest)
		chkLen(t, tracer.started, 1)
		chkSame(t, TracerSpanRef(caller), tracer.started[0].Parent)
		chkEqual(t, map[string]string{"temporalWorkflowID": "wf", "temporalUpdateID": "u1"}, tracer.started[0].Tags)
		var fields map[string]string
		chkNoErr(t, converter.GetDefaultDataConverter().FromPayload(root.header["_tracer-data"], &fields))
		chkEqual(t, spanName, fields["span"])
		chkLen(t, tracer.finished, 1)
		chkErrIs(t, tracer.finished[0].err, errClientTest)

		tracer = newFakeTracer()
		tracer.options.DisableUpdateTracing = true
		root = &updateRecordingRoot{}
		chkNoErr(t, call(NewTracingInterceptor(tracer).InterceptClient(root), contextWithNewHeader(context.Background())))
		chkLen(t, tracer.started, 0, "DisableUpdateTracing")
		chkLen(t, root.header, 0)
	}
}
