package compat

import (
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	official "go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"

	ours "github.com/durable-go/sdk/converter"
)

// tagCodec marks each payload it encodes with its tag, in the metadata, so
// the order of codecs shows in what they write. Its methods satisfy both
// SDKs' PayloadCodec.
type tagCodec struct{ tag string }

func (c tagCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		data, err := proto.Marshal(p)
		if err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/" + c.tag)}, Data: data}
	}
	return out, nil
}

func (c tagCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()["encoding"]) != "binary/"+c.tag {
			out[i] = p
			continue
		}
		out[i] = &commonpb.Payload{}
		if err := proto.Unmarshal(p.GetData(), out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// TestCodecOfACodecDataConverterIsItsCodecsInOrder: the Codec of nested
// codec data converters (go.temporal.io/sdk v1.51's PayloadCodecProvider)
// encodes what the default converter made as the converter itself does,
// on both SDKs, and decodes it back; a converter without codecs has none.
func TestCodecOfACodecDataConverterIsItsCodecsInOrder(t *testing.T) {
	value := strings.Repeat("codec me ", 20)
	oursDC := ours.NewCodecDataConverter(
		ours.NewCodecDataConverter(ours.GetDefaultDataConverter(), tagCodec{"inner"}, ours.NewZlibCodec(ours.ZlibCodecOptions{AlwaysEncode: true})),
		tagCodec{"outer"})
	officialDC := official.NewCodecDataConverter(
		official.NewCodecDataConverter(official.GetDefaultDataConverter(), tagCodec{"inner"}, official.NewZlibCodec(official.ZlibCodecOptions{AlwaysEncode: true})),
		tagCodec{"outer"})

	plain, err := ours.GetDefaultDataConverter().ToPayloads(value)
	if err != nil {
		t.Fatal(err)
	}
	oursCodec := oursDC.(ours.PayloadCodecProvider).Codec()
	officialCodec := officialDC.(official.PayloadCodecProvider).Codec()
	mine, err := oursCodec.Encode(plain.GetPayloads())
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := officialCodec.Encode(plain.GetPayloads())
	if err != nil {
		t.Fatal(err)
	}
	viaConverter, err := oursDC.ToPayloads(value)
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(mine[0], theirs[0]) || !proto.Equal(mine[0], viaConverter.GetPayloads()[0]) {
		t.Errorf("the codecs encode differently: ours %v, official %v, our converter %v", mine[0], theirs[0], viaConverter.GetPayloads()[0])
	}
	if got := string(mine[0].GetMetadata()["encoding"]); got != "binary/outer" {
		t.Errorf("the outermost encoding is %q, want the outer converter's codec", got)
	}
	back, err := officialCodec.Decode(mine)
	if err != nil || !proto.Equal(back[0], plain.GetPayloads()[0]) {
		t.Errorf("the official codec decoding ours: %v, %v", back, err)
	}
	back, err = oursCodec.Decode(theirs)
	if err != nil || !proto.Equal(back[0], plain.GetPayloads()[0]) {
		t.Errorf("our codec decoding the official one's: %v, %v", back, err)
	}

	if c := ours.NewCodecDataConverter(ours.GetDefaultDataConverter()).(ours.PayloadCodecProvider).Codec(); c != nil {
		t.Errorf("our converter without codecs has codec %v", c)
	}
	if c := official.NewCodecDataConverter(official.GetDefaultDataConverter()).(official.PayloadCodecProvider).Codec(); c != nil {
		t.Errorf("the official converter without codecs has codec %v", c)
	}
}
