package converter

import (
	failurepb "go.temporal.io/api/failure/v1"
)

// FailureConverter converts Go errors to failure.v1.Failure protos and back.
// Set a custom one in the client options.
type FailureConverter interface {
	// ErrorToFailure converts err; nil gives nil.
	ErrorToFailure(err error) *failurepb.Failure
	// FailureToError converts failure; nil gives nil.
	FailureToError(failure *failurepb.Failure) error
}

// commonFailureAttributes is what EncodeCommonFailureAttributes moves into a
// payload. The JSON names are shared with the other SDKs.
type commonFailureAttributes struct {
	Message    string `json:"message"`
	StackTrace string `json:"stack_trace"`
}

// encodedFailureMessage replaces the message of a failure whose attributes
// were encoded, as in the other SDKs.
const encodedFailureMessage = "Encoded failure"

// EncodeCommonFailureAttributes moves failure's message and stack trace into
// its EncodedAttributes payload, converted with dc, so that codecs (such as
// encryption) apply to them too. The message becomes "Encoded failure". Only
// this failure is changed, not its causes. On error the failure is left as it
// was.
func EncodeCommonFailureAttributes(dc DataConverter, failure *failurepb.Failure) error {
	payload, err := dc.ToPayload(commonFailureAttributes{
		Message:    failure.GetMessage(),
		StackTrace: failure.GetStackTrace(),
	})
	if err != nil {
		return err
	}
	failure.EncodedAttributes = payload
	failure.Message = encodedFailureMessage
	failure.StackTrace = ""
	return nil
}

// DecodeCommonFailureAttributes restores the message and stack trace of a
// failure from its EncodedAttributes payload, if there is one that dc can
// read; otherwise the failure is left as it is.
func DecodeCommonFailureAttributes(dc DataConverter, failure *failurepb.Failure) {
	encoded := failure.GetEncodedAttributes()
	if encoded == nil {
		return
	}
	var attributes commonFailureAttributes
	if dc.FromPayload(encoded, &attributes) == nil {
		failure.Message = attributes.Message
		failure.StackTrace = attributes.StackTrace
	}
}
