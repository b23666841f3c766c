package converter

import commonpb "go.temporal.io/api/common/v1"

// PayloadCodecProvider is a DataConverter that can hand out the codec
// stage of its conversion alone: the codecs that turn encoded payloads
// into the bytes stored in a history and back, without converting values.
// A codec server, or code that must encode payloads some other converter
// made, gets it with a type assertion:
//
//	if p, ok := dc.(converter.PayloadCodecProvider); ok {
//		codec := p.Codec() // nil: dc has no codecs
//	}
//
// CodecDataConverter is one. A converter that wraps another must forward
// Codec itself for its codecs to be found; values are never converted to
// discover them.
type PayloadCodecProvider interface {
	// Codec returns the converter's codecs as one PayloadCodec, or nil
	// when it has none.
	Codec() PayloadCodec
}

var _ PayloadCodecProvider = (*CodecDataConverter)(nil)

// Codec returns c's codecs and those of the converters it wraps (nested
// CodecDataConverters, or a parent that is a PayloadCodecProvider) as one
// PayloadCodec: its Encode does what ToPayloads does to the payloads the
// innermost converter made, its Decode what FromPayloads undoes. It is nil
// when there are no codecs. A codec that takes a serialization context
// (PayloadCodecWithSerializationContext) gets it through the returned
// codec's WithSerializationContext.
func (c *CodecDataConverter) Codec() PayloadCodec {
	var stages []PayloadCodec
	for {
		stages = append(stages, c.codecs...)
		parent, nested := c.parent.(*CodecDataConverter)
		if !nested {
			break
		}
		c = parent
	}
	if provider, ok := c.parent.(PayloadCodecProvider); ok {
		if codec := provider.Codec(); codec != nil {
			stages = append(stages, codec)
		}
	}
	if len(stages) == 0 {
		return nil
	}
	return &codecChain{stages: stages}
}

// codecChain is codecs applied as a CodecDataConverter applies them, the
// first one outermost. It is a pointer type so that codecs stay
// comparable (CodecDataConverter.WithSerializationContext compares them).
type codecChain struct{ stages []PayloadCodec }

// Encode applies the stages last to first.
func (c *codecChain) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	return encodeWithCodecs(c.stages, payloads)
}

// Decode applies the stages first to last.
func (c *codecChain) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	return decodeWithCodecs(c.stages, payloads)
}

// WithSerializationContext gives ctx to each stage that takes one.
func (c *codecChain) WithSerializationContext(ctx SerializationContext) PayloadCodec {
	stages, changed := codecsWithContext(c.stages, ctx)
	if !changed {
		return c
	}
	return &codecChain{stages: stages}
}
