package converter

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
)

// markerCodec wraps each payload's data in its name, to make codec order
// visible, and records the serialization context it was given.
type markerCodec struct {
	name string
	ctx  SerializationContext
}

func (m *markerCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		data, _ := proto.Marshal(p)
		out[i] = newPayload(append([]byte(m.name+":"), data...), "marker/"+m.name)
	}
	return out, nil
}

func (m *markerCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		if encodingOf(p) != "marker/"+m.name {
			out[i] = p
			continue
		}
		inner := &commonpb.Payload{}
		if err := proto.Unmarshal(bytes.TrimPrefix(p.Data, []byte(m.name+":")), inner); err != nil {
			return nil, err
		}
		out[i] = inner
	}
	return out, nil
}

func (m *markerCodec) WithSerializationContext(ctx SerializationContext) PayloadCodec {
	return &markerCodec{name: m.name, ctx: ctx}
}

type failingCodec struct{}

var errCodec = errors.New("codec failed")

func (failingCodec) Encode([]*commonpb.Payload) ([]*commonpb.Payload, error) { return nil, errCodec }
func (failingCodec) Decode([]*commonpb.Payload) ([]*commonpb.Payload, error) { return nil, errCodec }

func TestCodecDataConverterAppliesCodecsInOrder(t *testing.T) {
	dc := NewCodecDataConverter(GetDefaultDataConverter(), &markerCodec{name: "outer"}, &markerCodec{name: "inner"})
	p, err := dc.ToPayload("value")
	if err != nil {
		t.Fatal(err)
	}
	// The first codec's encoding is the outermost layer.
	if encodingOf(p) != "marker/outer" {
		t.Errorf("outer encoding = %q", encodingOf(p))
	}
	var s string
	if err := dc.FromPayload(p, &s); err != nil || s != "value" {
		t.Errorf("FromPayload = %q, %v", s, err)
	}
	if got := dc.ToString(p); got != `"value"` {
		t.Errorf("ToString = %q", got)
	}
	ps, err := dc.ToPayloads("a", 1)
	if err != nil || len(ps.Payloads) != 2 || encodingOf(ps.Payloads[1]) != "marker/outer" {
		t.Fatalf("ToPayloads = %v, %v", ps, err)
	}
	var n int
	if err := dc.FromPayloads(ps, &s, &n); err != nil || s != "a" || n != 1 {
		t.Errorf("FromPayloads = %q %d %v", s, n, err)
	}
	if got := dc.ToStrings(ps); len(got) != 2 || got[1] != "1" {
		t.Errorf("ToStrings = %q", got)
	}
	if err := dc.FromPayloads(nil, &s); err != nil {
		t.Errorf("FromPayloads(nil) = %v", err)
	}
}

func TestCodecDataConverterErrors(t *testing.T) {
	dc := NewCodecDataConverter(GetDefaultDataConverter(), failingCodec{})
	if _, err := dc.ToPayload(1); !errors.Is(err, errCodec) {
		t.Errorf("ToPayload: %v", err)
	}
	if _, err := dc.ToPayloads(1); !errors.Is(err, errCodec) {
		t.Errorf("ToPayloads: %v", err)
	}
	var n int
	p := newPayload([]byte("1"), MetadataEncodingJSON)
	if err := dc.FromPayload(p, &n); !errors.Is(err, errCodec) {
		t.Errorf("FromPayload: %v", err)
	}
	if err := dc.FromPayloads(&commonpb.Payloads{Payloads: []*commonpb.Payload{p}}, &n); !errors.Is(err, errCodec) {
		t.Errorf("FromPayloads: %v", err)
	}
	if got := dc.ToString(p); got != errCodec.Error() {
		t.Errorf("ToString = %q", got)
	}
}

func TestCodecDataConverterSerializationContext(t *testing.T) {
	plain := NewCodecDataConverter(GetDefaultDataConverter(), failingCodec{})
	ctx := WorkflowSerializationContext{Namespace: "ns", WorkflowID: "wf"}
	if WithDataConverterSerializationContext(plain, ctx) != plain {
		t.Error("converter without aware parts was replaced")
	}
	aware := NewCodecDataConverter(GetDefaultDataConverter(), &markerCodec{name: "m"})
	got := WithDataConverterSerializationContext(aware, ctx).(*CodecDataConverter)
	if got == aware {
		t.Fatal("aware codec did not get a new converter")
	}
	if codec := got.codecs[0].(*markerCodec); codec.ctx != ctx {
		t.Errorf("codec context = %v", codec.ctx)
	}
	if aware.(*CodecDataConverter).codecs[0].(*markerCodec).ctx != nil {
		t.Error("original codec was changed")
	}
}

func TestZlibCodec(t *testing.T) {
	codec := NewZlibCodec(ZlibCodecOptions{})
	big := newPayload([]byte(strings.Repeat("compressible ", 200)), MetadataEncodingJSON)
	small := newPayload([]byte("1"), MetadataEncodingJSON)
	encoded, err := codec.Encode([]*commonpb.Payload{big, small})
	if err != nil {
		t.Fatal(err)
	}
	if encodingOf(encoded[0]) != "binary/zlib" || len(encoded[0].Data) >= len(big.Data) {
		t.Errorf("big payload not compressed: %v", encoded[0].Metadata)
	}
	if encoded[1] != small {
		t.Error("small payload was compressed although that does not shrink it")
	}
	decoded, err := codec.Decode(encoded)
	if err != nil || !proto.Equal(decoded[0], big) || decoded[1] != small {
		t.Errorf("Decode = %v, %v", decoded, err)
	}

	always := NewZlibCodec(ZlibCodecOptions{AlwaysEncode: true})
	encoded, _ = always.Encode([]*commonpb.Payload{small})
	if encodingOf(encoded[0]) != "binary/zlib" {
		t.Error("AlwaysEncode did not encode")
	}
	corrupt := newPayload([]byte("not zlib"), "binary/zlib")
	if _, err := codec.Decode([]*commonpb.Payload{corrupt}); err == nil {
		t.Error("corrupt zlib data decoded")
	}
}

func TestDefaultConverterBehindZlib(t *testing.T) {
	dc := NewCodecDataConverter(GetDefaultDataConverter(), NewZlibCodec(ZlibCodecOptions{AlwaysEncode: true}))
	in := testStruct{Name: strings.Repeat("x", 100), Count: 3}
	p, err := dc.ToPayload(in)
	if err != nil {
		t.Fatal(err)
	}
	var out testStruct
	if err := dc.FromPayload(p, &out); err != nil || out.Name != in.Name || out.Count != 3 {
		t.Errorf("round trip = %+v, %v", out, err)
	}
}
