package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/memo"
	"github.com/durable-go/sdk/internal/optcheck"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/internal/uuid"
)

// ExecuteWorkflow implements Client. The workflow and its arguments are
// checked here; the start request is sent at the end of the interceptor
// chain (clientRoot).
func (c *workflowClient) ExecuteWorkflow(ctx context.Context, options clientapi.StartWorkflowOptions, workflow any, args ...any) (clientapi.WorkflowRun, error) {
	if options.ID == "" {
		options.ID = uuid.New()
	}
	workflowType, err := clientCheckedWorkflowType(workflow, args)
	if err != nil {
		return nil, fmt.Errorf("ExecuteWorkflow: %w", err)
	}
	return c.interceptor.ExecuteWorkflow(propagation.ContextWithNewHeader(ctx), &clientapi.ClientExecuteWorkflowInput{
		Options:      &options,
		WorkflowType: workflowType,
		Args:         args,
	})
}

// ExecuteWorkflow starts the workflow; if its ID is in use by a running
// workflow, the run returned is that one, unless the options ask for an
// error.
func (r *clientRoot) ExecuteWorkflow(ctx context.Context, in *clientapi.ClientExecuteWorkflowInput) (clientapi.WorkflowRun, error) {
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
	nexusStart := clientapi.NexusStartOf(ctx)
	withNexusStart(req, nexusStart)
	eager := c.reserveEagerStart(ctx, options.EnableEagerStart, req)
	resp, err := c.service.StartWorkflowExecution(withRequestTags(ctx, tags), req)
	finishEagerStart(eager, resp)
	if nexusStart != nil {
		nexusStart.Link = resp.GetLink()
	}
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

// SignalWithStartWorkflow implements Client.
func (c *workflowClient) SignalWithStartWorkflow(ctx context.Context, workflowID string, signalName string, signalArg any,
	options clientapi.StartWorkflowOptions, workflow any, workflowArgs ...any,
) (clientapi.WorkflowRun, error) {
	if options.ID != "" && options.ID != workflowID {
		return nil, fmt.Errorf("SignalWithStartWorkflow: StartWorkflowOptions.ID %q differs from workflowID %q: leave it empty or make them equal", options.ID, workflowID)
	}
	options.ID = workflowID
	if options.ID == "" {
		options.ID = uuid.New()
	}
	workflowType, err := clientCheckedWorkflowType(workflow, workflowArgs)
	if err != nil {
		return nil, fmt.Errorf("SignalWithStartWorkflow: %w", err)
	}
	return c.interceptor.SignalWithStartWorkflow(propagation.ContextWithNewHeader(ctx), &clientapi.ClientSignalWithStartWorkflowInput{
		SignalName:   signalName,
		SignalArg:    signalArg,
		Options:      &options,
		WorkflowType: workflowType,
		Args:         workflowArgs,
	})
}

// SignalWithStartWorkflow signals the workflow, starting it first if it
// is not running.
func (r *clientRoot) SignalWithStartWorkflow(ctx context.Context, in *clientapi.ClientSignalWithStartWorkflowInput) (clientapi.WorkflowRun, error) {
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
	req := c.signalWithStartRequest(p, in.SignalName, signalInput)
	nexusHandler := clientapi.NexusHandlerCallsOf(ctx)
	if nexusHandler != nil {
		// Both the started and the signaled events link to the caller.
		req.Links = nexusHandler.RequestLinks()
	}
	if id := clientapi.NexusSignalRequestIDOf(ctx); id != "" {
		req.RequestId = id
	}
	resp, err := c.service.SignalWithStartWorkflowExecution(withRequestTags(ctx, tags), req)
	if err == nil && nexusHandler != nil {
		nexusHandler.AddResponseLink(resp.GetSignalLink())
	}
	if err != nil {
		return nil, wrapCallError(err, "signal-with-start of workflow %q (ID %q), signal %q", p.workflowType, options.ID, in.SignalName)
	}
	run := c.runHandle(options.ID, p.workflowType, resp.GetRunId(), resp.GetFirstExecutionRunId())
	run.requestTags = tags
	return run, nil
}

// clientCheckedWorkflowType is the type name of a workflow given as a
// function or a name, once its arguments are checked against the function.
func clientCheckedWorkflowType(workflow any, args []any) (string, error) {
	workflowType, err := WorkflowTypeName(workflow)
	if err != nil {
		return "", err
	}
	if err := registry.CheckArgs(workflow, args, "workflow"); err != nil {
		return "", err
	}
	return workflowType, nil
}

// WorkflowTypeName is the type name of a workflow given as a function or
// as a name, as the client starts it (and the test environment too).
func WorkflowTypeName(workflow any) (string, error) {
	switch w := workflow.(type) {
	case string:
		if w == "" {
			return "", errors.New("the workflow type name is empty")
		}
		return w, nil
	case nil:
		return "", errors.New("no workflow given: pass a workflow function or a workflow type name")
	}
	if reflect.TypeOf(workflow).Kind() != reflect.Func {
		return "", fmt.Errorf("a workflow must be a function or a workflow type name, not %T", workflow)
	}
	return registry.FunctionName(workflow), nil
}

// errStartMissingTaskQueue is returned before a start request is sent
// without a task queue, which the server would refuse with a less helpful
// message.
var errStartMissingTaskQueue = errors.New("StartWorkflowOptions.TaskQueue is required: it names the task queue the workflow's worker polls")

// workflowStartParams are the parts of a start request that ExecuteWorkflow and
// SignalWithStartWorkflow share, already encoded.
type workflowStartParams struct {
	options          clientapi.StartWorkflowOptions
	workflowType     string
	input            *commonpb.Payloads
	memo             *commonpb.Memo
	searchAttributes *commonpb.SearchAttributes
	header           *commonpb.Header
	userMetadata     *sdkpb.UserMetadata
	dc               converter.DataConverter
}

// newWorkflowStartParams checks the options and the workflow's arguments and
// encodes everything the start request carries. options.ID must be set.
func (c *workflowClient) newWorkflowStartParams(ctx context.Context, options clientapi.StartWorkflowOptions, workflow any, args []any) (*workflowStartParams, error) {
	if options.TaskQueue == "" {
		return nil, errStartMissingTaskQueue
	}
	if err := optcheck.Negative("client.StartWorkflowOptions",
		optcheck.Duration("WorkflowExecutionTimeout", options.WorkflowExecutionTimeout), optcheck.Duration("WorkflowRunTimeout", options.WorkflowRunTimeout),
		optcheck.Duration("WorkflowTaskTimeout", options.WorkflowTaskTimeout), optcheck.Duration("StartDelay", options.StartDelay)); err != nil {
		return nil, err
	}
	if err := policy.CheckRetryPolicy(options.RetryPolicy); err != nil {
		return nil, fmt.Errorf("client.StartWorkflowOptions: %w", err)
	}
	workflowType, err := WorkflowTypeName(workflow)
	if err != nil {
		return nil, err
	}
	if err := registry.CheckArgs(workflow, args, "workflow"); err != nil {
		return nil, err
	}
	p := &workflowStartParams{options: options, workflowType: workflowType, dc: c.workflowDataConverter(ctx, options.ID)}
	if p.input, err = registry.EncodeArgs(p.dc, args); err != nil {
		return nil, fmt.Errorf("workflow %q: %w", workflowType, err)
	}
	if p.memo, err = memo.Encode(p.dc, options.Memo); err != nil {
		return nil, err
	}
	//lint:ignore SA1019 the deprecated untyped form is still sent, as go.temporal.io/sdk sends it
	if p.searchAttributes, err = searchattr.EncodeForStart(options.SearchAttributes, options.TypedSearchAttributes); err != nil {
		return nil, err
	}
	if p.header, err = c.outgoingHeader(ctx, options.ID); err != nil {
		return nil, err
	}
	if p.userMetadata, err = encodeStartUserMetadata(p.dc, options.StaticSummary, options.StaticDetails); err != nil {
		return nil, err
	}
	return p, nil
}

// encodeStartUserMetadata encodes the summary and details shown in the UI.
func encodeStartUserMetadata(dc converter.DataConverter, summary, details string) (*sdkpb.UserMetadata, error) {
	if summary == "" && details == "" {
		return nil, nil
	}
	metadata := &sdkpb.UserMetadata{}
	var err error
	if summary != "" {
		if metadata.Summary, err = dc.ToPayload(summary); err != nil {
			return nil, fmt.Errorf("StaticSummary cannot be encoded: %w", err)
		}
	}
	if details != "" {
		if metadata.Details, err = dc.ToPayload(details); err != nil {
			return nil, fmt.Errorf("StaticDetails cannot be encoded: %w", err)
		}
	}
	return metadata, nil
}

func (p *workflowStartParams) taskQueue() *taskqueuepb.TaskQueue {
	return &taskqueuepb.TaskQueue{Name: p.options.TaskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL}
}

// startRequest builds the StartWorkflowExecution request.
func (c *workflowClient) startRequest(p *workflowStartParams) *workflowservice.StartWorkflowExecutionRequest {
	o := p.options
	return &workflowservice.StartWorkflowExecutionRequest{
		Namespace:                c.namespace,
		WorkflowId:               o.ID,
		WorkflowType:             &commonpb.WorkflowType{Name: p.workflowType},
		TaskQueue:                p.taskQueue(),
		Input:                    p.input,
		WorkflowExecutionTimeout: durationpb.New(o.WorkflowExecutionTimeout),
		WorkflowRunTimeout:       durationpb.New(o.WorkflowRunTimeout),
		WorkflowTaskTimeout:      durationpb.New(o.WorkflowTaskTimeout),
		Identity:                 c.identity,
		RequestId:                uuid.New(),
		WorkflowIdReusePolicy:    o.WorkflowIDReusePolicy,
		WorkflowIdConflictPolicy: o.WorkflowIDConflictPolicy,
		RetryPolicy:              policy.RetryPolicyToProto(o.RetryPolicy),
		CronSchedule:             o.CronSchedule,
		Memo:                     p.memo,
		SearchAttributes:         p.searchAttributes,
		Header:                   p.header,
		WorkflowStartDelay:       clientOptionalDuration(o.StartDelay),
		UserMetadata:             p.userMetadata,
		Priority:                 policy.PriorityToProto(o.Priority),
		VersioningOverride:       clientapi.VersioningOverrideToProto(o.VersioningOverride),
	}
}

// signalWithStartRequest builds the SignalWithStartWorkflowExecution
// request.
func (c *workflowClient) signalWithStartRequest(p *workflowStartParams, signalName string, signalInput *commonpb.Payloads) *workflowservice.SignalWithStartWorkflowExecutionRequest {
	o := p.options
	return &workflowservice.SignalWithStartWorkflowExecutionRequest{
		Namespace:                c.namespace,
		WorkflowId:               o.ID,
		WorkflowType:             &commonpb.WorkflowType{Name: p.workflowType},
		TaskQueue:                p.taskQueue(),
		Input:                    p.input,
		WorkflowExecutionTimeout: durationpb.New(o.WorkflowExecutionTimeout),
		WorkflowRunTimeout:       durationpb.New(o.WorkflowRunTimeout),
		WorkflowTaskTimeout:      durationpb.New(o.WorkflowTaskTimeout),
		Identity:                 c.identity,
		RequestId:                uuid.New(),
		WorkflowIdReusePolicy:    o.WorkflowIDReusePolicy,
		WorkflowIdConflictPolicy: o.WorkflowIDConflictPolicy,
		SignalName:               signalName,
		SignalInput:              signalInput,
		RetryPolicy:              policy.RetryPolicyToProto(o.RetryPolicy),
		CronSchedule:             o.CronSchedule,
		Memo:                     p.memo,
		SearchAttributes:         p.searchAttributes,
		Header:                   p.header,
		WorkflowStartDelay:       clientOptionalDuration(o.StartDelay),
		UserMetadata:             p.userMetadata,
		Priority:                 policy.PriorityToProto(o.Priority),
		VersioningOverride:       clientapi.VersioningOverrideToProto(o.VersioningOverride),
	}
}

// withNexusStart adds to a start request what a Nexus operation's start
// sends (see clientapi.NexusStart); nothing when ns is nil.
func withNexusStart(req *workflowservice.StartWorkflowExecutionRequest, ns *clientapi.NexusStart) {
	if ns == nil {
		return
	}
	if ns.RequestID != "" {
		req.RequestId = ns.RequestID
	}
	req.CompletionCallbacks = ns.Callbacks
	req.Links = ns.Links
	req.PropagatedNexusSerializationContext = ns.SerializationContext
	req.OnConflictOptions = &workflowpb.OnConflictOptions{AttachRequestId: true, AttachCompletionCallbacks: true, AttachLinks: true}
}

// clientOptionalDuration sends zero as "unset", as the official SDK does.
func clientOptionalDuration(d time.Duration) *durationpb.Duration {
	if d == 0 {
		return nil
	}
	return durationpb.New(d)
}
