package converter

import (
	"encoding/json"

	commonpb "go.temporal.io/api/common/v1"
)

// JSONPayloadConverter encodes any value with encoding/json as json/plain.
// The output is json.Marshal's, without a trailing newline, as other SDKs
// expect.
type JSONPayloadConverter struct{}

// NewJSONPayloadConverter returns a JSONPayloadConverter.
func NewJSONPayloadConverter() *JSONPayloadConverter { return &JSONPayloadConverter{} }

// ToPayload converts value to JSON.
func (c *JSONPayloadConverter) ToPayload(value any) (*commonpb.Payload, error) {
	if data, ok := marshalJSONFast(value); ok {
		return newPayload(data, MetadataEncodingJSON), nil
	}
	data, err := json.Marshal(value)
	if err != nil {
		return nil, encodeError(MetadataEncodingJSON, value, err)
	}
	return newPayload(data, MetadataEncodingJSON), nil
}

// FromPayload decodes JSON into valuePtr with json.Unmarshal.
func (c *JSONPayloadConverter) FromPayload(payload *commonpb.Payload, valuePtr any) error {
	if unmarshalJSONFast(payload.GetData(), valuePtr) {
		return nil
	}
	if err := json.Unmarshal(payload.GetData(), valuePtr); err != nil {
		return newDecodeError(MetadataEncodingJSON, valuePtr, unreadable(err))
	}
	return nil
}

// ToString returns the JSON text.
func (c *JSONPayloadConverter) ToString(payload *commonpb.Payload) string {
	return string(payload.GetData())
}

// Encoding returns MetadataEncodingJSON.
func (c *JSONPayloadConverter) Encoding() string { return MetadataEncodingJSON }
