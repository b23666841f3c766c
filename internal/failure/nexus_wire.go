package failure

import (
	"encoding/json"
	"errors"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/durable-go/sdk/converter"
)

// What a Nexus handler's worker sends back and what a caller reads: a
// Nexus failure (nexus.Failure, nexuspb.Failure) that carries a Temporal
// failure says so with the metadata "type" set to the Temporal Failure
// message's full proto name, and holds it, as protojson without its
// message, in its details. Every Temporal SDK reads and writes this shape.

// nexusFailureType is the "type" metadata of a Nexus failure that carries a
// Temporal failure.
var nexusFailureType = string((&failurepb.Failure{}).ProtoReflect().Descriptor().FullName())

// temporalFailureMetadata returns the metadata of a Nexus failure that
// carries a Temporal failure (a new map each time: callers may keep it).
func temporalFailureMetadata() map[string]string { return map[string]string{"type": nexusFailureType} }

// TemporalFailureToNexusFailure carries f in a Nexus failure: f's message
// and stack trace go in its fields, the rest, as protojson, in its
// details. f is not changed.
func TemporalFailureToNexusFailure(f *failurepb.Failure) (*nexus.Failure, error) {
	rest := shallowFailureCopy(f)
	rest.Message, rest.StackTrace = "", ""
	details, err := protojson.Marshal(rest)
	if err != nil {
		return nil, err
	}
	return &nexus.Failure{Message: f.GetMessage(), StackTrace: f.GetStackTrace(), Metadata: temporalFailureMetadata(), Details: details}, nil
}

// NexusFailureToTemporalFailure is the Temporal failure a Nexus failure
// carries: the one in its details when its metadata says so, otherwise an
// application failure of type "NexusFailure" whose details are the Nexus
// failure's metadata and details (as json/plain), non-retryable unless
// retryable says so.
func NexusFailureToTemporalFailure(nf nexus.Failure, retryable bool) (*failurepb.Failure, error) {
	f := &failurepb.Failure{}
	if nf.Metadata != nil && nf.Metadata["type"] == nexusFailureType {
		if err := protojson.Unmarshal(nf.Details, f); err != nil {
			return nil, err
		}
	} else {
		payloads, err := nexusFailureDetailsPayloads(nf)
		if err != nil {
			return nil, err
		}
		f.FailureInfo = &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{
			Type:         "NexusFailure",
			Details:      payloads,
			NonRetryable: !retryable,
		}}
	}
	f.Message = nf.Message
	f.StackTrace = nf.StackTrace
	return f, nil
}

// nexusFailureDetailsPayloads is a foreign Nexus failure, without its
// message, as one json/plain payload; nil when it has neither metadata nor
// details.
func nexusFailureDetailsPayloads(nf nexus.Failure) (*commonpb.Payloads, error) {
	if len(nf.Metadata) == 0 && len(nf.Details) == 0 {
		return nil, nil
	}
	nf.Message = ""
	data, err := json.Marshal(nf)
	if err != nil {
		return nil, err
	}
	return &commonpb.Payloads{Payloads: []*commonpb.Payload{{
		Metadata: map[string][]byte{converter.MetadataEncoding: []byte(converter.MetadataEncodingJSON)},
		Data:     data,
	}}}, nil
}

// ProtoFailureToNexusFailure is the wire's Nexus failure as the Nexus SDK's.
func ProtoFailureToNexusFailure(f *nexuspb.Failure) nexus.Failure {
	return nexus.Failure{Message: f.GetMessage(), Metadata: f.GetMetadata(), Details: f.GetDetails()}
}

// ErrorToNexusProtoFailure converts err with fc and carries the failure in
// a wire Nexus failure (nil for a nil err).
func ErrorToNexusProtoFailure(fc converter.FailureConverter, err error) (*nexuspb.Failure, error) {
	f := fc.ErrorToFailure(err)
	if f == nil {
		return nil, nil
	}
	rest := shallowFailureCopy(f)
	rest.Message = ""
	details, merr := protojson.Marshal(rest)
	if merr != nil {
		return nil, merr
	}
	return &nexuspb.Failure{Message: f.GetMessage(), Metadata: temporalFailureMetadata(), Details: details}, nil
}

// HandlerErrorToProto is a handler's error in the shape servers without
// Temporal failure responses take (RespondNexusTaskFailedRequest.Error):
// its type and retry behavior, and its cause as the failure.
func HandlerErrorToProto(fc converter.FailureConverter, e *nexus.HandlerError) (*nexuspb.HandlerError, error) {
	f, err := ErrorToNexusProtoFailure(fc, e.Cause)
	if err != nil {
		return nil, err
	}
	return &nexuspb.HandlerError{
		ErrorType:     string(e.Type),
		Failure:       f,
		RetryBehavior: handlerRetryBehaviorToProto(e.RetryBehavior),
	}, nil
}

