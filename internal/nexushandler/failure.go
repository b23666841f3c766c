package nexushandler

import (
	"errors"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	apinexus "go.temporal.io/api/temporalnexus"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
)

// operationFailure is the start response of an operation that ended as
// failed or canceled (see failure.OperationErrorToTemporalError).
func operationFailure(opErr *nexus.OperationError, fc converter.FailureConverter) (*nexuspb.Response, *nexus.HandlerError, error) {
	err, ok := failure.OperationErrorToTemporalError(opErr)
	if !ok {
		return nil, failure.HandlerErrorOf(err), nil
	}
	return startResponse(&nexuspb.StartOperationResponse{Variant: &nexuspb.StartOperationResponse_Failure{Failure: fc.ErrorToFailure(err)}}), nil, nil
}

// completedRequest is the task's completion. To a server without
// Temporal failure responses, an operation's failure goes as the older
// operation error, as go.temporal.io/sdk sends it.
func (h *TaskHandler) completedRequest(task *workflowservice.PollNexusTaskQueueResponse, resp *nexuspb.Response, temporalFailures bool) (*workflowservice.RespondNexusTaskCompletedRequest, error) {
	if f := resp.GetStartOperation().GetFailure(); f != nil && !temporalFailures {
		var state nexus.OperationState
		switch {
		case f.GetCanceledFailureInfo() != nil:
			state = nexus.OperationStateCanceled
		case f.GetApplicationFailureInfo() != nil:
			state = nexus.OperationStateFailed
		default:
			return nil, errors.New("nexushandler: an operation failure other than an application or canceled failure cannot be sent to a server without Temporal failure responses")
		}
		var cause *nexuspb.Failure
		if f.GetCause() != nil {
			nf, err := failure.TemporalFailureToNexusFailure(f.GetCause())
			if err != nil {
				return nil, err
			}
			cause = &nexuspb.Failure{Message: nf.Message, Metadata: nf.Metadata, Details: nf.Details}
		}
		legacy := &nexuspb.UnsuccessfulOperationError{OperationState: string(state), Failure: cause}
		//lint:ignore SA1019 servers without Temporal failure responses read the older operation error
		resp = startResponse(&nexuspb.StartOperationResponse{Variant: &nexuspb.StartOperationResponse_OperationError{OperationError: legacy}})
	}
	return &workflowservice.RespondNexusTaskCompletedRequest{
		Namespace:     h.opts.Namespace,
		Identity:      h.opts.Identity,
		TaskToken:     task.GetTaskToken(),
		Response:      resp,
		PollerGroupId: task.GetPollerGroupId(),
	}, nil
}

// failedRequest is the task's failure with herr: its Temporal failure
// (NexusHandlerFailureInfo), or, to a server without Temporal failure
// responses, the older HandlerError.
func (h *TaskHandler) failedRequest(task *workflowservice.PollNexusTaskQueueResponse, herr *nexus.HandlerError, temporalFailures bool, fc converter.FailureConverter) (*workflowservice.RespondNexusTaskFailedRequest, error) {
	req := &workflowservice.RespondNexusTaskFailedRequest{
		Namespace:     h.opts.Namespace,
		Identity:      h.opts.Identity,
		TaskToken:     task.GetTaskToken(),
		PollerGroupId: task.GetPollerGroupId(),
	}
	if temporalFailures {
		req.Failure = fc.ErrorToFailure(herr)
		return req, nil
	}
	legacy, err := failure.HandlerErrorToProto(fc, herr)
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 servers without Temporal failure responses read the older handler error
	req.Error = legacy
	return req, nil
}

// commonLinkToNexus converts a link a handler's call returned to the form
// a start response carries.
func commonLinkToNexus(l *commonpb.Link) (*nexuspb.Link, bool) {
	return apinexus.CommonLinkToNexusLink(l)
}
