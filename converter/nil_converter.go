package converter

import (
	"fmt"
	"reflect"

	commonpb "go.temporal.io/api/common/v1"
)

// NilPayloadConverter encodes nil (and nil pointers) as a binary/null payload
// without data, and decodes such a payload as the zero value of the target.
type NilPayloadConverter struct{}

// NewNilPayloadConverter returns a NilPayloadConverter.
func NewNilPayloadConverter() *NilPayloadConverter { return &NilPayloadConverter{} }

// ToPayload converts nil values and returns nil for anything else.
func (c *NilPayloadConverter) ToPayload(value any) (*commonpb.Payload, error) {
	if isNilValue(value) {
		return newPayload(nil, MetadataEncodingNil), nil
	}
	return nil, nil
}

// FromPayload sets the target to its zero value.
func (c *NilPayloadConverter) FromPayload(_ *commonpb.Payload, valuePtr any) error {
	target, err := settableTarget(valuePtr)
	if err != nil {
		return newDecodeError(MetadataEncodingNil, valuePtr, err)
	}
	target.SetZero()
	return nil
}

// ToString returns "nil".
func (c *NilPayloadConverter) ToString(*commonpb.Payload) string { return "nil" }

// Encoding returns MetadataEncodingNil.
func (c *NilPayloadConverter) Encoding() string { return MetadataEncodingNil }

// isNilValue reports an untyped nil or a nil pointer; the SDKs encode both as
// binary/null.
func isNilValue(value any) bool {
	if value == nil {
		return true
	}
	v := reflect.ValueOf(value)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// settableTarget returns what valuePtr points to, or why it cannot be set.
func settableTarget(valuePtr any) (reflect.Value, error) {
	v := reflect.ValueOf(valuePtr)
	if v.Kind() != reflect.Pointer {
		return reflect.Value{}, fmt.Errorf("type %T: %w", valuePtr, ErrValuePtrIsNotPointer)
	}
	if v.IsNil() {
		return reflect.Value{}, fmt.Errorf("nil %T: %w", valuePtr, ErrUnableToSetValue)
	}
	return v.Elem(), nil
}
