package failure

import (
	"fmt"
	"time"

	failurepb "go.temporal.io/api/failure/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/converter"
)

// FailureToError converts failure and its cause chain to an error. Each
// error keeps its part of (a copy of) the failure, so converting it back is
// lossless, and the data converter, to decode details on demand. Failure
// kinds without a matching Go type become ApplicationErrors with an
// empty type. Malformed content never panics:
// at worst, decoding the details later returns an error.
func (c *DefaultFailureConverter) FailureToError(failure *failurepb.Failure) error {
	if failure == nil {
		return nil
	}
	// One deep copy up front: the errors keep pointers into it, so later
	// changes to the caller's proto (codec interceptors mutate in place)
	// cannot reach them.
	return c.decode(proto.Clone(failure).(*failurepb.Failure), 1)
}

// MaxDecodedCauseDepth is how many failures of a cause chain FailureToError
// turns into errors. Chains come from other processes, and a hostile or
// broken one can be thousands of levels deep (protobuf allows 10,000);
// real ones are a few levels. The failure at this depth gets, instead of
// its cause, an ApplicationError that says how many levels were left out
// and carries them, so encoding the errors again still sends the whole
// chain.
const MaxDecodedCauseDepth = 100

// decode converts f, the failure at depth (1 for the top) of its chain.
func (c *DefaultFailureConverter) decode(f *failurepb.Failure, depth int) error {
	if f == nil {
		return nil
	}
	message, stackTrace := c.commonAttributes(f)
	err := c.decodeInfo(f, message, stackTrace, depth)
	if carrier, ok := err.(failureCarrier); ok {
		carrier.setFailure(f)
	}
	return err
}

// causeOf converts the cause of f, the failure at depth.
func (c *DefaultFailureConverter) causeOf(f *failurepb.Failure, depth int) error {
	cause := f.GetCause()
	if cause == nil || depth < MaxDecodedCauseDepth {
		return c.decode(cause, depth+1)
	}
	left := 0
	for below := cause; below != nil; below = below.GetCause() {
		left++
	}
	note := NewApplicationError(fmt.Sprintf("%d more causes not decoded: the SDK decodes a failure's cause chain to a depth of %d (Failure() of this error has the rest)",
		left, MaxDecodedCauseDepth), "")
	note.(failureCarrier).setFailure(cause)
	return note
}

// commonAttributes returns the message and stack trace of f, decoding them
// from the encoded attributes when present, without changing f.
func (c *DefaultFailureConverter) commonAttributes(f *failurepb.Failure) (message, stackTrace string) {
	if f.GetEncodedAttributes() == nil {
		return f.GetMessage(), f.GetStackTrace()
	}
	attributes := &failurepb.Failure{
		Message:           f.GetMessage(),
		StackTrace:        f.GetStackTrace(),
		EncodedAttributes: f.GetEncodedAttributes(),
	}
	converter.DecodeCommonFailureAttributes(c.dataConverter, attributes)
	return attributes.GetMessage(), attributes.GetStackTrace()
}

func (c *DefaultFailureConverter) decodeInfo(f *failurepb.Failure, message, stackTrace string, depth int) error {
	switch {
	case f.GetApplicationFailureInfo() != nil:
		info := f.GetApplicationFailureInfo()
		if info.GetType() == panicErrorType {
			return NewPanicError(message, stackTrace)
		}
		var nextRetryDelay time.Duration
		if info.GetNextRetryDelay() != nil {
			nextRetryDelay = info.GetNextRetryDelay().AsDuration()
		}
		return NewApplicationErrorWithOptions(message, info.GetType(), ApplicationErrorOptions{
			NonRetryable:   info.GetNonRetryable(),
			Cause:          c.causeOf(f, depth),
			Details:        []any{NewEncodedValues(info.GetDetails(), c.dataConverter)},
			NextRetryDelay: nextRetryDelay,
			Category:       ApplicationErrorCategory(info.GetCategory()),
		})
	case f.GetCanceledFailureInfo() != nil:
		return NewCanceledErrorWithOptions(CanceledErrorOptions{
			Message: message,
			Details: []any{NewEncodedValues(f.GetCanceledFailureInfo().GetDetails(), c.dataConverter)},
			Cause:   c.causeOf(f, depth),
		})
	case f.GetTimeoutFailureInfo() != nil:
		info := f.GetTimeoutFailureInfo()
		return NewTimeoutError(message, info.GetTimeoutType(), c.causeOf(f, depth),
			NewEncodedValues(info.GetLastHeartbeatDetails(), c.dataConverter))
	case f.GetTerminatedFailureInfo() != nil:
		return NewTerminatedError()
	case f.GetServerFailureInfo() != nil:
		return NewServerError(message, f.GetServerFailureInfo().GetNonRetryable(), c.causeOf(f, depth))
	case f.GetResetWorkflowFailureInfo() != nil:
		// A workflow reset fails the pending activities of the old run;
		// their last heartbeat details become the error's details.
		details := NewEncodedValues(f.GetResetWorkflowFailureInfo().GetLastHeartbeatDetails(), c.dataConverter)
		return NewNonRetryableApplicationError(message, "", c.causeOf(f, depth), details)
	case f.GetActivityFailureInfo() != nil:
		info := f.GetActivityFailureInfo()
		err := NewActivityError(info.GetScheduledEventId(), info.GetStartedEventId(), info.GetIdentity(),
			"", info.GetActivityId(), info.GetRetryState(), c.causeOf(f, depth))
		err.activityType = info.GetActivityType()
		return err
	case f.GetChildWorkflowExecutionFailureInfo() != nil:
		info := f.GetChildWorkflowExecutionFailureInfo()
		return NewChildWorkflowExecutionError(info.GetNamespace(),
			info.GetWorkflowExecution().GetWorkflowId(), info.GetWorkflowExecution().GetRunId(),
			info.GetWorkflowType().GetName(), info.GetInitiatedEventId(), info.GetStartedEventId(),
			info.GetRetryState(), c.causeOf(f, depth))
	case f.GetNexusOperationExecutionFailureInfo() != nil:
		return c.decodeNexusOperation(f, message, depth)
	case f.GetNexusHandlerFailureInfo() != nil:
		return c.decodeHandlerError(f, message, stackTrace, depth)
	default:
		return NewApplicationErrorWithCause(message, "", c.causeOf(f, depth))
	}
}
