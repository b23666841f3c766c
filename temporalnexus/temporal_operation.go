package temporalnexus

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/nexushandler"
	"github.com/durable-go/sdk/internal/uuid"
	"github.com/durable-go/sdk/workflow"
)

// ErrCannotCancelWorkflowUpdate is what canceling an UpdateWorkflow
// operation returns unless TemporalOperationOptions.CancelWorkflowUpdate
// says otherwise: an update cannot be canceled.
var ErrCannotCancelWorkflowUpdate = &nexus.HandlerError{
	Type:  nexus.HandlerErrorTypeNotImplemented,
	Cause: errors.New("cannot cancel an UpdateWorkflow operation"),
}

// errMultipleAsync is the error of a second asynchronous start in one
// operation invocation.
const errMultipleAsync = "only one async operation can be started per operation invocation"

// StartTemporalOperationOptions are the start request's options, given
// to TemporalOperationOptions.Start (nexus.StartOperationOptions, without
// what only the SDK uses): Header, the request's header (without the
// "content-" fields of the serializer); CallbackURL and CallbackHeader,
// where and how an asynchronous operation's completion is delivered;
// RequestID, which dedupes retried starts; Links, to the caller's history.
//
// NOTE: Experimental
type StartTemporalOperationOptions struct {
	// Header is the request's header.
	Header nexus.Header
	// CallbackURL is where an asynchronous operation's completion goes.
	CallbackURL string
	// CallbackHeader goes with the completion's request.
	CallbackHeader nexus.Header
	// RequestID dedupes retried start requests.
	RequestID string
	// Links point into the caller's history.
	Links []nexus.Link
}

// CancelTemporalWorkflowRunOptions are given to
// TemporalOperationOptions.CancelWorkflowRun: WorkflowID, from the token.
//
// NOTE: Experimental
type CancelTemporalWorkflowRunOptions struct {
	// WorkflowID is the workflow the operation started.
	WorkflowID string
}

// CancelTemporalUpdateWorkflowOptions are given to
// TemporalOperationOptions.CancelWorkflowUpdate: WorkflowID, UpdateID and
// RunID, from the token.
//
// NOTE: Experimental
type CancelTemporalUpdateWorkflowOptions struct {
	// WorkflowID is the updated workflow.
	WorkflowID string
	// UpdateID is the update to cancel.
	UpdateID string
	// RunID is the updated run.
	RunID string
}

// CancelTemporalActivityExecutionOptions are given to
// TemporalOperationOptions.CancelActivityExecution: ActivityID and RunID
// (empty in tokens made before the activity started), from the token.
//
// NOTE: Experimental
type CancelTemporalActivityExecutionOptions struct {
	// ActivityID is the activity the operation started.
	ActivityID string
	// RunID is the activity's run, when the token has it.
	RunID string
}

// TemporalOperationResult is what TemporalOperationOptions.Start
// returns: a synchronous result (NewSyncResult) or an asynchronous
// operation's token (NewAsyncResult), one of the two.
//
// NOTE: Experimental
type TemporalOperationResult[R any] struct {
	sync  *R
	token string
}

// NewSyncResult is a synchronous result.
//
// NOTE: Experimental
func NewSyncResult[R any](value R) TemporalOperationResult[R] {
	return TemporalOperationResult[R]{sync: &value}
}

// NewAsyncResult is an asynchronous operation's token.
//
// NOTE: Experimental
func NewAsyncResult[R any](token string) TemporalOperationResult[R] {
	return TemporalOperationResult[R]{token: token}
}

func (r TemporalOperationResult[R]) handlerResult() (nexus.HandlerStartOperationResult[R], error) {
	switch {
	case r.sync != nil && r.token != "":
		return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "invalid TemporalOperationResult: both sync and token are set")
	case r.sync != nil:
		return &nexus.HandlerStartOperationResultSync[R]{Value: *r.sync}, nil
	case r.token != "":
		return &nexus.HandlerStartOperationResultAsync{OperationToken: r.token}, nil
	}
	return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "invalid TemporalOperationResult: neither sync nor token is set")
}

// NexusClient is the client of one Temporal operation's invocation
// (TemporalOperationOptions.Start); do not keep it beyond that call.
//
// NOTE: Experimental
type NexusClient struct {
	client       client.Client
	options      nexus.StartOperationOptions
	asyncStarted *atomic.Bool
}

