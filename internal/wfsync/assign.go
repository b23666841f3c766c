package wfsync

import (
	"fmt"
	"reflect"
)

// selfDecodingValue is a value still in its encoded form that can decode
// itself, such as converter.EncodedValue. Signals and activity results
// arrive this way.
type selfDecodingValue interface {
	HasValue() bool
	Get(valuePtr any) error
}

// assignValue stores a value received from a channel or a future into
// *valuePtr; a nil valuePtr discards it, and a nil value leaves *valuePtr
// alone. A value assignable to *valuePtr is assigned; a pointer to that
// type is dereferenced. Otherwise the value is decoded, if it can be.
//
// This is the single place where payload-backed values are decoded:
// values implementing selfDecodingValue (signals, results) decode
// themselves. A signal that does not decode is dropped by its channel
// (Chan.dropCorrupt).
func assignValue(value, valuePtr any) error {
	encoded, err := assignOrDefer(value, valuePtr)
	if encoded == nil {
		return err
	}
	if !encoded.HasValue() {
		return nil
	}
	// The decoder's error says which payload could not be decoded
	// into which type, and why: adding to it would say it twice.
	return encoded.Get(valuePtr)
}

// assignOrDefer is assignValue but for the decoding, which it leaves to
// its caller: it returns the value that must decode itself into
// *valuePtr, if that is what is left to do. It is a function of its own
// so that its frame (reflect values, the common types' switch) is not on
// the stack while a payload decodes, the deepest calls a workflow's small
// coroutine stack makes: with it there, taking an activity's result grew
// the stack a second time.
//
//go:noinline
func assignOrDefer(value, valuePtr any) (selfDecodingValue, error) {
	if valuePtr == nil {
		return nil, nil
	}
	target := reflect.ValueOf(valuePtr)
	if target.Kind() != reflect.Pointer || target.IsNil() {
		return nil, fmt.Errorf("cannot store a value in %T: not a non-nil pointer", valuePtr)
	}
	if value == nil {
		return nil, nil
	}
	if assignCommon(value, valuePtr) {
		return nil, nil
	}
	elem := target.Elem()
	v := reflect.ValueOf(value)
	if v.Type() == elem.Type() {
		elem.Set(v)
		return nil, nil
	}
	if v.Kind() == reflect.Pointer && v.Type().Elem() == elem.Type() {
		if v.IsNil() {
			elem.SetZero()
		} else {
			elem.Set(v.Elem())
		}
		return nil, nil
	}
	if v.Type().AssignableTo(elem.Type()) {
		elem.Set(v)
		return nil, nil
	}
	if encoded, ok := value.(selfDecodingValue); ok {
		return encoded, nil
	}
	return nil, fmt.Errorf("cannot assign value of type %s to %T", v.Type(), valuePtr)
}

// assignCommon assigns the most common value types without reflection,
// reporting whether it did.
func assignCommon(value, valuePtr any) bool {
	switch p := valuePtr.(type) {
	case *any:
		*p = value
		return true
	case *string:
		if v, ok := value.(string); ok {
			*p = v
			return true
		}
	case *int:
		if v, ok := value.(int); ok {
			*p = v
			return true
		}
	case *int64:
		if v, ok := value.(int64); ok {
			*p = v
			return true
		}
	case *bool:
		if v, ok := value.(bool); ok {
			*p = v
			return true
		}
	case *float64:
		if v, ok := value.(float64); ok {
			*p = v
			return true
		}
	}
	return false
}
