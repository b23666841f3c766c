package clientimpl

import (
	"context"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	querypb "go.temporal.io/api/query/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/propagation"
)

// clientCallRecorder intercepts a client and answers every call itself,
// recording the header it found and writing its name into it; the client
// never reaches the server.
type clientCallRecorder struct {
	clientapi.ClientOutboundInterceptorBase
	name  string
	calls *[]string
}

func (r *clientCallRecorder) record(ctx context.Context, call string) {
	h := propagation.Header(ctx)
	var seen []string
	for _, k := range []string{"given", "outer", "inner"} {
		if _, ok := h[k]; ok {
			seen = append(seen, k)
		}
	}
	*r.calls = append(*r.calls, r.name+" "+call+" saw ["+strings.Join(seen, " ")+"]")
	h[r.name] = &commonpb.Payload{}
}

func (r *clientCallRecorder) SignalWorkflow(ctx context.Context, in *clientapi.ClientSignalWorkflowInput) error {
	r.record(ctx, "SignalWorkflow")
	if r.Next != nil {
		return r.Next.SignalWorkflow(ctx, in)
	}
	return nil
}

func (r *clientCallRecorder) QueryWorkflow(ctx context.Context, in *clientapi.ClientQueryWorkflowInput) (converter.EncodedValue, error) {
	r.record(ctx, "QueryWorkflow")
	if r.Next != nil {
		return r.Next.QueryWorkflow(ctx, in)
	}
	return nil, failure.NewQueryRejectedError(&querypb.QueryRejected{})
}

type clientRecorderInterceptor struct {
	internal.ClientInterceptorBase
	internal.WorkerInterceptorBase
	name  string
	calls *[]string
	last  bool // answer calls instead of passing them on
}

func (i *clientRecorderInterceptor) InterceptClient(next clientapi.ClientOutboundInterceptor) clientapi.ClientOutboundInterceptor {
	r := &clientCallRecorder{name: i.name, calls: i.calls}
	if !i.last {
		r.Next = next
	}
	return r
}

func TestClientInterceptorsRunFirstOutermostWithAWritableHeader(t *testing.T) {
	var calls []string
	c := offlineWorkflowClient()
	outer := &clientRecorderInterceptor{name: "outer", calls: &calls}
	inner := &clientRecorderInterceptor{name: "inner", calls: &calls, last: true}
	c.interceptClient([]internal.ClientInterceptor{outer, inner})
	chk.Len(t, c.workerInterceptors, 2, "interceptors that also intercept workers are kept for workers")

	chk.NoErr(t, c.SignalWorkflow(context.Background(), "wf", "", "sig", nil))
	given := &commonpb.Header{Fields: map[string]*commonpb.Payload{"given": {}}}
	resp, err := c.QueryWorkflowWithOptions(context.Background(), &clientapi.QueryWorkflowWithOptionsRequest{WorkflowID: "wf", QueryType: "q", Header: given})
	chk.NoErr(t, err)
	chk.NotNil(t, resp.QueryRejected, "a rejection is an error in the chain and a field of the response")
	chk.Len(t, given.GetFields(), 1, "the request's header is not changed")

	want := []string{
		"outer SignalWorkflow saw []", "inner SignalWorkflow saw [outer]",
		"outer QueryWorkflow saw [given]", "inner QueryWorkflow saw [given outer]",
	}
	chk.Equal(t, strings.Join(want, "\n"), strings.Join(calls, "\n"))
}
