package failure

import (
	"errors"
	"fmt"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/codecfail"
)

// failureSource is the Failure.source of failures made by Go SDKs.
const failureSource = "GoSDK"

// DefaultFailureConverterOptions configures NewDefaultFailureConverter.
type DefaultFailureConverterOptions struct {
	// DataConverter encodes details and encoded attributes; the default
	// data converter when nil.
	DataConverter converter.DataConverter
	// EncodeCommonAttributes moves each failure's message and stack trace
	// into its encoded attributes payload, so that payload codecs (such as
	// encryption) cover them. The message left in clear is "Encoded failure".
	EncodeCommonAttributes bool
}

// DefaultFailureConverter converts errors to failure protos and back in the
// standard shape.
type DefaultFailureConverter struct {
	dataConverter          converter.DataConverter
	encodeCommonAttributes bool
	// inWorkflowTask: a payload codec's request to fail the workflow
	// task (converter.WorkflowTaskFailureError) fails it (ErrorToFailureInTask).
	inWorkflowTask bool
}

// NewDefaultFailureConverter returns a DefaultFailureConverter.
func NewDefaultFailureConverter(options DefaultFailureConverterOptions) *DefaultFailureConverter {
	dc := options.DataConverter
	if dc == nil {
		dc = converter.GetDefaultDataConverter()
	}
	return &DefaultFailureConverter{dataConverter: dc, encodeCommonAttributes: options.EncodeCommonAttributes}
}

var defaultFailureConverter = NewDefaultFailureConverter(DefaultFailureConverterOptions{})

// GetDefaultFailureConverter returns the failure converter the SDK uses
// unless told otherwise.
func GetDefaultFailureConverter() converter.FailureConverter { return defaultFailureConverter }

// ErrorToFailure converts err and its cause chain to a Failure. An error
// decoded from a failure converts back to that very failure. Errors of other
// types become application failures named after their Go type, with the
// message of Error(). Details that the data converter cannot encode are left
// out, and the reason is added to the message. An error whose chain cannot
// be walked (cyclic, or deeper than MaxErrorChainDepth) converts as the
// error SafeChain gives in its place, which says so.
func (c *DefaultFailureConverter) ErrorToFailure(err error) *failurepb.Failure {
	return c.toFailure(SafeChain(err))
}

// ErrorToFailureInTask is fc.ErrorToFailure for the engine, while a
// workflow task is processed: when fc is a DefaultFailureConverter, details
// or attributes that a payload codec refused with a
// converter.WorkflowTaskFailureError fail the task (the conversion panics
// with the codec's marked error, which the engine recovers), where
// ErrorToFailure would leave them out. Other failure converters convert
// as they do.
func ErrorToFailureInTask(fc interface {
	ErrorToFailure(error) *failurepb.Failure
}, err error,
) *failurepb.Failure {
	d, ok := fc.(*DefaultFailureConverter)
	if !ok || err == nil {
		return fc.ErrorToFailure(err)
	}
	inTask := *d
	inTask.inWorkflowTask = true
	return inTask.ErrorToFailure(err)
}

// toFailure converts err, whose chain SafeChain checked.
func (c *DefaultFailureConverter) toFailure(err error) *failurepb.Failure {
	if err == nil {
		return nil
	}
	if carrier, ok := err.(failureCarrier); ok && carrier.Failure() != nil {
		return carrier.Failure()
	}
	switch e := err.(type) {
	case *NexusOperationError:
		if e.Failure != nil {
			return e.Failure
		}
	case *nexus.HandlerError:
		return c.handlerErrorFailure(e)
	}
	f := &failurepb.Failure{Source: failureSource, Message: failureMessage(err)}
	c.setFailureInfo(f, err)
	f.Cause = c.toFailure(errors.Unwrap(err))
	if c.encodeCommonAttributes {
		// On error the attributes stay in clear, which loses nothing.
		if err := converter.EncodeCommonFailureAttributes(c.dataConverter, f); err != nil && c.inWorkflowTask {
			codecfail.FailTask(fmt.Errorf("encoding the message and stack trace of the failure %q: %w", f.GetMessage(), err))
		}
	}
	return f
}

// failureMessage is the message a failure carries for err: for the SDK's
// own errors their message alone, without the extras Error() adds.
func failureMessage(err error) string {
	switch e := err.(type) {
	case *ApplicationError:
		return e.msg
	case *TimeoutError:
		return e.msg
	case *ServerError:
		return e.msg
	case *ActivityError:
		return "activity error"
	case *ChildWorkflowExecutionError:
		return "child workflow execution error"
	case *NexusOperationError:
		return e.Error() // the whole chain, as go.temporal.io/sdk sends it
	default: // includes canceled, terminated and panic errors
		return withoutCause(err)
	}
}

