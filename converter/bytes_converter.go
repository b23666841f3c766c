package converter

import (
	"encoding/base64"
	"fmt"
	"reflect"

	commonpb "go.temporal.io/api/common/v1"
)

// ByteSlicePayloadConverter passes []byte values through as binary/plain
// payload data.
type ByteSlicePayloadConverter struct{}

// NewByteSlicePayloadConverter returns a ByteSlicePayloadConverter.
func NewByteSlicePayloadConverter() *ByteSlicePayloadConverter {
	return &ByteSlicePayloadConverter{}
}

// ToPayload converts a []byte and returns nil for anything else.
func (c *ByteSlicePayloadConverter) ToPayload(value any) (*commonpb.Payload, error) {
	if b, ok := value.([]byte); ok {
		return newPayload(b, MetadataEncodingBinary), nil
	}
	return nil, nil
}

var byteSliceType = reflect.TypeFor[[]byte]()

// FromPayload stores the payload data in a byte slice, or in an interface
// that can hold one. The data is not copied.
func (c *ByteSlicePayloadConverter) FromPayload(payload *commonpb.Payload, valuePtr any) error {
	target, err := settableTarget(valuePtr)
	if err != nil {
		return newDecodeError(MetadataEncodingBinary, valuePtr, err)
	}
	data := payload.GetData()
	switch {
	case target.Kind() == reflect.Interface && byteSliceType.AssignableTo(target.Type()):
		target.Set(reflect.ValueOf(data))
	case target.Kind() == reflect.Slice && target.Type().Elem().Kind() == reflect.Uint8:
		target.SetBytes(data)
	default:
		return newDecodeError(MetadataEncodingBinary, valuePtr, fmt.Errorf("type %T: %w", valuePtr, ErrTypeIsNotByteSlice))
	}
	return nil
}

// ToString returns the data in unpadded standard base64.
func (c *ByteSlicePayloadConverter) ToString(payload *commonpb.Payload) string {
	return base64.RawStdEncoding.EncodeToString(payload.GetData())
}

// Encoding returns MetadataEncodingBinary.
func (c *ByteSlicePayloadConverter) Encoding() string { return MetadataEncodingBinary }
