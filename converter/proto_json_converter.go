package converter

import (
	"bytes"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/temporalproto"
	"google.golang.org/protobuf/encoding/protojson"
)

// ProtoJSONPayloadConverter encodes proto messages as protojson, with the
// json/protobuf encoding and the message's full name under "messageType".
type ProtoJSONPayloadConverter struct {
	marshal   protojson.MarshalOptions
	unmarshal protojson.UnmarshalOptions
	legacy    temporalproto.CustomJSONUnmarshalOptions
	options   ProtoJSONPayloadConverterOptions
}

// ProtoJSONPayloadConverterOptions configures NewProtoJSONPayloadConverterWithOptions.
type ProtoJSONPayloadConverterOptions struct {
	// ExcludeProtobufMessageTypes leaves the "messageType" metadata out.
	ExcludeProtobufMessageTypes bool
	// AllowUnknownFields ignores unknown JSON fields when decoding instead
	// of failing.
	AllowUnknownFields bool
	// UseProtoNames writes proto field names instead of lowerCamelCase names.
	UseProtoNames bool
	// UseEnumNumbers writes enum values as numbers.
	UseEnumNumbers bool
	// EmitUnpopulated writes fields that hold their zero value.
	EmitUnpopulated bool
	// LegacyTemporalProtoCompat also accepts enum values written in
	// SCREAMING_SNAKE_CASE by older gogo-based Temporal protos.
	LegacyTemporalProtoCompat bool
}

// NewProtoJSONPayloadConverter returns a converter with default options.
func NewProtoJSONPayloadConverter() *ProtoJSONPayloadConverter {
	return NewProtoJSONPayloadConverterWithOptions(ProtoJSONPayloadConverterOptions{})
}

// NewProtoJSONPayloadConverterWithOptions returns a converter with the given options.
func NewProtoJSONPayloadConverterWithOptions(options ProtoJSONPayloadConverterOptions) *ProtoJSONPayloadConverter {
	return &ProtoJSONPayloadConverter{
		marshal: protojson.MarshalOptions{
			UseProtoNames:   options.UseProtoNames,
			UseEnumNumbers:  options.UseEnumNumbers,
			EmitUnpopulated: options.EmitUnpopulated,
		},
		unmarshal: protojson.UnmarshalOptions{DiscardUnknown: options.AllowUnknownFields},
		legacy:    temporalproto.CustomJSONUnmarshalOptions{DiscardUnknown: options.AllowUnknownFields},
		options:   options,
	}
}

var jsonNull = []byte("null")

// ToPayload converts a proto message and returns nil for anything else.
// Used on its own, it encodes nil as JSON null.
func (c *ProtoJSONPayloadConverter) ToPayload(value any) (*commonpb.Payload, error) {
	if isNilValue(value) {
		return newPayload(jsonNull, MetadataEncodingProtoJSON), nil
	}
	m, ok := asProtoMessage(value)
	if !ok {
		return nil, nil
	}
	data, err := c.marshal.Marshal(m)
	if err != nil {
		return nil, encodeError(MetadataEncodingProtoJSON, value, err)
	}
	return newProtoPayload(data, MetadataEncodingProtoJSON, m, c.options.ExcludeProtobufMessageTypes), nil
}

// FromPayload decodes protojson into a *Msg or **Msg target. JSON null sets
// the target to its zero value.
func (c *ProtoJSONPayloadConverter) FromPayload(payload *commonpb.Payload, valuePtr any) error {
	if bytes.Equal(payload.GetData(), jsonNull) {
		target, err := settableTarget(valuePtr)
		if err != nil {
			return newDecodeError(MetadataEncodingProtoJSON, valuePtr, err)
		}
		target.SetZero()
		return nil
	}
	m, err := protoTarget(valuePtr)
	if err != nil {
		return newDecodeError(MetadataEncodingProtoJSON, valuePtr, err)
	}
	if c.options.LegacyTemporalProtoCompat {
		err = c.legacy.Unmarshal(payload.GetData(), m)
	} else {
		err = c.unmarshal.Unmarshal(payload.GetData(), m)
	}
	if err != nil {
		return newDecodeError(MetadataEncodingProtoJSON, valuePtr, unreadable(err))
	}
	return nil
}

// ToString returns the JSON text.
func (c *ProtoJSONPayloadConverter) ToString(payload *commonpb.Payload) string {
	return string(payload.GetData())
}

// Encoding returns MetadataEncodingProtoJSON.
func (c *ProtoJSONPayloadConverter) Encoding() string { return MetadataEncodingProtoJSON }

// ExcludeProtobufMessageTypes reports whether "messageType" is left out.
func (c *ProtoJSONPayloadConverter) ExcludeProtobufMessageTypes() bool {
	return c.options.ExcludeProtobufMessageTypes
}
