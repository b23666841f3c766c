package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/internal/uuid"
)

// Standalone Nexus operations: started by the client, not by a workflow
// (Client.NewNexusClient). This file starts them and acts on their
// handles; nexus_describe.go describes, lists and counts them.

// nexusClient is the NexusClient of one endpoint's service.
type nexusClient struct {
	c                 *workflowClient
	endpoint, service string
}

// NewNexusClient implements Client.
func (c *workflowClient) NewNexusClient(options clientapi.NexusClientOptions) (clientapi.NexusClient, error) {
	if options.Endpoint == "" {
		return nil, errors.New("NewNexusClient: the endpoint is required (NexusClientOptions.Endpoint)")
	}
	if options.Service == "" {
		return nil, errors.New("NewNexusClient: the service is required (NexusClientOptions.Service)")
	}
	return &nexusClient{c: c, endpoint: options.Endpoint, service: options.Service}, nil
}

// ExecuteOperation implements NexusClient: it names the operation and
// passes the call to the interceptor chain, whose end starts it.
func (n *nexusClient) ExecuteOperation(ctx context.Context, operation any, input any, options clientapi.StartNexusOperationOptions) (clientapi.NexusOperationHandle, error) {
	if err := n.c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	if name, ok := operation.(string); ok && name == "" {
		return nil, errors.New("NexusClient.ExecuteOperation: the operation name is empty")
	}
	name, err := clientapi.NexusOperationName(operation, input)
	if err != nil {
		return nil, err
	}
	// A header for the interceptors, as for the other client calls; the
	// start request carries only the Nexus header.
	ctx = propagation.ContextWithNewHeader(ctx)
	return n.c.interceptor.ExecuteNexusOperation(ctx, &clientapi.ClientExecuteNexusOperationInput{
		Options:       &options,
		Endpoint:      n.endpoint,
		Service:       n.service,
		OperationType: name,
		Input:         input,
		NexusHeader:   nexus.Header{},
	})
}

// ExecuteNexusOperation starts the operation.
func (r *clientRoot) ExecuteNexusOperation(ctx context.Context, in *clientapi.ClientExecuteNexusOperationInput) (clientapi.NexusOperationHandle, error) {
	return r.c.startNexusOperation(ctx, in)
}

func (c *workflowClient) startNexusOperation(ctx context.Context, in *clientapi.ClientExecuteNexusOperationInput) (clientapi.NexusOperationHandle, error) {
	options := in.Options
	if options.ID == "" {
		return nil, errors.New("NexusClient.ExecuteOperation: the operation ID is required (StartNexusOperationOptions.ID)")
	}
	if options.ScheduleToCloseTimeout < 0 {
		return nil, fmt.Errorf("NexusClient.ExecuteOperation: ScheduleToCloseTimeout is negative (%v)", options.ScheduleToCloseTimeout)
	}
	sc := converter.NexusSerializationContext{Endpoint: in.Endpoint, Service: in.Service, Operation: in.OperationType}
	dc := c.contextDataConverter(ctx)
	payload, err := converter.WithDataConverterSerializationContext(dc, sc).ToPayload(in.Input)
	if err != nil {
		return nil, fmt.Errorf("NexusClient.ExecuteOperation: the input of operation %q (%T) cannot be encoded: %w", in.OperationType, in.Input, err)
	}
	attributes, err := searchattr.EncodeForStart(nil, options.SearchAttributes)
	if err != nil {
		return nil, fmt.Errorf("NexusClient.ExecuteOperation: search attributes: %w", err)
	}
	metadata, err := encodeStartUserMetadata(dc, options.Summary, "")
	if err != nil {
		return nil, fmt.Errorf("NexusClient.ExecuteOperation: %w", err)
	}
	request := &workflowservice.StartNexusOperationExecutionRequest{
		Namespace:        c.namespace,
		Identity:         c.identity,
		RequestId:        uuid.New(),
		OperationId:      options.ID,
		Endpoint:         in.Endpoint,
		Service:          in.Service,
		Operation:        in.OperationType,
		Input:            payload,
		IdReusePolicy:    options.IDReusePolicy,
		IdConflictPolicy: options.IDConflictPolicy,
		SearchAttributes: attributes,
		UserMetadata:     metadata,
		NexusHeader:      in.NexusHeader,
	}
	request.ScheduleToCloseTimeout = positiveDuration(options.ScheduleToCloseTimeout)
	request.ScheduleToStartTimeout = positiveDuration(options.ScheduleToStartTimeout)
	request.StartToCloseTimeout = positiveDuration(options.StartToCloseTimeout)
	resp, err := c.service.StartNexusOperationExecution(ctx, request)
	if err != nil {
		return nil, wrapCallError(err, "starting Nexus operation %q (%s/%s at endpoint %q)", options.ID, in.Service, in.OperationType, in.Endpoint)
	}
	return &nexusOperationHandle{c: c, id: options.ID, runID: resp.GetRunId(), started: &sc}, nil
}

