package internal

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	querypb "go.temporal.io/api/query/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/base"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/searchattr"
)

type (
	// StartWorkflowOptions configure a workflow started by
	// Client.ExecuteWorkflow or Client.SignalWithStartWorkflow.
	StartWorkflowOptions struct {
		// ID is the workflow ID, unique among the namespace's running
		// workflows; a random UUID when empty.
		ID string
		// TaskQueue is the task queue the workflow's worker polls. Required.
		TaskQueue string
		// WorkflowExecutionTimeout bounds the whole workflow, retries,
		// cron runs and continue-as-new included; unlimited when zero.
		WorkflowExecutionTimeout time.Duration
		// WorkflowRunTimeout bounds a single run; the execution timeout when
		// zero.
		WorkflowRunTimeout time.Duration
		// WorkflowTaskTimeout bounds each workflow task; 10s when zero.
		WorkflowTaskTimeout time.Duration
		// WorkflowIDConflictPolicy says what happens when a workflow with
		// this ID is running: fail (the default), use the running one,
		// or terminate it and start anew.
		WorkflowIDConflictPolicy enumspb.WorkflowIdConflictPolicy
		// WorkflowIDReusePolicy says whether this ID may be used again once
		// an earlier workflow with it has closed: allowed by default.
		WorkflowIDReusePolicy enumspb.WorkflowIdReusePolicy
		// WorkflowExecutionErrorWhenAlreadyStarted makes ExecuteWorkflow
		// return *serviceerror.WorkflowExecutionAlreadyStarted when the ID
		// is in use, rather than the run that uses it.
		WorkflowExecutionErrorWhenAlreadyStarted bool
		// RetryPolicy makes the server retry the workflow when it fails;
		// no retries when nil.
		RetryPolicy *policy.RetryPolicy
		// CronSchedule starts the workflow on a cron schedule ("*/5 * * * *"),
		// a new run each time; schedules are usually the better choice.
		CronSchedule string
		// Memo is information stored with the workflow and shown when it
		// is listed or described, not indexed.
		Memo map[string]any
		// SearchAttributes are indexed attributes by name, untyped.
		//
		// Deprecated: use TypedSearchAttributes.
		SearchAttributes map[string]any
		// TypedSearchAttributes are indexed attributes to list workflows by.
		// Only one of the two forms may be set.
		TypedSearchAttributes searchattr.SearchAttributes
		// EnableEagerStart asks the server to hand the workflow's first
		// task straight back, to a running worker made with this client
		// that polls the task queue and has a free workflow task slot,
		// saving it a poll. Without one, or from a server that does not
		// support it (system.enableEagerWorkflowStart), the workflow
		// starts as usual. Not for SignalWithStartWorkflow.
		EnableEagerStart bool
		// StartDelay postpones the first workflow task; a signal sent with
		// SignalWithStartWorkflow does not cut it short.
		StartDelay time.Duration
		// StaticSummary is a one-line summary shown in the UI.
		StaticSummary string
		// StaticDetails is a longer description shown in the UI.
		StaticDetails string
		// Priority orders the workflow's tasks relative to others.
		Priority policy.Priority
		// VersioningOverride, when set, decides which worker deployment
		// version runs the workflow, whatever its code declares.
		VersioningOverride VersioningOverride
	}

	// CancelWorkflowOptions say which workflow CancelWorkflowWithOptions
	// cancels, and why.
	CancelWorkflowOptions struct {
		// WorkflowID is required.
		WorkflowID string
		// RunID selects a run; the current run when empty.
		RunID string
		// FirstExecutionRunID, if set, makes the request fail unless the
		// run's chain started with this run.
		FirstExecutionRunID string
		// Reason is recorded in the cancel-requested event.
		Reason string
	}

	// TerminateWorkflowOptions say which workflow
	// TerminateWorkflowWithOptions terminates, and why.
	TerminateWorkflowOptions struct {
		// WorkflowID is required.
		WorkflowID string
		// RunID selects a run; the current run when empty.
		RunID string
		// FirstExecutionRunID, if set, makes the request fail unless the
		// run's chain started with this run.
		FirstExecutionRunID string
		// Reason is recorded in the terminated event.
		Reason string
		// Details are recorded in the terminated event.
		Details []any
	}

	// QueryWorkflowWithOptionsRequest is the request of
	// Client.QueryWorkflowWithOptions.
	QueryWorkflowWithOptionsRequest struct {
		// WorkflowID is required.
		WorkflowID string
		// RunID selects a run; the current run when empty.
		RunID string
		// QueryType is the query's name. Required.
		QueryType string
		// Args are the query's arguments.
		Args []any
		// QueryRejectCondition rejects the query, rather than running it,
		// when the workflow is closed (NOT_OPEN) or did not complete
		// successfully (NOT_COMPLETED_CLEANLY).
		QueryRejectCondition enumspb.QueryRejectCondition
		// Header is sent with the query, with what the client's context
		// propagators add.
		Header *commonpb.Header
	}

	// QueryWorkflowWithOptionsResponse is the answer of
	// Client.QueryWorkflowWithOptions: a result or a rejection.
	QueryWorkflowWithOptionsResponse struct {
		// QueryResult is the query handler's answer, unless rejected.
		QueryResult converter.EncodedValue
		// QueryRejected says why the query was rejected, with the
		// workflow's status.
		QueryRejected *querypb.QueryRejected
	}
)

