package failure

import (
	"errors"
	"fmt"
	"reflect"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
)

// ErrNoData is returned when decoding details or results that are absent.
var ErrNoData = errors.New("no data available")

// errorDetails are the details of an error: Go values given by the code that
// made the error, or payloads received from the server.
type errorDetails interface {
	HasValues() bool
	Get(valuePtrs ...any) error
	// toPayloads encodes the details with dc for the wire.
	toPayloads(dc converter.DataConverter) (*commonpb.Payloads, error)
}

// newErrorDetails wraps the details given to a constructor. A lone
// *EncodedValues is taken as already-encoded details (how decoded failures
// and the engine pass payloads through); anything else is a list of values.
func newErrorDetails(values []any) errorDetails {
	if len(values) == 1 {
		if encoded, ok := values[0].(*EncodedValues); ok && encoded != nil {
			return encoded
		}
	}
	return detailValues(values)
}

// EncodedValues are payloads together with the data converter that decodes
// them. It implements converter.EncodedValues and converter.ValuesPayloads.
type EncodedValues struct {
	payloads *commonpb.Payloads
	dc       converter.DataConverter
}

// NewEncodedValues wraps payloads read with dc (the default data converter
// when nil). Passed as the only detail to an error constructor, it becomes
// the error's details as is, without being encoded again.
func NewEncodedValues(payloads *commonpb.Payloads, dc converter.DataConverter) *EncodedValues {
	if dc == nil {
		dc = converter.GetDefaultDataConverter()
	}
	return &EncodedValues{payloads: payloads, dc: dc}
}

// HasValues reports whether there is at least one payload.
func (v *EncodedValues) HasValues() bool { return len(v.payloads.GetPayloads()) > 0 }

// Get decodes the payloads positionally into valuePtrs.
func (v *EncodedValues) Get(valuePtrs ...any) error {
	if !v.HasValues() {
		return ErrNoData
	}
	return v.dc.FromPayloads(v.payloads, valuePtrs...)
}

// Payloads returns the payloads as received.
func (v *EncodedValues) Payloads() *commonpb.Payloads { return v.payloads }

func (v *EncodedValues) toPayloads(converter.DataConverter) (*commonpb.Payloads, error) {
	return v.payloads, nil
}

// detailValues are details not yet encoded, as given to a constructor.
type detailValues []any

func (d detailValues) HasValues() bool { return len(d) > 0 }

// Get copies the values into valuePtrs. A value that is not assignable to its
// target goes through the default data converter, so a detail reads the same
// before and after a trip over the wire (an int into an int64, a struct into
// a map...).
func (d detailValues) Get(valuePtrs ...any) error {
	if !d.HasValues() {
		return ErrNoData
	}
	if len(valuePtrs) > len(d) {
		return fmt.Errorf("%d values requested, only %d details present", len(valuePtrs), len(d))
	}
	for i, ptr := range valuePtrs {
		if err := assignDetail(d[i], ptr); err != nil {
			return fmt.Errorf("detail %d: %w", i, err)
		}
	}
	return nil
}

func (d detailValues) toPayloads(dc converter.DataConverter) (*commonpb.Payloads, error) {
	return dc.ToPayloads(d...)
}

func assignDetail(value, valuePtr any) error {
	target := reflect.ValueOf(valuePtr)
	if target.Kind() != reflect.Pointer || target.IsNil() {
		return fmt.Errorf("cannot decode a detail into %T: %w", valuePtr, converter.ErrValuePtrIsNotPointer)
	}
	if value != nil && reflect.TypeOf(value).AssignableTo(target.Type().Elem()) {
		target.Elem().Set(reflect.ValueOf(value))
		return nil
	}
	dc := converter.GetDefaultDataConverter()
	payload, err := dc.ToPayload(value)
	if err != nil {
		return err
	}
	return dc.FromPayload(payload, valuePtr)
}
