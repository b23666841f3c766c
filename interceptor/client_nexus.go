package interceptor

import "github.com/durable-go/sdk/internal/clientapi"

// ClientExecuteNexusOperationInput is the input of
// ClientOutboundInterceptor.ExecuteNexusOperation.
//
//   - Options: the start options, as given.
//   - Endpoint, Service, OperationType: the operation called.
//   - Input: the operation's input, not yet encoded.
//   - NexusHeader: the Nexus header of the start request, which reaches
//     the handler: write to it here.
type ClientExecuteNexusOperationInput = clientapi.ClientExecuteNexusOperationInput

// ClientGetNexusOperationHandleInput is the input of
// ClientOutboundInterceptor.GetNexusOperationHandle.
//
//   - OperationID, RunID: the operation of the handle (RunID empty: its
//     latest run).
type ClientGetNexusOperationHandleInput = clientapi.ClientGetNexusOperationHandleInput

// ClientPollNexusOperationResultInput is the input of
// ClientOutboundInterceptor.PollNexusOperationResult. Pass it on, or a
// copy: it carries the serialization context of the operation's start.
//
//   - OperationID, RunID: the operation waited for.
type ClientPollNexusOperationResultInput = clientapi.ClientPollNexusOperationResultInput

// ClientPollNexusOperationResultOutput is the result of
// ClientOutboundInterceptor.PollNexusOperationResult.
//
//   - Result: the operation's result, when it completed.
//   - Error: its failure, when it did not.
type ClientPollNexusOperationResultOutput = clientapi.ClientPollNexusOperationResultOutput

// ClientDescribeNexusOperationInput is the input of
// ClientOutboundInterceptor.DescribeNexusOperation.
//
//   - OperationID, RunID: the operation described.
type ClientDescribeNexusOperationInput = clientapi.ClientDescribeNexusOperationInput

// ClientDescribeNexusOperationOutput is the result of
// ClientOutboundInterceptor.DescribeNexusOperation.
//
//   - Description: the operation's description.
type ClientDescribeNexusOperationOutput = clientapi.ClientDescribeNexusOperationOutput

// ClientCancelNexusOperationInput is the input of
// ClientOutboundInterceptor.CancelNexusOperation.
//
//   - OperationID, RunID: the operation to cancel.
//   - Reason: why.
type ClientCancelNexusOperationInput = clientapi.ClientCancelNexusOperationInput

// ClientTerminateNexusOperationInput is the input of
// ClientOutboundInterceptor.TerminateNexusOperation.
//
//   - OperationID, RunID: the operation to terminate.
//   - Reason: why.
type ClientTerminateNexusOperationInput = clientapi.ClientTerminateNexusOperationInput
