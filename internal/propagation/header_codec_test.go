package propagation

import (
	"context"
	"testing"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/chk"
)

// keyPropagator writes its key's value from a Go context and reads it
// back; with encode set it asks for the codec.
type keyPropagator struct {
	key    string
	encode bool
}

type keyPropagatorValue string

func (p keyPropagator) Inject(ctx context.Context, w HeaderWriter) error {
	if v, ok := ctx.Value(keyPropagatorValue(p.key)).(string); ok {
		w.Set(p.key, &commonpb.Payload{Data: []byte(v)})
	}
	return nil
}

func (p keyPropagator) Extract(ctx context.Context, r HeaderReader) (context.Context, error) {
	if v, ok := r.Get(p.key); ok {
		return context.WithValue(ctx, keyPropagatorValue(p.key), string(v.Data)), nil
	}
	return ctx, nil
}

func (keyPropagator) InjectFromWorkflow(Context, HeaderWriter) error { return nil }

func (keyPropagator) ExtractToWorkflow(ctx Context, _ HeaderReader) (Context, error) {
	return ctx, nil
}

func (p keyPropagator) EncodeHeaders() bool { return p.encode }

func codecOf(c converter.PayloadCodec) func() converter.PayloadCodec {
	return func() converter.PayloadCodec { return c }
}

func TestOutgoingHeaderEncodesOnlyTheFieldsAskedFor(t *testing.T) {
	ctx := ContextWithNewHeader(context.Background())
	ctx = context.WithValue(ctx, keyPropagatorValue("plain"), "p")
	ctx = context.WithValue(ctx, keyPropagatorValue("coded"), "c")
	Header(ctx)["interceptor"] = &commonpb.Payload{Data: []byte("i")}
	Header(ctx)["marked"] = &commonpb.Payload{Data: []byte("m")}
	EncodeHeader(ctx, "marked")
	Header(ctx)["replaced"] = &commonpb.Payload{Data: []byte("old")}
	EncodeHeader(ctx, "replaced")
	Header(ctx)["replaced"] = &commonpb.Payload{Data: []byte("new")}

	propagators := []Propagator{keyPropagator{key: "plain"}, keyPropagator{key: "coded", encode: true}}
	header, err := ClientOutgoingHeader(ctx, propagators, codecOf(chk.PrefixCodec("enc:")))
	chk.NoErr(t, err)
	want := map[string]string{"plain": "p", "coded": "enc:c", "interceptor": "i", "marked": "enc:m", "replaced": "new"}
	chk.Len(t, header.GetFields(), len(want))
	for key, data := range want {
		chk.Equal(t, data, string(header.GetFields()[key].GetData()), key)
	}
	chk.Equal(t, "m", string(Header(ctx)["marked"].GetData()), "the call's header is left as written")
}

func TestOutgoingHeaderWithoutACodecSendsFieldsAsWritten(t *testing.T) {
	ctx := context.WithValue(ContextWithNewHeader(context.Background()), keyPropagatorValue("coded"), "c")
	header, err := ClientOutgoingHeader(ctx, []Propagator{keyPropagator{key: "coded", encode: true}}, codecOf(nil))
	chk.NoErr(t, err)
	chk.Equal(t, "c", string(header.GetFields()["coded"].GetData()))
}

func TestIncomingHeaderIsDecodedForThePropagatorsThatAskOnly(t *testing.T) {
	header := &commonpb.Header{Fields: map[string]*commonpb.Payload{
		"coded": {Data: []byte("enc:c")},
		"plain": {Data: []byte("p")},
	}}
	propagators := []Propagator{keyPropagator{key: "plain"}, keyPropagator{key: "coded", encode: true}}
	// The decoded view fails on "plain", which prefixCodec did not
	// encode: a propagator that asks for decoding reads the whole
	// header through the codec, as go.temporal.io/sdk's does.
	_, err := ContextWithIncomingHeader(context.Background(), header, propagators, codecOf(chk.PrefixCodec("enc:")))
	chk.ErrContains(t, err, `header field "plain"`, "the field the codec failed on is named")

	header.Fields["plain"] = &commonpb.Payload{Data: []byte("enc:p")}
	ctx, err := ContextWithIncomingHeader(context.Background(), header, propagators, codecOf(chk.PrefixCodec("enc:")))
	chk.NoErr(t, err)
	chk.Equal(t, "c", ctx.Value(keyPropagatorValue("coded")), "decoded for the propagator that asks")
	chk.Equal(t, "enc:p", ctx.Value(keyPropagatorValue("plain")), "as it arrived for the one that does not")
	chk.Equal(t, "enc:c", string(Header(ctx)["coded"].GetData()), "interceptors see the header as it arrived")
	decoded, err := DecodedHeader(ctx)
	chk.NoErr(t, err)
	chk.Equal(t, "c", string(decoded["coded"].GetData()), "DecodedHeader decodes")
	chk.Equal(t, "enc:c", string(Header(ctx)["coded"].GetData()), "DecodedHeader leaves the header alone")
}
