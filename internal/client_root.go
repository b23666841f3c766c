package internal

import (
	"context"
	"errors"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/base"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/registry"
)

// clientRoot is the end of a client's interceptor chain: it sends the
// requests. Headers come from Header(ctx), which the client's methods set
// up before the chain, plus what the context propagators inject.
type clientRoot struct {
	ClientRootSeal
	c *workflowClient
}

var _ ClientOutboundInterceptor = (*clientRoot)(nil)

// interceptClient builds the client's chain, the first interceptor
// outermost, and keeps the interceptors that also intercept workers, for
// the workers made from this client.
func (c *workflowClient) interceptClient(interceptors []ClientInterceptor) {
	c.interceptor = &clientRoot{c: c}
	for i := len(interceptors) - 1; i >= 0; i-- {
		c.interceptor = interceptors[i].InterceptClient(c.interceptor)
	}
	for _, i := range interceptors {
		if wi, ok := i.(WorkerInterceptor); ok {
			c.workerInterceptors = append(c.workerInterceptors, wi)
		}
	}
}

// ExecuteWorkflow starts the workflow; if its ID is in use by a running
// workflow, the run returned is that one, unless the options ask for an
// error.
func (r *clientRoot) ExecuteWorkflow(ctx context.Context, in *ClientExecuteWorkflowInput) (WorkflowRun, error) {
	c := r.c
	options := *in.Options
	p, err := c.newWorkflowStartParams(ctx, options, in.WorkflowType, in.Args)
	if err != nil {
		return nil, fmt.Errorf("ExecuteWorkflow: %w", err)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	tags := c.workflowRequestTags(p.workflowType, options.TaskQueue)
	req := c.startRequest(p)
	eager := c.reserveEagerStart(ctx, options.EnableEagerStart, req)
	resp, err := c.service.StartWorkflowExecution(withRequestTags(ctx, tags), req)
	finishEagerStart(eager, resp)
	runID, firstRunID := resp.GetRunId(), resp.GetFirstExecutionRunId()
	var alreadyStarted *serviceerror.WorkflowExecutionAlreadyStarted
	switch {
	case errors.As(err, &alreadyStarted) && !options.WorkflowExecutionErrorWhenAlreadyStarted:
		// The caller gets the run that holds the ID.
		runID, firstRunID = alreadyStarted.RunId, alreadyStarted.FirstExecutionRunId
	case err != nil:
		return nil, wrapCallError(err, "starting workflow %q (ID %q)", p.workflowType, options.ID)
	case firstRunID == "" && resp.GetStarted():
		// Servers that predate the field leave it out; a run just started
		// begins its own chain.
		firstRunID = runID
	}
	run := c.runHandle(options.ID, p.workflowType, runID, firstRunID)
	run.requestTags = tags
	return run, nil
}

// SignalWithStartWorkflow signals the workflow, starting it first if it
// is not running.
func (r *clientRoot) SignalWithStartWorkflow(ctx context.Context, in *ClientSignalWithStartWorkflowInput) (WorkflowRun, error) {
	c := r.c
	options := *in.Options
	p, err := c.newWorkflowStartParams(ctx, options, in.WorkflowType, in.Args)
	if err != nil {
		return nil, fmt.Errorf("SignalWithStartWorkflow: %w", err)
	}
	signalInput, err := p.dc.ToPayloads(in.SignalArg)
	if err != nil {
		return nil, fmt.Errorf("SignalWithStartWorkflow: signal %q argument (%T) cannot be encoded: %w", in.SignalName, in.SignalArg, err)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	tags := c.workflowRequestTags(p.workflowType, options.TaskQueue)
	resp, err := c.service.SignalWithStartWorkflowExecution(withRequestTags(ctx, tags), c.signalWithStartRequest(p, in.SignalName, signalInput))
	if err != nil {
		return nil, wrapCallError(err, "signal-with-start of workflow %q (ID %q), signal %q", p.workflowType, options.ID, in.SignalName)
	}
	run := c.runHandle(options.ID, p.workflowType, resp.GetRunId(), resp.GetFirstExecutionRunId())
	run.requestTags = tags
	return run, nil
}

// SignalWorkflow sends the signal.
func (r *clientRoot) SignalWorkflow(ctx context.Context, in *ClientSignalWorkflowInput) error {
	c := r.c
	input, err := c.workflowDataConverter(ctx, in.WorkflowID).ToPayloads(in.Arg)
	if err != nil {
		return fmt.Errorf("SignalWorkflow: signal %q argument (%T) cannot be encoded: %w", in.SignalName, in.Arg, err)
	}
	header, err := clientOutgoingHeader(ctx, headerOf(ctx), c.propagators)
	if err != nil {
		return err
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	_, err = c.service.SignalWorkflowExecution(ctx, &workflowservice.SignalWorkflowExecutionRequest{
		Namespace:         c.namespace,
		WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: in.WorkflowID, RunId: in.RunID},
		SignalName:        in.SignalName,
		Input:             input,
		Identity:          c.identity,
		RequestId:         base.NewUUID(),
		Header:            header,
	})
	return wrapCallError(err, "signaling workflow %q (run %q) with %q", in.WorkflowID, in.RunID, in.SignalName)
}

// CancelWorkflow requests the workflow's cancellation.
func (r *clientRoot) CancelWorkflow(ctx context.Context, in *ClientCancelWorkflowInput) error {
	c := r.c
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	_, err := c.service.RequestCancelWorkflowExecution(ctx, &workflowservice.RequestCancelWorkflowExecutionRequest{
		Namespace:           c.namespace,
		WorkflowExecution:   &commonpb.WorkflowExecution{WorkflowId: in.WorkflowID, RunId: in.RunID},
		Identity:            c.identity,
		RequestId:           base.NewUUID(),
		FirstExecutionRunId: in.FirstExecutionRunID,
		Reason:              in.Reason,
	})
	return wrapCallError(err, "canceling workflow %q (run %q)", in.WorkflowID, in.RunID)
}

// TerminateWorkflow terminates the workflow.
func (r *clientRoot) TerminateWorkflow(ctx context.Context, in *ClientTerminateWorkflowInput) error {
	c := r.c
	details, err := registry.EncodeArgs(c.workflowDataConverter(ctx, in.WorkflowID), in.Details)
	if err != nil {
		return fmt.Errorf("TerminateWorkflow: details: %w", err)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	_, err = c.service.TerminateWorkflowExecution(ctx, &workflowservice.TerminateWorkflowExecutionRequest{
		Namespace:           c.namespace,
		WorkflowExecution:   &commonpb.WorkflowExecution{WorkflowId: in.WorkflowID, RunId: in.RunID},
		Reason:              in.Reason,
		Details:             details,
		Identity:            c.identity,
		FirstExecutionRunId: in.FirstExecutionRunID,
	})
	return wrapCallError(err, "terminating workflow %q (run %q)", in.WorkflowID, in.RunID)
}

// QueryWorkflow sends the query; a rejection is a *QueryRejectedError.
func (r *clientRoot) QueryWorkflow(ctx context.Context, in *ClientQueryWorkflowInput) (converter.EncodedValue, error) {
	c := r.c
	dc := c.workflowDataConverter(ctx, in.WorkflowID)
	args, err := registry.EncodeArgs(dc, in.Args)
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", in.QueryType, err)
	}
	header, err := clientOutgoingHeader(ctx, headerOf(ctx), c.propagators)
	if err != nil {
		return nil, err
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	resp, err := c.service.QueryWorkflow(ctx, &workflowservice.QueryWorkflowRequest{
		Namespace: c.namespace,
		Execution: &commonpb.WorkflowExecution{WorkflowId: in.WorkflowID, RunId: in.RunID},
		Query: &querypb.WorkflowQuery{
			QueryType: in.QueryType,
			QueryArgs: args,
			Header:    header,
		},
		QueryRejectCondition: in.QueryRejectCondition,
	})
	if err != nil {
		return nil, wrapCallError(err, "querying workflow %q (run %q) with %q", in.WorkflowID, in.RunID, in.QueryType)
	}
	if resp.GetQueryRejected() != nil {
		return nil, failure.NewQueryRejectedError(resp.GetQueryRejected())
	}
	return newClientEncodedValue(resp.GetQueryResult(), dc), nil
}

// DescribeWorkflow describes the run.
func (r *clientRoot) DescribeWorkflow(ctx context.Context, in *ClientDescribeWorkflowInput) (*ClientDescribeWorkflowOutput, error) {
	d, err := r.c.describeWorkflow(ctx, in.WorkflowID, in.RunID)
	if err != nil {
		return nil, err
	}
	return &ClientDescribeWorkflowOutput{Response: d}, nil
}
