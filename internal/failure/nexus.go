package failure

import (
	"fmt"
	"strings"

	"github.com/nexus-rpc/sdk-go/nexus"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
)

// NexusOperationError is what a workflow receives from a Nexus operation
// that failed, was canceled or timed out: its cause says which (an
// ApplicationError, a CanceledError, a TimeoutError, or a
// *nexus.HandlerError when the handler refused the start). Its fields are
// those of go.temporal.io/sdk's type of the same name.
type NexusOperationError struct {
	// Failure is the failure this error was decoded from (nil for an
	// error made in this process). Encoding the error gives it back.
	Failure *failurepb.Failure
	// Message is the error's own message.
	Message string
	// ScheduledEventID is the ID of the operation's NexusOperationScheduled
	// event.
	ScheduledEventID int64
	// Endpoint, Service and Operation name the operation.
	Endpoint  string
	Service   string
	Operation string
	// OperationToken is the token its handler gave when it started the
	// operation asynchronously; empty when it ended synchronously.
	OperationToken string
	// Cause is why the operation failed.
	Cause error
}

// Error renders the operation's identity, then its cause, as
// go.temporal.io/sdk does.
func (e *NexusOperationError) Error() string {
	msg := fmt.Sprintf("%s (endpoint: %q, service: %q, operation: %q, operation token: %q, scheduledEventID: %d)",
		e.Message, e.Endpoint, e.Service, e.Operation, e.OperationToken, e.ScheduledEventID)
	if e.Cause != nil {
		msg += ": " + e.Cause.Error()
	}
	return msg
}

// Unwrap returns the cause.
func (e *NexusOperationError) Unwrap() error { return e.Cause }

// nexusOperationInfo is the failure info of a NexusOperationError made in
// this process. The token goes in the deprecated operation ID field too,
// which older SDKs read.
func nexusOperationInfo(e *NexusOperationError) *failurepb.Failure_NexusOperationExecutionFailureInfo {
	return &failurepb.Failure_NexusOperationExecutionFailureInfo{NexusOperationExecutionFailureInfo: &failurepb.NexusOperationFailureInfo{
		ScheduledEventId: e.ScheduledEventID,
		Endpoint:         e.Endpoint,
		Service:          e.Service,
		Operation:        e.Operation,
		OperationId:      e.OperationToken, //lint:ignore SA1019 older SDKs read the token from this field
		OperationToken:   e.OperationToken,
	}}
}

// decodeNexusOperation is the error of a NexusOperationFailureInfo failure.
func (c *DefaultFailureConverter) decodeNexusOperation(f *failurepb.Failure, message string, depth int) error {
	info := f.GetNexusOperationExecutionFailureInfo()
	token := info.GetOperationToken()
	if token == "" {
		token = info.GetOperationId() //lint:ignore SA1019 servers and SDKs before the token field wrote only this one
	}
	return &NexusOperationError{
		Failure:          f,
		Message:          message,
		Cause:            c.causeOf(f, depth),
		ScheduledEventID: info.GetScheduledEventId(),
		Endpoint:         info.GetEndpoint(),
		Service:          info.GetService(),
		Operation:        info.GetOperation(),
		OperationToken:   token,
	}
}

// handlerRetryBehaviorToProto and handlerRetryBehaviorFromProto map a
// HandlerError's retry behavior to the wire and back.
func handlerRetryBehaviorToProto(b nexus.HandlerErrorRetryBehavior) enumspb.NexusHandlerErrorRetryBehavior {
	switch b {
	case nexus.HandlerErrorRetryBehaviorRetryable:
		return enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_RETRYABLE
	case nexus.HandlerErrorRetryBehaviorNonRetryable:
		return enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_NON_RETRYABLE
	}
	return enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_UNSPECIFIED
}

func handlerRetryBehaviorFromProto(b enumspb.NexusHandlerErrorRetryBehavior) nexus.HandlerErrorRetryBehavior {
	switch b {
	case enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_RETRYABLE:
		return nexus.HandlerErrorRetryBehaviorRetryable
	case enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_NON_RETRYABLE:
		return nexus.HandlerErrorRetryBehaviorNonRetryable
	}
	return nexus.HandlerErrorRetryBehaviorUnspecified
}

// handlerErrorFailure is the failure of a *nexus.HandlerError. One decoded
// from a failure (OriginalFailure set) converts back to that failure; one
// made by a handler gets a NexusHandlerFailureInfo, its own message (or the
// default "handler error (TYPE)"), its stack trace and its cause.
func (c *DefaultFailureConverter) handlerErrorFailure(e *nexus.HandlerError) *failurepb.Failure {
	if e.OriginalFailure != nil {
		if f, err := NexusFailureToTemporalFailure(*e.OriginalFailure, true); err == nil {
			return f
		}
		// An original failure that does not convert is dropped, not the
		// error: the failure is made from the error's fields instead.
	}
	message := e.Message
	if message == "" {
		message = e.Error()
	}
	f := &failurepb.Failure{
		Source:     failureSource,
		Message:    message,
		StackTrace: e.StackTrace,
		FailureInfo: &failurepb.Failure_NexusHandlerFailureInfo{NexusHandlerFailureInfo: &failurepb.NexusHandlerFailureInfo{
			Type:          string(e.Type),
			RetryBehavior: handlerRetryBehaviorToProto(e.RetryBehavior),
		}},
	}
	f.Cause = c.toFailure(e.Cause)
	return f
}

// decodeHandlerError is the *nexus.HandlerError of a NexusHandlerFailureInfo
// failure. A message that is only the default one HandlerError.Error makes
// is left empty, so that Error() does not say it twice.
func (c *DefaultFailureConverter) decodeHandlerError(f *failurepb.Failure, message, stackTrace string, depth int) error {
	info := f.GetNexusHandlerFailureInfo()
	typ := nexus.HandlerErrorType(info.GetType())
	// The original failure, with its common attributes decoded, goes with
	// the error, so that encoding it again gives the same failure.
	decoded := &failurepb.Failure{
		Message:     message,
		StackTrace:  stackTrace,
		Source:      f.GetSource(),
		Cause:       f.GetCause(),
		FailureInfo: f.GetFailureInfo(),
	}
	original, err := TemporalFailureToNexusFailure(decoded)
	if err != nil {
		original = nil
	}
	if strings.HasPrefix(message, "handler error ("+string(typ)+")") {
		message = ""
	}
	return &nexus.HandlerError{
		Type:            typ,
		Message:         message,
		StackTrace:      stackTrace,
		Cause:           c.causeOf(f, depth),
		RetryBehavior:   handlerRetryBehaviorFromProto(info.GetRetryBehavior()),
		OriginalFailure: original,
	}
}