// workflowStartParams are the parts of a start request that ExecuteWorkflow and
// SignalWithStartWorkflow share, already encoded.
type workflowStartParams struct {
	options          StartWorkflowOptions
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
func (c *workflowClient) newWorkflowStartParams(ctx context.Context, options StartWorkflowOptions, workflow any, args []any) (*workflowStartParams, error) {
	if options.TaskQueue == "" {
		return nil, errStartMissingTaskQueue
	}
	if err := base.NegativeOptions("client.StartWorkflowOptions",
		base.Duration("WorkflowExecutionTimeout", options.WorkflowExecutionTimeout), base.Duration("WorkflowRunTimeout", options.WorkflowRunTimeout),
		base.Duration("WorkflowTaskTimeout", options.WorkflowTaskTimeout), base.Duration("StartDelay", options.StartDelay)); err != nil {
		return nil, err
	}
	if err := policy.CheckRetryPolicy(options.RetryPolicy); err != nil {
		return nil, fmt.Errorf("client.StartWorkflowOptions: %w", err)
	}
	workflowType, err := clientWorkflowTypeName(workflow)
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
	if p.memo, err = base.EncodeMemo(p.dc, options.Memo); err != nil {
		return nil, err
	}
	if p.searchAttributes, err = searchattr.EncodeForStart(options.SearchAttributes, options.TypedSearchAttributes); err != nil {
		return nil, err
	}
	if p.header, err = clientOutgoingHeader(ctx, headerOf(ctx), c.propagators); err != nil {
		return nil, err
	}
	if p.userMetadata, err = encodeStartUserMetadata(p.dc, options.StaticSummary, options.StaticDetails); err != nil {
		return nil, err
	}
	return p, nil
}

// clientWorkflowTypeName is the type name of a workflow given as a function or
// as a name.
func clientWorkflowTypeName(workflow any) (string, error) {
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

// workflowDataConverter is the client's data converter as it applies to
// one workflow: told the Go context (converter.ContextAware) and the
// workflow it converts for.
func (c *workflowClient) workflowDataConverter(ctx context.Context, workflowID string) converter.DataConverter {
	dc := c.dataConverter
	if aware, ok := dc.(converter.ContextAware); ok {
		dc = aware.WithContext(ctx)
	}
	return clientSerializationContext(dc, c.namespace, workflowID)
}

// converterFor is the client's data converter for one workflow, outside
// any call (to decode results that arrive later).
func (c *workflowClient) converterFor(workflowID string) converter.DataConverter {
	return clientSerializationContext(c.dataConverter, c.namespace, workflowID)
}

func clientSerializationContext(dc converter.DataConverter, namespace, workflowID string) converter.DataConverter {
	return converter.WithDataConverterSerializationContext(dc, converter.WorkflowSerializationContext{
		Namespace:  namespace,
		WorkflowID: workflowID,
	})
}

// workflowFailureConverter is the client's failure converter for one
// workflow.
func (c *workflowClient) workflowFailureConverter(workflowID string) converter.FailureConverter {
	return converter.WithFailureConverterSerializationContext(c.failureConverter, converter.WorkflowSerializationContext{
		Namespace:  c.namespace,
		WorkflowID: workflowID,
	})
}

// clientOptionalDuration sends zero as "unset", as the official SDK does.
func clientOptionalDuration(d time.Duration) *durationpb.Duration {
	if d == 0 {
		return nil
	}
	return durationpb.New(d)
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
		RequestId:                base.NewUUID(),
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
		VersioningOverride:       versioningOverrideToProto(o.VersioningOverride),
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
		RequestId:                base.NewUUID(),
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
		VersioningOverride:       versioningOverrideToProto(o.VersioningOverride),
	}
}

// ExecuteWorkflow implements Client. The workflow and its arguments are
// checked here; the start request is sent at the end of the interceptor
// chain (clientRoot).
func (c *workflowClient) ExecuteWorkflow(ctx context.Context, options StartWorkflowOptions, workflow any, args ...any) (WorkflowRun, error) {
	if options.ID == "" {
		options.ID = base.NewUUID()
	}
	workflowType, err := clientCheckedWorkflowType(workflow, args)
	if err != nil {
		return nil, fmt.Errorf("ExecuteWorkflow: %w", err)
	}
	return c.interceptor.ExecuteWorkflow(ContextWithNewHeader(ctx), &ClientExecuteWorkflowInput{
		Options:      &options,
		WorkflowType: workflowType,
		Args:         args,
	})
}

// clientCheckedWorkflowType is the type name of a workflow given as a
// function or a name, once its arguments are checked against the function.
func clientCheckedWorkflowType(workflow any, args []any) (string, error) {
	workflowType, err := clientWorkflowTypeName(workflow)
	if err != nil {
		return "", err
	}
	if err := registry.CheckArgs(workflow, args, "workflow"); err != nil {
		return "", err
	}
	return workflowType, nil
}

// SignalWithStartWorkflow implements Client.
func (c *workflowClient) SignalWithStartWorkflow(ctx context.Context, workflowID string, signalName string, signalArg any,
	options StartWorkflowOptions, workflow any, workflowArgs ...any,
) (WorkflowRun, error) {
	if options.ID != "" && options.ID != workflowID {
		return nil, fmt.Errorf("SignalWithStartWorkflow: StartWorkflowOptions.ID %q differs from workflowID %q: leave it empty or make them equal", options.ID, workflowID)
	}
	options.ID = workflowID
	if options.ID == "" {
		options.ID = base.NewUUID()
	}
	workflowType, err := clientCheckedWorkflowType(workflow, workflowArgs)
	if err != nil {
		return nil, fmt.Errorf("SignalWithStartWorkflow: %w", err)
	}
	return c.interceptor.SignalWithStartWorkflow(ContextWithNewHeader(ctx), &ClientSignalWithStartWorkflowInput{
		SignalName:   signalName,
		SignalArg:    signalArg,
		Options:      &options,
		WorkflowType: workflowType,
		Args:         workflowArgs,
	})
}

// SignalWorkflow implements Client.
func (c *workflowClient) SignalWorkflow(ctx context.Context, workflowID string, runID string, signalName string, arg any) error {
	return c.interceptor.SignalWorkflow(ContextWithNewHeader(ctx), &ClientSignalWorkflowInput{
		WorkflowID: workflowID,
		RunID:      runID,
		SignalName: signalName,
		Arg:        arg,
	})
}

// CancelWorkflow implements Client.
func (c *workflowClient) CancelWorkflow(ctx context.Context, workflowID string, runID string) error {
	return c.CancelWorkflowWithOptions(ctx, CancelWorkflowOptions{WorkflowID: workflowID, RunID: runID})
}

// CancelWorkflowWithOptions implements Client.
func (c *workflowClient) CancelWorkflowWithOptions(ctx context.Context, options CancelWorkflowOptions) error {
	return c.interceptor.CancelWorkflow(ctx, &ClientCancelWorkflowInput{
		WorkflowID:          options.WorkflowID,
		RunID:               options.RunID,
		FirstExecutionRunID: options.FirstExecutionRunID,
		Reason:              options.Reason,
	})
}

// TerminateWorkflow implements Client.
func (c *workflowClient) TerminateWorkflow(ctx context.Context, workflowID string, runID string, reason string, details ...any) error {
	return c.TerminateWorkflowWithOptions(ctx, TerminateWorkflowOptions{
		WorkflowID: workflowID,
		RunID:      runID,
		Reason:     reason,
		Details:    details,
	})
}

// TerminateWorkflowWithOptions implements Client.
func (c *workflowClient) TerminateWorkflowWithOptions(ctx context.Context, options TerminateWorkflowOptions) error {
	return c.interceptor.TerminateWorkflow(ctx, &ClientTerminateWorkflowInput{
		WorkflowID:          options.WorkflowID,
		RunID:               options.RunID,
		FirstExecutionRunID: options.FirstExecutionRunID,
		Reason:              options.Reason,
		Details:             options.Details,
	})
}

// QueryWorkflow implements Client.
func (c *workflowClient) QueryWorkflow(ctx context.Context, workflowID string, runID string, queryType string, args ...any) (converter.EncodedValue, error) {
	return c.interceptor.QueryWorkflow(ContextWithNewHeader(ctx), &ClientQueryWorkflowInput{
		WorkflowID: workflowID,
		RunID:      runID,
		QueryType:  queryType,
		Args:       args,
	})
}

// QueryWorkflowWithOptions implements Client. The request's header starts
// the query's header, which interceptors may add to.
func (c *workflowClient) QueryWorkflowWithOptions(ctx context.Context, request *QueryWorkflowWithOptionsRequest) (*QueryWorkflowWithOptionsResponse, error) {
	result, err := c.interceptor.QueryWorkflow(ContextWithHeader(ctx, request.Header), &ClientQueryWorkflowInput{
		WorkflowID:           request.WorkflowID,
		RunID:                request.RunID,
		QueryType:            request.QueryType,
		Args:                 request.Args,
		QueryRejectCondition: request.QueryRejectCondition,
	})
	var rejected *failure.QueryRejectedError
	switch {
	case errors.As(err, &rejected):
		return &QueryWorkflowWithOptionsResponse{QueryRejected: rejected.QueryRejected()}, nil
	case err != nil:
		return nil, err
	}
	return &QueryWorkflowWithOptionsResponse{QueryResult: result}, nil
}

// ResetWorkflowExecution implements Client.
func (c *workflowClient) ResetWorkflowExecution(ctx context.Context, request *workflowservice.ResetWorkflowExecutionRequest) (*workflowservice.ResetWorkflowExecutionResponse, error) {
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	if request.GetNamespace() == "" {
		request.Namespace = c.namespace
	}
	if request.GetRequestId() == "" {
		request.RequestId = base.NewUUID()
	}
	resp, err := c.service.ResetWorkflowExecution(ctx, request)
	if err != nil {
		return nil, wrapCallError(err, "resetting workflow %q (run %q)",
			request.GetWorkflowExecution().GetWorkflowId(), request.GetWorkflowExecution().GetRunId())
	}
	return resp, nil
}

// clientEncodedValue is a converter.EncodedValue: payloads and the converter
// that decodes them.
type clientEncodedValue struct {
	payloads *commonpb.Payloads
	dc       converter.DataConverter
}

// newClientEncodedValue wraps payloads; dc defaults to the default converter.
func newClientEncodedValue(payloads *commonpb.Payloads, dc converter.DataConverter) converter.EncodedValue {
	if dc == nil {
		dc = converter.GetDefaultDataConverter()
	}
	return &clientEncodedValue{payloads: payloads, dc: dc}
}

// HasValue reports whether there is a payload.
func (v *clientEncodedValue) HasValue() bool { return len(v.payloads.GetPayloads()) > 0 }

// Get decodes the first payload into valuePtr.
func (v *clientEncodedValue) Get(valuePtr any) error {
	if !v.HasValue() {
		return failure.ErrNoData
	}
	return v.dc.FromPayloads(v.payloads, valuePtr)
}

// Payloads returns the payloads as received (converter.ValuesPayloads).
func (v *clientEncodedValue) Payloads() *commonpb.Payloads { return v.payloads }

// NewValue wraps payloads returned by the server (a query result, say) for
// decoding with the default data converter.
func NewValue(payloads *commonpb.Payloads) converter.EncodedValue {
	return newClientEncodedValue(payloads, nil)
}

// NewValues wraps payloads returned by the server (heartbeat details in a
// description, say) for decoding with the default data converter.
func NewValues(payloads *commonpb.Payloads) converter.EncodedValues {
	return failure.NewEncodedValues(payloads, nil)
}