// GetWorkflowClient returns the worker's client for what the operation's
// helpers do not cover. Its signals carry the operation's request ID, so
// that a retried Nexus task does not deliver them twice; so only one
// signal may be sent per invocation (a second is a BAD_REQUEST handler
// error), and SignalWithStartWorkflow needs a workflow ID. GetClient's
// signals have neither limit, and are delivered again on a retry.
//
// NOTE: Experimental
func (nc NexusClient) GetWorkflowClient() client.Client { return nc.client }

// operationClient is the client GetWorkflowClient returns.
type operationClient struct {
	client.Client
	requestID string
	signaled  atomic.Bool
}

func (c *operationClient) claimSignal() error {
	if !c.signaled.CompareAndSwap(false, true) {
		return nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "only one signal can be sent per Nexus operation invocation")
	}
	return nil
}

func (c *operationClient) SignalWorkflow(ctx context.Context, workflowID, runID, signalName string, arg any) error {
	if err := c.claimSignal(); err != nil {
		return err
	}
	err := c.Client.SignalWorkflow(clientapi.WithNexusSignalRequestID(ctx, c.requestID), workflowID, runID, signalName, arg)
	if err != nil {
		c.signaled.Store(false)
	}
	return err
}

func (c *operationClient) SignalWithStartWorkflow(ctx context.Context, workflowID, signalName string, signalArg any,
	options client.StartWorkflowOptions, workflow any, workflowArgs ...any) (client.WorkflowRun, error) {
	if workflowID == "" {
		// A fresh ID per call would start a workflow per retried task.
		return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "signalWithStart from a Nexus operation handler requires a workflow ID")
	}
	if err := c.claimSignal(); err != nil {
		return nil, err
	}
	run, err := c.Client.SignalWithStartWorkflow(clientapi.WithNexusSignalRequestID(ctx, c.requestID), workflowID, signalName, signalArg, options, workflow, workflowArgs...)
	if err != nil {
		c.signaled.Store(false)
	}
	return run, err
}

// claimAsync takes the invocation's one asynchronous start.
func (nc NexusClient) claimAsync() error {
	if nc.asyncStarted != nil && !nc.asyncStarted.CompareAndSwap(false, true) {
		return nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, errMultipleAsync)
	}
	return nil
}

func (nc NexusClient) releaseAsync() {
	if nc.asyncStarted != nil {
		nc.asyncStarted.Store(false)
	}
}

// StartWorkflow starts workflow with arg for the operation, with the
// operation's callback, request ID and links (see ExecuteWorkflow), and
// returns its workflow-run token as an asynchronous result. One
// asynchronous start per invocation.
//
// NOTE: Experimental
func StartWorkflow[I, O any, WF func(workflow.Context, I) (O, error)](
	ctx context.Context,
	nc NexusClient,
	workflowOpts client.StartWorkflowOptions,
	workflow WF,
	arg I,
) (TemporalOperationResult[O], error) {
	return StartUntypedWorkflow[O](ctx, nc, workflowOpts, workflow, arg)
}

// StartUntypedWorkflow is StartWorkflow for a workflow given as a
// function of any signature or a type name, with any arguments.
//
// NOTE: Experimental
func StartUntypedWorkflow[R any](
	ctx context.Context,
	nc NexusClient,
	workflowOpts client.StartWorkflowOptions,
	workflow any,
	args ...any,
) (TemporalOperationResult[R], error) {
	if err := nc.claimAsync(); err != nil {
		return TemporalOperationResult[R]{}, err
	}
	handle, err := ExecuteUntypedWorkflow[R](ctx, nc.options, workflowOpts, workflow, args...)
	if err != nil {
		nc.releaseAsync()
		return TemporalOperationResult[R]{}, err
	}
	nexus.AddHandlerLinks(ctx, handle.link())
	return NewAsyncResult[R](handle.token()), nil
}

