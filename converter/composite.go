package converter

import (
	"fmt"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal/extstore"
)

// CompositeDataConverter tries its payload converters in order when
// encoding, and picks the converter by the payload's encoding when decoding.
type CompositeDataConverter struct {
	ordered    []PayloadConverter
	byEncoding map[string]PayloadConverter
}

// NewCompositeDataConverter returns a DataConverter over the given payload
// converters. Encoding uses the first converter that accepts a value, so the
// last should accept everything (JSONPayloadConverter does). When two
// converters share an encoding, the later one decodes it.
func NewCompositeDataConverter(payloadConverters ...PayloadConverter) DataConverter {
	dc := &CompositeDataConverter{
		ordered:    payloadConverters,
		byEncoding: make(map[string]PayloadConverter, len(payloadConverters)),
	}
	for _, pc := range payloadConverters {
		dc.byEncoding[pc.Encoding()] = pc
	}
	return dc
}

// ToPayload converts value with the first payload converter that accepts
// it; a value with a transfer type converter, its transfer value.
func (dc *CompositeDataConverter) ToPayload(value any) (*commonpb.Payload, error) {
	if raw, ok := value.(RawValue); ok {
		return raw.Payload(), nil
	}
	if _, ok := value.(ValueWithTransferTypeConverter); ok {
		transfer, err := toTransferValue(value)
		if err != nil {
			return nil, err
		}
		value = transfer
	}
	for _, pc := range dc.ordered {
		payload, err := pc.ToPayload(value)
		if err != nil {
			return nil, err
		}
		if payload != nil {
			return payload, nil
		}
	}
	return nil, fmt.Errorf("value of type %T: %w", value, ErrUnableToFindConverter)
}

// FromPayload decodes payload with the converter of its encoding, into a
// transfer value first when valuePtr's type has a transfer type
// converter. A nil payload leaves valuePtr untouched.
func (dc *CompositeDataConverter) FromPayload(payload *commonpb.Payload, valuePtr any) error {
	if payload == nil {
		return nil
	}
	if raw, ok := valuePtr.(*RawValue); ok {
		*raw = NewRawValue(payload)
		return nil
	}
	if convertible, ok := valuePtr.(ValueWithTransferTypeConverter); ok {
		return fromTransferValue(convertible, func(transferPtr any) error { return dc.fromPayload(payload, transferPtr) })
	}
	return dc.fromPayload(payload, valuePtr)
}

// fromPayload is FromPayload past the raw and transfer values.
func (dc *CompositeDataConverter) fromPayload(payload *commonpb.Payload, valuePtr any) error {
	encoding, err := payloadEncoding(payload)
	if err != nil {
		return newDecodeError(encoding, valuePtr, err)
	}
	if encoding == MetadataEncodingProtoJSON && extstore.IsReference(payload) {
		// Stored outside the history, and not retrieved: the reader has
		// no external storage.
		return extstore.MissingStorage(payload)
	}
	pc, ok := dc.byEncoding[encoding]
	if !ok {
		return newDecodeError(encoding, valuePtr, ErrEncodingIsNotSupported)
	}
	if err := pc.FromPayload(payload, valuePtr); err != nil {
		return asDecodeError(encoding, valuePtr, err)
	}
	return nil
}

// ToPayloads converts each value; no values give nil.
func (dc *CompositeDataConverter) ToPayloads(values ...any) (*commonpb.Payloads, error) {
	return toPayloadsWith(dc, values)
}

// FromPayloads decodes payloads positionally into valuePtrs.
func (dc *CompositeDataConverter) FromPayloads(payloads *commonpb.Payloads, valuePtrs ...any) error {
	return fromPayloadsWith(dc, payloads, valuePtrs)
}

// ToString renders payload with the converter of its encoding, or says why
// it cannot.
func (dc *CompositeDataConverter) ToString(payload *commonpb.Payload) string {
	if payload == nil {
		return ""
	}
	encoding, err := payloadEncoding(payload)
	if err != nil {
		return err.Error()
	}
	pc, ok := dc.byEncoding[encoding]
	if !ok {
		return fmt.Errorf("encoding %q: %w", encoding, ErrEncodingIsNotSupported).Error()
	}
	return pc.ToString(payload)
}

// ToStrings renders each payload with ToString.
func (dc *CompositeDataConverter) ToStrings(payloads *commonpb.Payloads) []string {
	return toStringsWith(dc, payloads)
}

// payloadEncoding reads the encoding metadata of a payload.
func payloadEncoding(payload *commonpb.Payload) (string, error) {
	metadata := payload.GetMetadata()
	if metadata == nil {
		return "", ErrMetadataIsNotSet
	}
	encoding, ok := metadata[MetadataEncoding]
	if !ok {
		return "", ErrEncodingIsNotSet
	}
	return encodingName(encoding), nil
}

// encodingName is encoding as a string, the constant for the package's
// own encodings: decoding a payload then allocates no copy of its name.
func encodingName(encoding []byte) string {
	switch string(encoding) {
	case MetadataEncodingJSON:
		return MetadataEncodingJSON
	case MetadataEncodingNil:
		return MetadataEncodingNil
	case MetadataEncodingBinary:
		return MetadataEncodingBinary
	case MetadataEncodingProtoJSON:
		return MetadataEncodingProtoJSON
	case MetadataEncodingProto:
		return MetadataEncodingProto
	}
	return string(encoding)
}

// toPayloadsWith converts values one by one with dc.ToPayload, so wrappers
// that only change ToPayload (codecs) get list conversion for free.
func toPayloadsWith(dc DataConverter, values []any) (*commonpb.Payloads, error) {
	if len(values) == 0 {
		return nil, nil
	}
	result := &commonpb.Payloads{Payloads: make([]*commonpb.Payload, len(values))}
	for i, value := range values {
		payload, err := dc.ToPayload(value)
		if err != nil {
			return nil, fmt.Errorf("values[%d]: %w", i, err)
		}
		result.Payloads[i] = payload
	}
	return result, nil
}

// fromPayloadsWith decodes payloads positionally with dc.FromPayload.
func fromPayloadsWith(dc DataConverter, payloads *commonpb.Payloads, valuePtrs []any) error {
	for i, payload := range payloads.GetPayloads() {
		if i >= len(valuePtrs) {
			break
		}
		if err := dc.FromPayload(payload, valuePtrs[i]); err != nil {
			return fmt.Errorf("payload item %d: %w", i, err)
		}
	}
	return nil
}

// toStringsWith renders payloads one by one with dc.ToString.
func toStringsWith(dc DataConverter, payloads *commonpb.Payloads) []string {
	if payloads == nil {
		return nil
	}
	result := make([]string, len(payloads.GetPayloads()))
	for i, payload := range payloads.GetPayloads() {
		result[i] = dc.ToString(payload)
	}
	return result
}
