package converter

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
)

// ValueWithTransferTypeConverter is a type whose values are sent as
// another type, its transfer type: to encode such a value, the data
// converter encodes the transfer value its TransferTypeConverter makes of
// it; to decode, it decodes a transfer value and converts it back.
//
// TransferTypeConverter must have a value receiver, not be promoted from
// an embedded field, be safe to call concurrently and not depend on the
// value: its result is kept for every value of the type. Conversion
// applies to top-level values only (an argument, a result): encode T or a
// non-nil *T, decode into a non-nil *T; workflow and activity parameters
// are T, not *T. The data converters of this package (CompositeDataConverter,
// GetDefaultDataConverter, and CodecDataConverter over them) apply it; a
// DataConverter of your own does not.
//
// NOTE: Experimental.
type ValueWithTransferTypeConverter interface {
	// TransferTypeConverter returns the type's converter, made with
	// NewTransferTypeConverter.
	TransferTypeConverter() (TransferTypeConverter, error)
}

// TransferTypeConverter converts between a model type and its transfer
// type; NewTransferTypeConverter makes one. Do not implement or embed it.
//
// NOTE: Experimental.
type TransferTypeConverter interface {
	newTransferPtr() any
	toTransfer(value any) (any, error)
	fromTransfer(transferPtr, valuePtr any) error
}

// NewTransferTypeConverter returns the converter that sends a Model as a
// Transfer: toTransferType makes the transfer value of a model value,
// fromTransferType fills a model value from a transfer value. Both get
// non-nil pointers; they must be pure, safe for concurrent use, free of
// workflow calls, and give the same output on replay; toTransferType
// must return a non-nil pointer when it succeeds. Model and Transfer must
// not be pointer types.
//
// NOTE: Experimental.
func NewTransferTypeConverter[Model ValueWithTransferTypeConverter, Transfer any](
	toTransferType func(*Model) (*Transfer, error),
	fromTransferType func(*Transfer, *Model) error,
) (TransferTypeConverter, error) {
	if t := reflect.TypeFor[Model](); t.Kind() == reflect.Pointer {
		return nil, fmt.Errorf("transfer type converter: the model type must not be a pointer, got %v", t)
	}
	if t := reflect.TypeFor[Transfer](); t.Kind() == reflect.Pointer {
		return nil, fmt.Errorf("transfer type converter: the transfer type must not be a pointer, got %v", t)
	}
	if toTransferType == nil || fromTransferType == nil {
		return nil, errors.New("transfer type converter: both conversion functions are required")
	}
	return &transferConverter[Model, Transfer]{to: toTransferType, from: fromTransferType}, nil
}

type transferConverter[Model, Transfer any] struct {
	to   func(*Model) (*Transfer, error)
	from func(*Transfer, *Model) error
}

func (c *transferConverter[Model, Transfer]) newTransferPtr() any { return new(Transfer) }

func (c *transferConverter[Model, Transfer]) toTransfer(value any) (any, error) {
	var model *Model
	switch v := value.(type) {
	case *Model:
		model = v
	case Model:
		model = &v
	default:
		return nil, fmt.Errorf("transfer type converter: a %T or %T is needed, not %T", *new(Model), model, value)
	}
	transfer, err := c.to(model)
	if err != nil {
		return nil, err
	}
	if transfer == nil {
		return nil, fmt.Errorf("transfer type converter of %T: the conversion to %T returned nil", *new(Model), transfer)
	}
	return transfer, nil
}

func (c *transferConverter[Model, Transfer]) fromTransfer(transferPtr, valuePtr any) error {
	model, ok := valuePtr.(*Model)
	if !ok || model == nil {
		return fmt.Errorf("transfer type converter: a non-nil %T is needed to decode into, not %T", model, valuePtr)
	}
	transfer, ok := transferPtr.(*Transfer)
	if !ok {
		return fmt.Errorf("transfer type converter: a %T transfer value is needed, not %T", transfer, transferPtr)
	}
	return c.from(transfer, model)
}

// transferConverters are the converters of each model type, asked for
// once.
var transferConverters sync.Map // reflect.Type -> TransferTypeConverter

func transferConverterOf(value ValueWithTransferTypeConverter) (TransferTypeConverter, error) {
	t := reflect.TypeOf(value)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if tc, ok := transferConverters.Load(t); ok {
		return tc.(TransferTypeConverter), nil
	}
	tc, err := value.TransferTypeConverter()
	if err != nil {
		return nil, fmt.Errorf("transfer type converter of %v: %w", t, err)
	}
	if tc == nil {
		return nil, fmt.Errorf("transfer type converter of %v is nil", t)
	}
	stored, _ := transferConverters.LoadOrStore(t, tc)
	return stored.(TransferTypeConverter), nil
}

// toTransferValue is the value to encode in place of value: its transfer
// value when its type has a transfer type converter.
func toTransferValue(value any) (any, error) {
	convertible, ok := value.(ValueWithTransferTypeConverter)
	if !ok {
		return value, nil
	}
	if v := reflect.ValueOf(value); v.Kind() == reflect.Pointer && v.IsNil() {
		return value, nil
	}
	tc, err := transferConverterOf(convertible)
	if err != nil {
		return nil, err
	}
	return tc.toTransfer(value)
}

// fromTransferValue decodes into valuePtr, whose type has a transfer
// type converter, through its transfer type: decode decodes into a
// pointer to a transfer value.
func fromTransferValue(valuePtr ValueWithTransferTypeConverter, decode func(ptr any) error) error {
	tc, err := transferConverterOf(valuePtr)
	if err != nil {
		return err
	}
	transfer := tc.newTransferPtr()
	if err := decode(transfer); err != nil {
		return err
	}
	return tc.fromTransfer(transfer, valuePtr)
}
