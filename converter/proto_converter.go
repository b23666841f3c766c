package converter

import (
	"encoding/base64"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
)

// ProtoPayloadConverter encodes proto messages in binary wire form, with the
// binary/protobuf encoding and the message's full name under "messageType".
type ProtoPayloadConverter struct {
	options ProtoPayloadConverterOptions
}

// ProtoPayloadConverterOptions configures NewProtoPayloadConverterWithOptions.
type ProtoPayloadConverterOptions struct {
	// ExcludeProtobufMessageTypes leaves the "messageType" metadata out.
	ExcludeProtobufMessageTypes bool
}

// NewProtoPayloadConverter returns a converter with default options.
func NewProtoPayloadConverter() *ProtoPayloadConverter { return &ProtoPayloadConverter{} }

// NewProtoPayloadConverterWithOptions returns a converter with the given options.
func NewProtoPayloadConverterWithOptions(options ProtoPayloadConverterOptions) *ProtoPayloadConverter {
	return &ProtoPayloadConverter{options: options}
}

// Deterministic marshaling orders map entries, so equal messages give equal
// payloads (which replay comparisons rely on); without maps it changes nothing.
var protoMarshal = proto.MarshalOptions{Deterministic: true}

// ToPayload converts a proto message and returns nil for anything else.
func (c *ProtoPayloadConverter) ToPayload(value any) (*commonpb.Payload, error) {
	m, ok := asProtoMessage(value)
	if !ok {
		return nil, nil
	}
	data, err := protoMarshal.Marshal(m)
	if err != nil {
		return nil, encodeError(MetadataEncodingProto, value, err)
	}
	return newProtoPayload(data, MetadataEncodingProto, m, c.options.ExcludeProtobufMessageTypes), nil
}

// FromPayload decodes wire-form bytes into a *Msg or **Msg target.
func (c *ProtoPayloadConverter) FromPayload(payload *commonpb.Payload, valuePtr any) error {
	m, err := protoTarget(valuePtr)
	if err != nil {
		return newDecodeError(MetadataEncodingProto, valuePtr, err)
	}
	if err := proto.Unmarshal(payload.GetData(), m); err != nil {
		return newDecodeError(MetadataEncodingProto, valuePtr, unreadable(err))
	}
	return nil
}

// ToString returns the data in unpadded standard base64; the bytes cannot be
// read without the message definition.
func (c *ProtoPayloadConverter) ToString(payload *commonpb.Payload) string {
	return base64.RawStdEncoding.EncodeToString(payload.GetData())
}

// Encoding returns MetadataEncodingProto.
func (c *ProtoPayloadConverter) Encoding() string { return MetadataEncodingProto }

// ExcludeProtobufMessageTypes reports whether "messageType" is left out.
func (c *ProtoPayloadConverter) ExcludeProtobufMessageTypes() bool {
	return c.options.ExcludeProtobufMessageTypes
}
