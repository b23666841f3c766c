package failure

import (
	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
)

// EncodedValue is a result still in payloads, decoded on demand with the
// data converter it came with: activity, child and side effect results,
// signals, as workflow code and the test environment's listeners get
// them. It implements converter.EncodedValue; EncodedValues is its
// counterpart for a list of values.
type EncodedValue struct {
	payloads *commonpb.Payloads
	dc       converter.DataConverter
}

// NewEncodedValue wraps payloads p, to be decoded with dc.
func NewEncodedValue(p *commonpb.Payloads, dc converter.DataConverter) *EncodedValue {
	return &EncodedValue{payloads: p, dc: dc}
}

// HasValue reports whether there is a value to decode.
func (v *EncodedValue) HasValue() bool { return v != nil && len(v.payloads.GetPayloads()) > 0 }

// Get decodes the value into valuePtr.
func (v *EncodedValue) Get(valuePtr any) error {
	if !v.HasValue() {
		return ErrNoData
	}
	return v.dc.FromPayloads(v.payloads, valuePtr)
}

var _ converter.EncodedValue = (*EncodedValue)(nil)