// TemporalOperationOptions configure an operation backed by Temporal
// (NewTemporalOperation): Name, and Start, which answers synchronously
// (NewSyncResult) or starts a workflow (StartWorkflow) and answers with
// its token; the Cancel functions cancel what a token names, by its kind
// (a workflow run: CancelWorkflow by default; an update: not cancelable by
// default; an activity: see CancelActivityExecution).
//
// NOTE: Experimental
type TemporalOperationOptions[I, O any] struct {
	// Name is the operation's name. Required.
	Name string
	// Start starts the operation. Required.
	Start func(ctx context.Context, nc NexusClient, input I, options StartTemporalOperationOptions) (TemporalOperationResult[O], error)
	// CancelWorkflowRun cancels a workflow-run operation; nil cancels the
	// workflow with the client.
	CancelWorkflowRun func(ctx context.Context, c client.Client, options CancelTemporalWorkflowRunOptions, cancelOptions nexus.CancelOperationOptions) error
	// CancelWorkflowUpdate cancels an UpdateWorkflow operation; nil
	// returns ErrCannotCancelWorkflowUpdate.
	CancelWorkflowUpdate func(ctx context.Context, c client.Client, options CancelTemporalUpdateWorkflowOptions, cancelOptions nexus.CancelOperationOptions) error
	// CancelActivityExecution cancels an activity-execution operation
	// (StartActivity); nil requests the activity's cancellation with the
	// client.
	CancelActivityExecution func(ctx context.Context, c client.Client, options CancelTemporalActivityExecutionOptions, cancelOptions nexus.CancelOperationOptions) error
}

// NewTemporalOperation returns the operation opts describe, or an error
// for options that miss what they need.
//
// NOTE: Experimental
func NewTemporalOperation[I, O any](opts TemporalOperationOptions[I, O]) (nexus.Operation[I, O], error) {
	switch {
	case opts.Name == "":
		return nil, errors.New("invalid options: Name is required")
	case strings.HasPrefix(opts.Name, reservedPrefix):
		return nil, errors.New("invalid options: __temporal_ is a reserved prefix")
	case opts.Start == nil:
		return nil, errors.New("invalid options: Start is required")
	}
	if opts.CancelWorkflowRun == nil {
		opts.CancelWorkflowRun = func(ctx context.Context, c client.Client, o CancelTemporalWorkflowRunOptions, _ nexus.CancelOperationOptions) error {
			return c.CancelWorkflow(ctx, o.WorkflowID, "")
		}
	}
	if opts.CancelWorkflowUpdate == nil {
		opts.CancelWorkflowUpdate = func(context.Context, client.Client, CancelTemporalUpdateWorkflowOptions, nexus.CancelOperationOptions) error {
			return ErrCannotCancelWorkflowUpdate
		}
	}
	if opts.CancelActivityExecution == nil {
		opts.CancelActivityExecution = func(ctx context.Context, c client.Client, o CancelTemporalActivityExecutionOptions, _ nexus.CancelOperationOptions) error {
			return c.GetActivityHandle(client.GetActivityHandleOptions{ActivityID: o.ActivityID, RunID: o.RunID}).Cancel(ctx, client.CancelActivityOptions{})
		}
	}
	return &temporalOperation[I, O]{options: opts}, nil
}

// MustNewTemporalOperation is NewTemporalOperation that panics on
// invalid options.
//
// NOTE: Experimental
func MustNewTemporalOperation[I, O any](opts TemporalOperationOptions[I, O]) nexus.Operation[I, O] {
	op, err := NewTemporalOperation(opts)
	if err != nil {
		panic(err)
	}
	return op
}

type temporalOperation[I, O any] struct {
	nexus.UnimplementedOperation[I, O]
	options TemporalOperationOptions[I, O]
}

func (o *temporalOperation[I, O]) Name() string { return o.options.Name }

func (o *temporalOperation[I, O]) Start(ctx context.Context, input I, options nexus.StartOperationOptions) (nexus.HandlerStartOperationResult[O], error) {
	oc, ok := nexushandler.FromContext(ctx)
	if !ok {
		return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "internal error")
	}
	if options.RequestID == "" {
		options.RequestID = uuid.New()
	}
	oc.RequestID = options.RequestID
	nc := NexusClient{
		client:       &operationClient{Client: GetClient(ctx), requestID: options.RequestID},
		options:      options,
		asyncStarted: &atomic.Bool{},
	}
	result, err := o.options.Start(ctx, nc, input, StartTemporalOperationOptions{
		Header: options.Header, CallbackURL: options.CallbackURL, CallbackHeader: options.CallbackHeader,
		RequestID: options.RequestID, Links: options.Links,
	})
	if err != nil {
		return nil, err
	}
	return result.handlerResult()
}

