package internal

import (
	"context"
	"errors"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	querypb "go.temporal.io/api/query/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
)

func TestHeaderIsNilOutsideInterceptedCalls(t *testing.T) {
	chkNil(t, Header(context.Background()))
	chkNotNil(t, Header(ContextWithNewHeader(context.Background())))
	chkNil(t, Header(contextWithoutHeader(ContextWithNewHeader(context.Background()))), "hidden from the code an interceptor calls")
}

func TestCallerHeaderIsCopiedNotShared(t *testing.T) {
	given := &commonpb.Header{Fields: map[string]*commonpb.Payload{"given": {Data: []byte("g")}}}
	ctx := ContextWithHeader(context.Background(), given)
	Header(ctx)["added"] = &commonpb.Payload{}
	chkLen(t, given.GetFields(), 1, "an interceptor's write does not change the caller's header")
	chkLen(t, headerOf(ctx).GetFields(), 2)
	chkNil(t, headerOf(ContextWithNewHeader(context.Background())), "an empty header is not sent")
}

// mapPropagator carries the "k" value of a Go context, and its string
// value in workflow contexts, through header field "k".
type mapPropagator struct{}

type mapPropagatorKey struct{}

func (mapPropagator) Inject(ctx context.Context, w HeaderWriter) error {
	if v, ok := ctx.Value(mapPropagatorKey{}).(string); ok {
		w.Set("k", &commonpb.Payload{Data: []byte(v)})
	}
	return nil
}

func (mapPropagator) Extract(ctx context.Context, r HeaderReader) (context.Context, error) {
	if p, ok := r.Get("k"); ok {
		return context.WithValue(ctx, mapPropagatorKey{}, string(p.GetData())), nil
	}
	return ctx, nil
}

func (mapPropagator) InjectFromWorkflow(Context, HeaderWriter) error { return nil }

func (mapPropagator) ExtractToWorkflow(ctx Context, _ HeaderReader) (Context, error) { return ctx, nil }

func TestIncomingHeaderGoesToInterceptorsAndPropagators(t *testing.T) {
	header := &commonpb.Header{Fields: map[string]*commonpb.Payload{"k": {Data: []byte("v")}, "other": {}}}
	ctx, err := contextWithIncomingHeader(context.Background(), header, []ContextPropagator{mapPropagator{}})
	chkNoErr(t, err)
	chkEqual(t, "v", ctx.Value(mapPropagatorKey{}), "the propagator extracts its value")
	chkLen(t, Header(ctx), 2, "interceptors see every field")
	Header(ctx)["written"] = &commonpb.Payload{}
	chkLen(t, header.GetFields(), 2, "the received header is not changed")

	var keys []string
	chkNoErr(t, headerFields(Header(ctx)).ForEachKey(func(k string, _ *commonpb.Payload) error {
		keys = append(keys, k)
		return nil
	}))
	chkLen(t, keys, 3)
	stop := errors.New("stop")
	chkErrIs(t, headerFields(Header(ctx)).ForEachKey(func(string, *commonpb.Payload) error { return stop }), stop)
}

// clientCallRecorder intercepts a client and answers every call itself,
// recording the header it found and writing its name into it; the client
// never reaches the server.
type clientCallRecorder struct {
	ClientOutboundInterceptorBase
	name  string
	calls *[]string
}

func (r *clientCallRecorder) record(ctx context.Context, call string) {
	h := Header(ctx)
	var seen []string
	for _, k := range []string{"given", "outer", "inner"} {
		if _, ok := h[k]; ok {
			seen = append(seen, k)
		}
	}
	*r.calls = append(*r.calls, r.name+" "+call+" saw ["+strings.Join(seen, " ")+"]")
	h[r.name] = &commonpb.Payload{}
}

func (r *clientCallRecorder) SignalWorkflow(ctx context.Context, in *ClientSignalWorkflowInput) error {
	r.record(ctx, "SignalWorkflow")
	if r.Next != nil {
		return r.Next.SignalWorkflow(ctx, in)
	}
	return nil
}

func (r *clientCallRecorder) QueryWorkflow(ctx context.Context, in *ClientQueryWorkflowInput) (converter.EncodedValue, error) {
	r.record(ctx, "QueryWorkflow")
	if r.Next != nil {
		return r.Next.QueryWorkflow(ctx, in)
	}
	return nil, failure.NewQueryRejectedError(&querypb.QueryRejected{})
}

type clientRecorderInterceptor struct {
	ClientInterceptorBase
	WorkerInterceptorBase
	name  string
	calls *[]string
	last  bool // answer calls instead of passing them on
}

func (i *clientRecorderInterceptor) InterceptClient(next ClientOutboundInterceptor) ClientOutboundInterceptor {
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
	c.interceptClient([]ClientInterceptor{outer, inner})
	chkLen(t, c.workerInterceptors, 2, "interceptors that also intercept workers are kept for workers")

	chkNoErr(t, c.SignalWorkflow(context.Background(), "wf", "", "sig", nil))
	given := &commonpb.Header{Fields: map[string]*commonpb.Payload{"given": {}}}
	resp, err := c.QueryWorkflowWithOptions(context.Background(), &QueryWorkflowWithOptionsRequest{WorkflowID: "wf", QueryType: "q", Header: given})
	chkNoErr(t, err)
	chkNotNil(t, resp.QueryRejected, "a rejection is an error in the chain and a field of the response")
	chkLen(t, given.GetFields(), 1, "the request's header is not changed")

	want := []string{
		"outer SignalWorkflow saw []", "inner SignalWorkflow saw [outer]",
		"outer QueryWorkflow saw [given]", "inner QueryWorkflow saw [given outer]",
	}
	chkEqual(t, strings.Join(want, "\n"), strings.Join(calls, "\n"))
}