// HandlerErrorFromProto is the *nexus.HandlerError of the wire's handler
// error, its cause decoded with fc.
func HandlerErrorFromProto(fc converter.FailureConverter, he *nexuspb.HandlerError) (*nexus.HandlerError, error) {
	e := &nexus.HandlerError{
		Type:          nexus.HandlerErrorType(he.GetErrorType()),
		RetryBehavior: handlerRetryBehaviorFromProto(he.GetRetryBehavior()),
	}
	f, err := NexusFailureToTemporalFailure(ProtoFailureToNexusFailure(he.GetFailure()), e.Retryable())
	if err != nil {
		return nil, err
	}
	e.Cause = fc.FailureToError(f)
	return e, nil
}

// OperationErrorToTemporalError is the error whose failure a handler's
// worker sends as the failed outcome of a start (StartOperationResponse's
// Failure) when the handler returned a *nexus.OperationError: a
// CanceledError for a canceled operation, a non-retryable ApplicationError
// of type "OperationError" for a failed one, each with the operation
// error's message and cause. An operation error in any other state is the
// handler's bug: the result is an internal *nexus.HandlerError to fail the
// task with, and ok is false.
func OperationErrorToTemporalError(e *nexus.OperationError) (err error, ok bool) {
	switch e.State {
	case nexus.OperationStateCanceled:
		return NewCanceledErrorWithOptions(CanceledErrorOptions{Message: e.Message, Cause: e.Cause}), true
	case nexus.OperationStateFailed:
		return NewApplicationErrorWithOptions(e.Message, "OperationError", ApplicationErrorOptions{NonRetryable: true, Cause: e.Cause}), true
	}
	return nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "handler returned an invalid operation error type: %s", e.State), false
}

// HandlerErrorOf is the *nexus.HandlerError a Nexus handler's error stands
// for, as go.temporal.io/sdk's worker maps it: a *nexus.HandlerError in
// err's chain as it is; a non-retryable ApplicationError (err itself, not
// one it wraps) as a non-retryable internal error; a gRPC status error of
// the Temporal service by its code; anything else as a retryable internal
// error with the message "internal handler error". A *nexus.OperationError
// is not a handler error: check for it first (OperationErrorToTemporalError).
func HandlerErrorOf(err error) *nexus.HandlerError {
	err = knownHandlerError(err)
	var he *nexus.HandlerError
	if errors.As(err, &he) {
		return he
	}
	return &nexus.HandlerError{Type: nexus.HandlerErrorTypeInternal, Message: "internal handler error", Cause: err}
}

// knownHandlerError turns the errors the SDK knows into handler errors,
// and leaves others as they are.
func knownHandlerError(err error) error {
	if app, ok := err.(*ApplicationError); ok && app.NonRetryable() {
		return &nexus.HandlerError{
			Type:          nexus.HandlerErrorTypeInternal,
			Message:       "handler failed with non-retryable application error",
			Cause:         app,
			RetryBehavior: nexus.HandlerErrorRetryBehaviorNonRetryable,
		}
	}
	withStatus, ok := err.(interface{ Status() *status.Status })
	if !ok {
		return err
	}
	switch withStatus.Status().Code() {
	case codes.InvalidArgument:
		return &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Cause: err}
	case codes.AlreadyExists, codes.FailedPrecondition, codes.OutOfRange:
		return &nexus.HandlerError{Type: nexus.HandlerErrorTypeInternal, Cause: err, RetryBehavior: nexus.HandlerErrorRetryBehaviorNonRetryable}
	case codes.Aborted, codes.Unavailable:
		return &nexus.HandlerError{Type: nexus.HandlerErrorTypeUnavailable, Cause: err}
	case codes.Canceled, codes.DataLoss, codes.Internal, codes.Unknown, codes.Unauthenticated, codes.PermissionDenied:
		// The handler's own calls to the service failed: retryable,
		// whatever the code says about the caller.
		return &nexus.HandlerError{Type: nexus.HandlerErrorTypeInternal, Cause: err}
	case codes.NotFound:
		return &nexus.HandlerError{Type: nexus.HandlerErrorTypeNotFound, Cause: err}
	case codes.ResourceExhausted:
		return &nexus.HandlerError{Type: nexus.HandlerErrorTypeResourceExhausted, Cause: err}
	case codes.Unimplemented:
		return &nexus.HandlerError{Type: nexus.HandlerErrorTypeNotImplemented, Cause: err}
	case codes.DeadlineExceeded:
		return &nexus.HandlerError{Type: nexus.HandlerErrorTypeUpstreamTimeout, Cause: err}
	}
	return err
}

// shallowFailureCopy copies f's top-level fields, so that they can be
// changed without changing f.
func shallowFailureCopy(f *failurepb.Failure) *failurepb.Failure {
	return &failurepb.Failure{
		Message:           f.GetMessage(),
		Source:            f.GetSource(),
		StackTrace:        f.GetStackTrace(),
		EncodedAttributes: f.GetEncodedAttributes(),
		Cause:             f.GetCause(),
		FailureInfo:       f.GetFailureInfo(),
	}
}
