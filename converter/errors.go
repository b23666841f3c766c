package converter

import (
	"errors"
	"fmt"
	"reflect"
)

// Sentinel errors. Errors returned by this package wrap one of them, so
// callers can test with errors.Is.
var (
	// ErrMetadataIsNotSet reports a payload without any metadata.
	ErrMetadataIsNotSet = errors.New("metadata is not set")
	// ErrEncodingIsNotSet reports a payload whose metadata lacks the encoding key.
	ErrEncodingIsNotSet = errors.New("payload encoding metadata is not set")
	// ErrEncodingIsNotSupported reports an encoding no configured converter reads.
	ErrEncodingIsNotSupported = errors.New("payload encoding is not supported")
	// ErrUnableToEncode reports a value that its converter failed to encode.
	ErrUnableToEncode = errors.New("unable to encode")
	// ErrUnableToDecode reports payload data that its converter failed to decode.
	ErrUnableToDecode = errors.New("unable to decode")
	// ErrUnableToSetValue reports a target that cannot be assigned to.
	ErrUnableToSetValue = errors.New("unable to set value")
	// ErrUnableToFindConverter reports a value that no payload converter accepts.
	ErrUnableToFindConverter = errors.New("unable to find converter")
	// ErrTypeNotImplementProtoMessage reports a proto payload decoded into a
	// type that is not a proto message.
	ErrTypeNotImplementProtoMessage = errors.New("type doesn't implement proto.Message")
	// ErrValuePtrIsNotPointer reports a decoding target that is not a pointer.
	ErrValuePtrIsNotPointer = errors.New("not a pointer type")
	// ErrValuePtrMustConcreteType reports a proto payload decoded into an
	// interface, which does not say which message to create.
	ErrValuePtrMustConcreteType = errors.New("must be a concrete type, not interface")
	// ErrTypeIsNotByteSlice reports a binary/plain payload decoded into
	// something other than a byte slice.
	ErrTypeIsNotByteSlice = errors.New("type is not *[]byte")
)

// decodeError says which encoding could not be read into which Go type.
// Every decoding failure of this package is one, so the message is always
// "unable to decode payload with encoding E into T: reason".
type decodeError struct {
	encoding string
	target   string
	reason   error
}

func (e *decodeError) Error() string {
	return fmt.Sprintf("unable to decode payload with encoding %q into %s: %v", e.encoding, e.target, e.reason)
}

func (e *decodeError) Unwrap() error { return e.reason }

// newDecodeError builds a decodeError for a target pointer valuePtr.
func newDecodeError(encoding string, valuePtr any, reason error) error {
	return &decodeError{encoding: encoding, target: targetTypeName(valuePtr), reason: reason}
}

// unreadableError is the reason of a decodeError whose data its decoder
// (encoding/json, protobuf) refused: the decoder's words, which the
// decodeError already introduces with "unable to decode". It is
// ErrUnableToDecode and the decoder's error for errors.Is and errors.As,
// and the end of the chain that errors.Unwrap walks, so that a failure
// made of a decoding error says each part once.
type unreadableError struct{ err error }

func (e *unreadableError) Error() string { return e.err.Error() }

func (e *unreadableError) Unwrap() []error { return []error{ErrUnableToDecode, e.err} }

func unreadable(err error) error { return &unreadableError{err: err} }

// asDecodeError keeps err when it already names encoding and target (it came
// from one of our converters, perhaps wrapped by a user's) and wraps it
// otherwise (a user converter). It looks a few errors down err's chain
// only, not with errors.As: a user converter's error may have a chain that
// never ends, which the SDK replaces before it walks it further (see
// internal/failure's SafeChain).
func asDecodeError(encoding string, valuePtr any, err error) error {
	const looked = 16
	for e, n := err, 0; e != nil && n < looked; e, n = errors.Unwrap(e), n+1 {
		if _, ok := e.(*decodeError); ok {
			return err
		}
	}
	return newDecodeError(encoding, valuePtr, err)
}

// targetTypeName names the type a caller asked to decode into: the pointed-to
// type for a pointer, the type itself otherwise.
func targetTypeName(valuePtr any) string {
	if valuePtr == nil {
		return "<nil>"
	}
	t := reflect.TypeOf(valuePtr)
	if t.Kind() == reflect.Pointer {
		return t.Elem().String()
	}
	return t.String() + " (not a pointer)"
}

// encodeError reports a value its converter could not encode.
func encodeError(encoding string, value any, reason error) error {
	return fmt.Errorf("value of type %T cannot be encoded as %q: %w: %v", value, encoding, ErrUnableToEncode, reason)
}
