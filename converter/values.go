package converter

import (
	"errors"

	commonpb "go.temporal.io/api/common/v1"
)

// EncodedValue is one encoded value, such as a workflow result, that the
// caller decodes into a Go value of its choice.
type EncodedValue interface {
	// HasValue reports whether a value is present.
	HasValue() bool
	// Get decodes the value into valuePtr. Decode into a fresh variable:
	// like json.Unmarshal, decoding merges into existing contents.
	Get(valuePtr any) error
}

// EncodedValues is a list of encoded values, such as heartbeat details or
// error details, decoded positionally into Go values.
type EncodedValues interface {
	// HasValues reports whether any value is present.
	HasValues() bool
	// Get decodes the values, in order, into the given pointers. Decode into
	// fresh variables: like json.Unmarshal, decoding merges into existing
	// contents.
	Get(valuePtr ...any) error
}

// ValuesPayloads is implemented by EncodedValue and EncodedValues
// implementations that can hand out their payloads without decoding them.
type ValuesPayloads interface {
	// Payloads returns the payloads as received.
	Payloads() *commonpb.Payloads
}

// GetPayloads returns the payloads behind an EncodedValue or EncodedValues
// if it implements ValuesPayloads, and nil otherwise.
func GetPayloads(encoded any) *commonpb.Payloads {
	if vp, ok := encoded.(ValuesPayloads); ok {
		return vp.Payloads()
	}
	return nil
}

// RawValue holds a payload that is passed through unconverted: a workflow or
// activity parameter or result of this type receives or sends the payload
// itself. Payload codecs still apply to it.
type RawValue struct {
	payload *commonpb.Payload
}

// NewRawValue wraps payload in a RawValue.
func NewRawValue(payload *commonpb.Payload) RawValue {
	return RawValue{payload: payload}
}

// Payload returns the wrapped payload.
func (v RawValue) Payload() *commonpb.Payload { return v.payload }

var errRawValueJSON = errors.New("RawValue is not JSON serializable")

// MarshalJSON always fails: a RawValue must reach a data converter as is,
// never nested inside another value.
func (v RawValue) MarshalJSON() ([]byte, error) { return nil, errRawValueJSON }

// UnmarshalJSON always fails, for the same reason as MarshalJSON.
func (v *RawValue) UnmarshalJSON([]byte) error { return errRawValueJSON }
