package failure

import (
	"fmt"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/codecfail"
)

// EncodedValue is a result still in payloads, decoded on demand with the
// data converter it came with: activity, child and side effect results,
// signals, as workflow code and the test environment's listeners get
// them. It implements converter.EncodedValue; EncodedValues is its
// counterpart for a list of values.
type EncodedValue struct {
	payloads *commonpb.Payloads
	dc       converter.DataConverter
	// resultOf names the call whose result this is ("activity \"Greet\""),
	// for a result whose decoding a payload codec may fail the workflow
	// task for (NewCallResult).
	resultKind, resultOf string
}

// NewEncodedValue wraps payloads p, to be decoded with dc.
func NewEncodedValue(p *commonpb.Payloads, dc converter.DataConverter) *EncodedValue {
	return &EncodedValue{payloads: p, dc: dc}
}

// NewCallResult wraps the result of a call workflow code made (kind is
// "activity", "local activity" or "child workflow", name its type): when
// a payload codec asks to fail the workflow task as Future.Get decodes it
// (converter.WorkflowTaskFailureError), Get panics for the engine to fail
// the task, so that the workflow cannot take it for the call's error.
func NewCallResult(p *commonpb.Payloads, dc converter.DataConverter, kind, name string) *EncodedValue {
	return &EncodedValue{payloads: p, dc: dc, resultKind: kind, resultOf: name}
}

// HasValue reports whether there is a value to decode.
func (v *EncodedValue) HasValue() bool { return v != nil && len(v.payloads.GetPayloads()) > 0 }

// Get decodes the value into valuePtr.
func (v *EncodedValue) Get(valuePtr any) error {
	if !v.HasValue() {
		return ErrNoData
	}
	err := v.dc.FromPayloads(v.payloads, valuePtr)
	if err != nil && v.resultKind != "" {
		codecfail.FailTask(fmt.Errorf("decoding the result of %s %q: %w", v.resultKind, v.resultOf, err))
	}
	return err
}

var _ converter.EncodedValue = (*EncodedValue)(nil)