// withoutCause is err's message without its cause's, which the failure
// carries as its Cause: an error that wraps another as "context: cause"
// (fmt.Errorf's %w at the end) would otherwise say the cause twice once
// decoded, and every level of a chain would repeat all the levels below.
func withoutCause(err error) string {
	msg := err.Error()
	if cause := errors.Unwrap(err); cause != nil {
		if trimmed, ok := strings.CutSuffix(msg, ": "+cause.Error()); ok && trimmed != "" {
			return trimmed
		}
	}
	return msg
}

// setFailureInfo fills the type-specific part of f.
func (c *DefaultFailureConverter) setFailureInfo(f *failurepb.Failure, err error) {
	switch e := err.(type) {
	case *ApplicationError:
		info := &failurepb.ApplicationFailureInfo{
			Type:         e.errType,
			NonRetryable: e.nonRetryable,
			Details:      c.encodeDetails(f, e.details),
			Category:     enumspb.ApplicationErrorCategory(e.category),
		}
		if e.nextRetryDelay != 0 {
			info.NextRetryDelay = durationpb.New(e.nextRetryDelay)
		}
		f.FailureInfo = &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: info}
	case *CanceledError:
		f.FailureInfo = &failurepb.Failure_CanceledFailureInfo{CanceledFailureInfo: &failurepb.CanceledFailureInfo{
			Details: c.encodeDetails(f, e.details),
		}}
	case *PanicError:
		f.StackTrace = e.stackTrace
		f.FailureInfo = &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{
			Type: panicErrorType,
		}}
	case *workflowPanicError:
		f.StackTrace = e.stackTrace
		f.FailureInfo = &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{
			Type:         panicErrorType,
			NonRetryable: true,
		}}
	case *TimeoutError:
		f.FailureInfo = &failurepb.Failure_TimeoutFailureInfo{TimeoutFailureInfo: &failurepb.TimeoutFailureInfo{
			TimeoutType:          e.timeoutType,
			LastHeartbeatDetails: c.encodeDetails(f, e.lastHeartbeatDetails),
		}}
	case *TerminatedError:
		f.FailureInfo = &failurepb.Failure_TerminatedFailureInfo{TerminatedFailureInfo: &failurepb.TerminatedFailureInfo{}}
	case *ServerError:
		f.FailureInfo = &failurepb.Failure_ServerFailureInfo{ServerFailureInfo: &failurepb.ServerFailureInfo{
			NonRetryable: e.nonRetryable,
		}}
	case *ActivityError:
		f.FailureInfo = &failurepb.Failure_ActivityFailureInfo{ActivityFailureInfo: &failurepb.ActivityFailureInfo{
			ScheduledEventId: e.scheduledEventID,
			StartedEventId:   e.startedEventID,
			Identity:         e.identity,
			ActivityType:     e.activityType,
			ActivityId:       e.activityID,
			RetryState:       e.retryState,
		}}
	case *ChildWorkflowExecutionError:
		f.FailureInfo = &failurepb.Failure_ChildWorkflowExecutionFailureInfo{ChildWorkflowExecutionFailureInfo: &failurepb.ChildWorkflowExecutionFailureInfo{
			Namespace:         e.namespace,
			WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: e.workflowID, RunId: e.runID},
			WorkflowType:      &commonpb.WorkflowType{Name: e.workflowType},
			InitiatedEventId:  e.initiatedEventID,
			StartedEventId:    e.startedEventID,
			RetryState:        e.retryState,
		}}
	case *NexusOperationError:
		f.FailureInfo = nexusOperationInfo(e)
	default:
		// Any other error is a retryable application error named after its
		// Go type, so retry policies can list it as non-retryable.
		f.FailureInfo = &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{
			Type: errTypeName(err),
		}}
	}
}

// encodeDetails encodes details for f. When they cannot be encoded the
// failure goes without them, and its message says why: failing to report a
// failure would be worse.
func (c *DefaultFailureConverter) encodeDetails(f *failurepb.Failure, details errorDetails) *commonpb.Payloads {
	if details == nil {
		return nil
	}
	payloads, err := details.toPayloads(c.dataConverter)
	if err != nil {
		if c.inWorkflowTask {
			codecfail.FailTask(fmt.Errorf("encoding the details of the failure %q: %w", f.GetMessage(), err))
		}
		f.Message = fmt.Sprintf("%s (details could not be encoded: %v)", f.Message, err)
		return nil
	}
	return payloads
}
