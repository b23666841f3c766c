package converter

import (
	commonpb "go.temporal.io/api/common/v1"
)

// DataConverter converts Go values to payloads and back. The SDK uses one
// for everything it sends or receives; set it in the client options, or per
// activity or child workflow through the workflow context.
type DataConverter interface {
	// ToPayload converts one value. A RawValue is returned as its payload.
	ToPayload(value any) (*commonpb.Payload, error)
	// FromPayload decodes one payload into valuePtr. A *RawValue receives
	// the payload itself.
	FromPayload(payload *commonpb.Payload, valuePtr any) error
	// ToPayloads converts a list of values, such as function arguments.
	ToPayloads(value ...any) (*commonpb.Payloads, error)
	// FromPayloads decodes payloads positionally into valuePtrs; surplus
	// payloads or pointers are left alone.
	FromPayloads(payloads *commonpb.Payloads, valuePtrs ...any) error
	// ToString renders a payload for people, for logs and tools.
	ToString(input *commonpb.Payload) string
	// ToStrings renders each payload with ToString.
	ToStrings(input *commonpb.Payloads) []string
}

// PayloadConverter converts values of the kinds it knows to payloads of one
// encoding, and payloads of that encoding back.
type PayloadConverter interface {
	// ToPayload converts value, or returns nil and no error when the value
	// is not of a kind this converter handles.
	ToPayload(value any) (*commonpb.Payload, error)
	// FromPayload decodes a payload of this converter's encoding into valuePtr.
	FromPayload(payload *commonpb.Payload, valuePtr any) error
	// ToString renders a payload of this encoding for people.
	ToString(*commonpb.Payload) string
	// Encoding is the value of the "encoding" metadata key this converter
	// writes and reads.
	Encoding() string
}

// newPayload builds a payload carrying data under the given encoding.
func newPayload(data []byte, encoding string) *commonpb.Payload {
	return &commonpb.Payload{
		Metadata: map[string][]byte{MetadataEncoding: []byte(encoding)},
		Data:     data,
	}
}