// positiveDuration is d on the wire, or nil (the server's default) when
// it is not positive.
func positiveDuration(d time.Duration) *durationpb.Duration {
	if d <= 0 {
		return nil
	}
	return durationpb.New(d)
}

// contextDataConverter is the client's data converter told ctx, when it
// wants it.
func (c *workflowClient) contextDataConverter(ctx context.Context) converter.DataConverter {
	if aware, ok := c.dataConverter.(converter.ContextAware); ok {
		return aware.WithContext(ctx)
	}
	return c.dataConverter
}

// nexusConverters are the client's converters told a Nexus operation's
// serialization context.
func (c *workflowClient) nexusConverters(ctx context.Context, sc converter.NexusSerializationContext) (converter.DataConverter, converter.FailureConverter) {
	return converter.WithDataConverterSerializationContext(c.contextDataConverter(ctx), sc),
		converter.WithFailureConverterSerializationContext(c.failureConverter, sc)
}

// GetNexusOperationHandle implements Client.
func (c *workflowClient) GetNexusOperationHandle(options clientapi.GetNexusOperationHandleOptions) clientapi.NexusOperationHandle {
	return c.interceptor.GetNexusOperationHandle(&clientapi.ClientGetNexusOperationHandleInput{
		OperationID: options.OperationID,
		RunID:       options.RunID,
	})
}

// GetNexusOperationHandle makes the handle; nothing is sent.
func (r *clientRoot) GetNexusOperationHandle(in *clientapi.ClientGetNexusOperationHandleInput) clientapi.NexusOperationHandle {
	return &nexusOperationHandle{c: r.c, id: in.OperationID, runID: in.RunID}
}

// nexusOperationHandle is a NexusOperationHandle.
type nexusOperationHandle struct {
	c     *workflowClient
	id    string
	runID string
	// started is the serialization context of the operation's start,
	// when this client started it.
	started *converter.NexusSerializationContext

	mu      sync.Mutex
	outcome *clientapi.ClientPollNexusOperationResultOutput // once known
}

var _ clientapi.NexusOperationHandle = (*nexusOperationHandle)(nil)

func (h *nexusOperationHandle) GetID() string    { return h.id }
func (h *nexusOperationHandle) GetRunID() string { return h.runID }

// Get implements NexusOperationHandle: it waits for the outcome through
// the interceptor chain, once; later calls read it again.
func (h *nexusOperationHandle) Get(ctx context.Context, valuePtr any) error {
	h.mu.Lock()
	outcome := h.outcome
	h.mu.Unlock()
	if outcome == nil {
		if err := h.c.ensureInitialized(ctx); err != nil {
			return err
		}
		for outcome == nil || (outcome.Error == nil && outcome.Result == nil) {
			var err error
			outcome, err = h.c.interceptor.PollNexusOperationResult(ctx, clientapi.NewClientPollNexusOperationResultInput(h.id, h.runID, h.started))
			if err != nil {
				return err
			}
		}
		h.mu.Lock()
		h.outcome = outcome
		h.mu.Unlock()
	}
	if outcome.Error != nil {
		return outcome.Error
	}
	if valuePtr == nil {
		return nil
	}
	return outcome.Result.Get(valuePtr)
}

