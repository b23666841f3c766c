package converter

import (
	"testing"

	commonpb "go.temporal.io/api/common/v1"
)

// workflowTagCodec writes the workflow ID of its serialization context
// into each payload's metadata; without a context it writes "none".
type workflowTagCodec struct{ workflowID string }

func (c *workflowTagCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		out[i] = &commonpb.Payload{Metadata: map[string][]byte{"workflow": []byte(c.workflowID)}, Data: p.GetData()}
		for k, v := range p.GetMetadata() {
			out[i].Metadata[k] = v
		}
	}
	return out, nil
}

func (c *workflowTagCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	return payloads, nil
}

func (c *workflowTagCodec) WithSerializationContext(ctx SerializationContext) PayloadCodec {
	if w, ok := ctx.(WorkflowSerializationContext); ok {
		return &workflowTagCodec{workflowID: w.WorkflowID}
	}
	return c
}

func TestCodecTakesASerializationContextToEachStage(t *testing.T) {
	dc := NewCodecDataConverter(NewCodecDataConverter(GetDefaultDataConverter(), &workflowTagCodec{"none"}), NewZlibCodec(ZlibCodecOptions{}))
	codec := dc.(PayloadCodecProvider).Codec()
	bound := codec.(PayloadCodecWithSerializationContext).WithSerializationContext(WorkflowSerializationContext{Namespace: "default", WorkflowID: "order-7"})
	p, err := GetDefaultDataConverter().ToPayload("x")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		codec PayloadCodec
		want  string
	}{{codec, "none"}, {bound, "order-7"}} {
		out, err := c.codec.Encode([]*commonpb.Payload{p})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(out[0].GetMetadata()["workflow"]); got != c.want {
			t.Errorf("the inner stage wrote workflow %q, want %q", got, c.want)
		}
	}

	// A codec from Codec, used as a stage of another converter, takes its
	// context there too (and is comparable, as the converter needs).
	again := NewCodecDataConverter(GetDefaultDataConverter(), codec)
	contextual := WithDataConverterSerializationContext(again, WorkflowSerializationContext{WorkflowID: "order-8"})
	out, err := contextual.ToPayload("x")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out.GetMetadata()["workflow"]); got != "order-8" {
		t.Errorf("through a converter, the stage wrote workflow %q, want order-8", got)
	}
}
