package internal

import (
	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
)

// encodedValue is a result still in payloads, decoded on demand with the
// data converter it came with: activity and side effect results, signals,
// query answers. It implements converter.EncodedValue.
type encodedValue struct {
	payloads *commonpb.Payloads
	dc       converter.DataConverter
}

func newEncodedValue(p *commonpb.Payloads, dc converter.DataConverter) *encodedValue {
	return &encodedValue{payloads: p, dc: dc}
}

// HasValue reports whether there is a value to decode.
func (v *encodedValue) HasValue() bool { return v != nil && len(v.payloads.GetPayloads()) > 0 }

// Get decodes the value into valuePtr.
func (v *encodedValue) Get(valuePtr any) error {
	if !v.HasValue() {
		return failure.ErrNoData
	}
	return v.dc.FromPayloads(v.payloads, valuePtr)
}

var _ converter.EncodedValue = (*encodedValue)(nil)
