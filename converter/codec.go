package converter

import (
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
)

// PayloadCodec transforms already-encoded payloads, for example to compress
// or encrypt them. Codecs run after a DataConverter has produced payloads and
// before one reads them.
//
// Codecs may run while a workflow task is processed, where an error can fail
// the workflow execution; handle transient failures inside the codec, or
// return a WorkflowTaskFailureError to fail the workflow task instead, which
// the server retries.
type PayloadCodec interface {
	// Encode transforms payloads, none of them nil, without mutating them.
	Encode([]*commonpb.Payload) ([]*commonpb.Payload, error)
	// Decode undoes Encode, without mutating its input. It must pass
	// through payloads it did not encode, as old histories hold such.
	Decode([]*commonpb.Payload) ([]*commonpb.Payload, error)
}

// encodeWithCodecs applies codecs last to first, so the first codec's
// encoding is the outermost layer.
func encodeWithCodecs(codecs []PayloadCodec, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	var err error
	for i := len(codecs) - 1; i >= 0; i-- {
		if payloads, err = codecs[i].Encode(payloads); err != nil {
			return nil, markTaskFailure(err)
		}
	}
	return payloads, nil
}

// decodeWithCodecs applies codecs first to last, peeling the layers that
// encodeWithCodecs added.
func decodeWithCodecs(codecs []PayloadCodec, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	var err error
	for _, codec := range codecs {
		if payloads, err = codec.Decode(payloads); err != nil {
			return nil, markTaskFailure(err)
		}
	}
	return payloads, nil
}

// CodecDataConverter runs a parent DataConverter and passes its payloads
// through a chain of codecs.
type CodecDataConverter struct {
	parent DataConverter
	codecs []PayloadCodec
}

// NewCodecDataConverter wraps parent with codecs. Encoding applies the codecs
// last to first, so earlier codecs wrap later ones; decoding (including for
// ToString) applies them first to last.
func NewCodecDataConverter(parent DataConverter, codecs ...PayloadCodec) DataConverter {
	return &CodecDataConverter{parent: parent, codecs: codecs}
}

// encodeOne runs one payload through the codecs.
func (c *CodecDataConverter) encodeOne(payload *commonpb.Payload) (*commonpb.Payload, error) {
	encoded, err := encodeWithCodecs(c.codecs, []*commonpb.Payload{payload})
	if err != nil {
		return nil, err
	}
	if len(encoded) != 1 {
		return nil, fmt.Errorf("payload codecs returned %d payloads for 1", len(encoded))
	}
	return encoded[0], nil
}

// decodeOne runs one payload back through the codecs.
func (c *CodecDataConverter) decodeOne(payload *commonpb.Payload) (*commonpb.Payload, error) {
	decoded, err := decodeWithCodecs(c.codecs, []*commonpb.Payload{payload})
	if err != nil {
		return nil, err
	}
	if len(decoded) != 1 {
		return nil, fmt.Errorf("payload codecs returned %d payloads for 1", len(decoded))
	}
	return decoded[0], nil
}

// ToPayload converts value with the parent, then encodes the result.
func (c *CodecDataConverter) ToPayload(value any) (*commonpb.Payload, error) {
	payload, err := c.parent.ToPayload(value)
	if payload == nil || err != nil {
		return payload, err
	}
	return c.encodeOne(payload)
}

// ToPayloads converts values with the parent, then encodes all payloads in
// one codec call.
func (c *CodecDataConverter) ToPayloads(values ...any) (*commonpb.Payloads, error) {
	payloads, err := c.parent.ToPayloads(values...)
	if payloads == nil || err != nil {
		return payloads, err
	}
	encoded, err := encodeWithCodecs(c.codecs, payloads.Payloads)
	if err != nil {
		return nil, err
	}
	return &commonpb.Payloads{Payloads: encoded}, nil
}

// FromPayload decodes payload through the codecs, then with the parent.
func (c *CodecDataConverter) FromPayload(payload *commonpb.Payload, valuePtr any) error {
	if payload == nil {
		return nil
	}
	decoded, err := c.decodeOne(payload)
	if err != nil {
		return err
	}
	return c.parent.FromPayload(decoded, valuePtr)
}

// FromPayloads decodes payloads through the codecs in one call, then with
// the parent.
func (c *CodecDataConverter) FromPayloads(payloads *commonpb.Payloads, valuePtrs ...any) error {
	if payloads == nil {
		return c.parent.FromPayloads(nil, valuePtrs...)
	}
	decoded, err := decodeWithCodecs(c.codecs, payloads.Payloads)
	if err != nil {
		return err
	}
	return c.parent.FromPayloads(&commonpb.Payloads{Payloads: decoded}, valuePtrs...)
}

// ToString decodes payload through the codecs and renders it with the
// parent, or returns the decoding error's text.
func (c *CodecDataConverter) ToString(payload *commonpb.Payload) string {
	if payload == nil {
		return c.parent.ToString(nil)
	}
	decoded, err := c.decodeOne(payload)
	if err != nil {
		return err.Error()
	}
	return c.parent.ToString(decoded)
}

// ToStrings renders payloads one at a time, so one bad payload does not
// hide the others.
func (c *CodecDataConverter) ToStrings(payloads *commonpb.Payloads) []string {
	return toStringsWith(c, payloads)
}

// WithSerializationContext passes ctx to the parent and to every codec that
// accepts it; it returns c itself when none does.
func (c *CodecDataConverter) WithSerializationContext(ctx SerializationContext) DataConverter {
	parent := WithDataConverterSerializationContext(c.parent, ctx)
	codecs, changed := codecsWithContext(c.codecs, ctx)
	if !changed && parent == c.parent {
		return c
	}
	return &CodecDataConverter{parent: parent, codecs: codecs}
}

// codecsWithContext gives ctx to each codec that takes one, and reports
// whether any of them changed.
func codecsWithContext(codecs []PayloadCodec, ctx SerializationContext) ([]PayloadCodec, bool) {
	bound := make([]PayloadCodec, len(codecs))
	changed := false
	for i, codec := range codecs {
		bound[i] = codec
		if aware, ok := codec.(PayloadCodecWithSerializationContext); ok {
			bound[i] = aware.WithSerializationContext(ctx)
			changed = changed || bound[i] != codec
		}
	}
	return bound, changed
}