// PollNexusOperationResult waits, poll after poll, for the operation to
// close, and reads its outcome with the client's converters told the
// operation's serialization context: the one the server gives, else the
// start's.
func (r *clientRoot) PollNexusOperationResult(ctx context.Context, in *clientapi.ClientPollNexusOperationResultInput) (*clientapi.ClientPollNexusOperationResultOutput, error) {
	c := r.c
	request := &workflowservice.PollNexusOperationExecutionRequest{
		Namespace:   c.namespace,
		OperationId: in.OperationID,
		RunId:       in.RunID,
		WaitStage:   enumspb.NEXUS_OPERATION_WAIT_STAGE_CLOSED,
	}
	var resp *workflowservice.PollNexusOperationExecutionResponse
	for resp.GetOutcome() == nil {
		var err error
		if resp, err = c.service.PollNexusOperationExecution(ctx, request); err != nil {
			return nil, wrapCallError(err, "waiting for Nexus operation %q (run %q)", in.OperationID, in.RunID)
		}
	}
	dc, fc := c.contextDataConverter(ctx), c.failureConverter
	var sc *converter.NexusSerializationContext
	if p := resp.GetPropagatedNexusSerializationContext(); p != nil {
		sc = &converter.NexusSerializationContext{Endpoint: p.GetEndpoint(), Service: p.GetService(), Operation: p.GetOperation()}
	} else {
		sc = clientapi.StartedNexusSerializationContext(in)
	}
	if sc != nil {
		dc = converter.WithDataConverterSerializationContext(dc, *sc)
		fc = converter.WithFailureConverterSerializationContext(fc, *sc)
	}
	switch outcome := resp.GetOutcome().(type) {
	case *workflowservice.PollNexusOperationExecutionResponse_Result:
		payloads := &commonpb.Payloads{Payloads: []*commonpb.Payload{outcome.Result}}
		return &clientapi.ClientPollNexusOperationResultOutput{Result: newClientEncodedValue(payloads, dc)}, nil
	case *workflowservice.PollNexusOperationExecutionResponse_Failure:
		return &clientapi.ClientPollNexusOperationResultOutput{Error: fc.FailureToError(outcome.Failure)}, nil
	default:
		return nil, fmt.Errorf("waiting for Nexus operation %q (run %q): the server answered with an outcome this client does not know (%T)", in.OperationID, in.RunID, outcome)
	}
}

// Cancel implements NexusOperationHandle.
func (h *nexusOperationHandle) Cancel(ctx context.Context, options clientapi.CancelNexusOperationOptions) error {
	if err := h.c.ensureInitialized(ctx); err != nil {
		return err
	}
	return h.c.interceptor.CancelNexusOperation(ctx, &clientapi.ClientCancelNexusOperationInput{OperationID: h.id, RunID: h.runID, Reason: options.Reason})
}

// CancelNexusOperation asks the server to cancel the operation.
func (r *clientRoot) CancelNexusOperation(ctx context.Context, in *clientapi.ClientCancelNexusOperationInput) error {
	_, err := r.c.service.RequestCancelNexusOperationExecution(ctx, &workflowservice.RequestCancelNexusOperationExecutionRequest{
		Namespace:   r.c.namespace,
		OperationId: in.OperationID,
		RunId:       in.RunID,
		Identity:    r.c.identity,
		RequestId:   uuid.New(),
		Reason:      in.Reason,
	})
	return wrapCallError(err, "canceling Nexus operation %q (run %q)", in.OperationID, in.RunID)
}

// Terminate implements NexusOperationHandle.
func (h *nexusOperationHandle) Terminate(ctx context.Context, options clientapi.TerminateNexusOperationOptions) error {
	if err := h.c.ensureInitialized(ctx); err != nil {
		return err
	}
	return h.c.interceptor.TerminateNexusOperation(ctx, &clientapi.ClientTerminateNexusOperationInput{OperationID: h.id, RunID: h.runID, Reason: options.Reason})
}

// TerminateNexusOperation asks the server to terminate the operation.
func (r *clientRoot) TerminateNexusOperation(ctx context.Context, in *clientapi.ClientTerminateNexusOperationInput) error {
	_, err := r.c.service.TerminateNexusOperationExecution(ctx, &workflowservice.TerminateNexusOperationExecutionRequest{
		Namespace:   r.c.namespace,
		OperationId: in.OperationID,
		RunId:       in.RunID,
		Identity:    r.c.identity,
		RequestId:   uuid.New(),
		Reason:      in.Reason,
	})
	return wrapCallError(err, "terminating Nexus operation %q (run %q)", in.OperationID, in.RunID)
}