func (o *temporalOperation[I, O]) Cancel(ctx context.Context, token string, options nexus.CancelOperationOptions) error {
	t, err := parseOperationToken(token)
	if err != nil {
		return &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Message: "invalid operation token", Cause: err}
	}
	c := GetClient(ctx)
	switch t.Kind {
	case tokenKindWorkflowRun:
		return o.options.CancelWorkflowRun(ctx, c, CancelTemporalWorkflowRunOptions{WorkflowID: t.WorkflowID}, options)
	case tokenKindUpdateWorkflow:
		return o.options.CancelWorkflowUpdate(ctx, c, CancelTemporalUpdateWorkflowOptions{WorkflowID: t.WorkflowID, RunID: t.RunID, UpdateID: t.UpdateID}, options)
	default:
		return o.options.CancelActivityExecution(ctx, c, CancelTemporalActivityExecutionOptions{ActivityID: t.ActivityID, RunID: t.RunID}, options)
	}
}

// StartUpdateWorkflow sends an update for the operation, with the
// operation's callback, request ID (the update's ID by default) and
// links, and returns its result when the update completed already, or
// the UpdateWorkflow token (an asynchronous result the callback
// completes). updateWorkflowOptions need a WorkflowID, an UpdateName and
// WaitForStage WorkflowUpdateStageAccepted; the request needs a callback
// URL. One asynchronous start per invocation.
//
// NOTE: Experimental
func StartUpdateWorkflow[R any](
	ctx context.Context,
	nc NexusClient,
	updateWorkflowOptions client.UpdateWorkflowOptions,
) (TemporalOperationResult[R], error) {
	var none TemporalOperationResult[R]
	o := updateWorkflowOptions
	if o.UpdateID == "" {
		o.UpdateID = nc.options.RequestID
	}
	switch {
	case o.WorkflowID == "":
		return none, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "invalid update request: %v", errors.New("workflow ID cannot be empty"))
	case o.UpdateName == "":
		return none, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "invalid update request: %v", errors.New("update name cannot be empty"))
	case o.WaitForStage != client.WorkflowUpdateStageAccepted:
		return none, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "invalid update request: %v",
			errors.New("nexus op workflow updates only support WorkflowUpdateStageAccepted for async updates"))
	}
	oc, ok := nexushandler.FromContext(ctx)
	if !ok {
		return none, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "internal error")
	}
	if nc.options.CallbackURL == "" {
		return none, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "callback URL required for async UpdateWorkflow operation invocations")
	}
	if nc.asyncStarted == nil {
		return none, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "unexpected error initializing async UpdateWorkflow operation")
	}
	if err := nc.claimAsync(); err != nil {
		return none, err
	}
	started := false
	defer func() {
		if !started {
			nc.releaseAsync()
		}
	}()
	token, err := updateOperationToken(oc.Namespace, o.WorkflowID, o.RunID, o.UpdateID)
	if err != nil {
		return none, err
	}
	links, err := requestLinks(nc.options.Links, GetLogger(ctx).Warn)
	if err != nil {
		return none, &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Message: "could not convert links for update workflow", Cause: err}
	}
	start := &clientapi.NexusStart{
		RequestID:            nc.options.RequestID,
		Links:                links,
		Callbacks:            completionCallbacks(nc.options, links, map[string]string{nexus.HeaderOperationToken: token}),
		SerializationContext: propagatedContext(oc),
	}
	handle, err := GetClient(ctx).UpdateWorkflow(clientapi.WithNexusStart(ctx, start), o)
	if err != nil {
		return none, err
	}
	if start.Link == nil {
		return none, &nexus.HandlerError{Type: nexus.HandlerErrorTypeInternal, Cause: errors.New("unexpected error retrieving links from UpdateWorkflow response")}
	}
	nexus.AddHandlerLinks(ctx, ConvertCommonLinkToNexusLink(start.Link))
	if start.UpdateCompleted {
		var result R
		if err := handle.Get(ctx, &result); err != nil {
			return none, &nexus.OperationError{State: nexus.OperationStateFailed, Message: err.Error(), Cause: err}
		}
		return NewSyncResult(result), nil
	}
	started = true
	if token, err = updateOperationToken(oc.Namespace, o.WorkflowID, handle.RunID(), o.UpdateID); err != nil {
		return none, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "unexpected error reconstructing token %v", err)
	}
	return NewAsyncResult[R](token), nil
}
