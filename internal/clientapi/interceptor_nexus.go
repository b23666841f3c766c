package clientapi

import (
	"context"
	"fmt"
	"reflect"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/converter"
)

// ClientExecuteNexusOperationInput is the input of
// ClientOutboundInterceptor.ExecuteNexusOperation.
type ClientExecuteNexusOperationInput struct {
	// Options are the start options, as given.
	Options *StartNexusOperationOptions
	// Endpoint, Service and OperationType name the operation.
	Endpoint      string
	Service       string
	OperationType string
	// Input is the operation's input, not yet encoded.
	Input any
	// NexusHeader goes with the start request to the handler: write to
	// it here.
	NexusHeader nexus.Header
}

// ClientGetNexusOperationHandleInput is the input of
// ClientOutboundInterceptor.GetNexusOperationHandle.
type ClientGetNexusOperationHandleInput struct {
	OperationID string
	RunID       string
}

// ClientPollNexusOperationResultInput is the input of
// ClientOutboundInterceptor.PollNexusOperationResult.
type ClientPollNexusOperationResultInput struct {
	OperationID string
	RunID       string

	// started is the serialization context of the operation this client
	// started (nil for a handle from GetNexusOperationHandle): the
	// outcome is decoded with it when the server does not say its own.
	started *converter.NexusSerializationContext
}

// NewClientPollNexusOperationResultInput is the input of a poll of the
// operation id (run runID), which the client started with the
// serialization context started, or nil.
func NewClientPollNexusOperationResultInput(id, runID string, started *converter.NexusSerializationContext) *ClientPollNexusOperationResultInput {
	return &ClientPollNexusOperationResultInput{OperationID: id, RunID: runID, started: started}
}

// StartedNexusSerializationContext is the serialization context of the
// start of the operation that in polls, or nil when unknown.
func StartedNexusSerializationContext(in *ClientPollNexusOperationResultInput) *converter.NexusSerializationContext {
	return in.started
}

// ClientPollNexusOperationResultOutput is the result of
// ClientOutboundInterceptor.PollNexusOperationResult: the operation's
// result, or its failure.
type ClientPollNexusOperationResultOutput struct {
	Result converter.EncodedValue
	Error  error
}

// ClientDescribeNexusOperationInput is the input of
// ClientOutboundInterceptor.DescribeNexusOperation.
type ClientDescribeNexusOperationInput struct {
	OperationID string
	RunID       string
}

// ClientDescribeNexusOperationOutput is the result of
// ClientOutboundInterceptor.DescribeNexusOperation.
type ClientDescribeNexusOperationOutput struct {
	Description *NexusOperationExecutionDescription
}

// ClientCancelNexusOperationInput is the input of
// ClientOutboundInterceptor.CancelNexusOperation.
type ClientCancelNexusOperationInput struct {
	OperationID string
	RunID       string
	Reason      string
}

// ClientTerminateNexusOperationInput is the input of
// ClientOutboundInterceptor.TerminateNexusOperation.
type ClientTerminateNexusOperationInput struct {
	OperationID string
	RunID       string
	Reason      string
}

// NexusOperationName is the name of operation, given to a NexusClient's
// ExecuteOperation (a workflow's or a client's) as a name or a typed
// reference, checking that input fits a reference's input type.
func NexusOperationName(operation, input any) (string, error) {
	if name, ok := operation.(string); ok {
		return name, nil
	}
	ref, ok := operation.(interface {
		Name() string
		InputType() reflect.Type
	})
	if !ok {
		return "", fmt.Errorf("invalid 'operation' parameter, must be an OperationReference or a string")
	}
	if t := reflect.TypeOf(input); t != nil && !t.AssignableTo(ref.InputType()) {
		return "", fmt.Errorf("cannot assign argument of type %q to type %q for operation %q", t, ref.InputType(), ref.Name())
	}
	return ref.Name(), nil
}

// ExecuteNexusOperation calls Next.ExecuteNexusOperation.
func (c *ClientOutboundInterceptorBase) ExecuteNexusOperation(ctx context.Context, in *ClientExecuteNexusOperationInput) (NexusOperationHandle, error) {
	return c.Next.ExecuteNexusOperation(ctx, in)
}

// GetNexusOperationHandle calls Next.GetNexusOperationHandle.
func (c *ClientOutboundInterceptorBase) GetNexusOperationHandle(in *ClientGetNexusOperationHandleInput) NexusOperationHandle {
	return c.Next.GetNexusOperationHandle(in)
}

// PollNexusOperationResult calls Next.PollNexusOperationResult.
func (c *ClientOutboundInterceptorBase) PollNexusOperationResult(ctx context.Context, in *ClientPollNexusOperationResultInput) (*ClientPollNexusOperationResultOutput, error) {
	return c.Next.PollNexusOperationResult(ctx, in)
}

// DescribeNexusOperation calls Next.DescribeNexusOperation.
func (c *ClientOutboundInterceptorBase) DescribeNexusOperation(ctx context.Context, in *ClientDescribeNexusOperationInput) (*ClientDescribeNexusOperationOutput, error) {
	return c.Next.DescribeNexusOperation(ctx, in)
}

// CancelNexusOperation calls Next.CancelNexusOperation.
func (c *ClientOutboundInterceptorBase) CancelNexusOperation(ctx context.Context, in *ClientCancelNexusOperationInput) error {
	return c.Next.CancelNexusOperation(ctx, in)
}

// TerminateNexusOperation calls Next.TerminateNexusOperation.
func (c *ClientOutboundInterceptorBase) TerminateNexusOperation(ctx context.Context, in *ClientTerminateNexusOperationInput) error {
	return c.Next.TerminateNexusOperation(ctx, in)
}
