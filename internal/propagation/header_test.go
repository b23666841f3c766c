package propagation

import (
	"context"
	"errors"
	"testing"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/chk"
)

func TestHeaderIsNilOutsideInterceptedCalls(t *testing.T) {
	chk.Nil(t, Header(context.Background()))
	chk.NotNil(t, Header(ContextWithNewHeader(context.Background())))
	chk.Nil(t, Header(ContextWithoutHeader(ContextWithNewHeader(context.Background()))), "hidden from the code an interceptor calls")
}

func TestCallerHeaderIsCopiedNotShared(t *testing.T) {
	given := &commonpb.Header{Fields: map[string]*commonpb.Payload{"given": {Data: []byte("g")}}}
	ctx := ContextWithHeader(context.Background(), given)
	Header(ctx)["added"] = &commonpb.Payload{}
	chk.Len(t, given.GetFields(), 1, "an interceptor's write does not change the caller's header")
	chk.Len(t, Header(ctx), 2)
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
	ctx, err := ContextWithIncomingHeader(context.Background(), header, []Propagator{mapPropagator{}}, func() converter.PayloadCodec { return nil })
	chk.NoErr(t, err)
	chk.Equal(t, "v", ctx.Value(mapPropagatorKey{}), "the propagator extracts its value")
	chk.Len(t, Header(ctx), 2, "interceptors see every field")
	Header(ctx)["written"] = &commonpb.Payload{}
	chk.Len(t, header.GetFields(), 2, "the received header is not changed")

	var keys []string
	chk.NoErr(t, headerFields(Header(ctx)).ForEachKey(func(k string, _ *commonpb.Payload) error {
		keys = append(keys, k)
		return nil
	}))
	chk.Len(t, keys, 3)
	stop := errors.New("stop")
	chk.ErrIs(t, headerFields(Header(ctx)).ForEachKey(func(string, *commonpb.Payload) error { return stop }), stop)
}
