// Package temporalnexus exposes Temporal workflows as Nexus operations,
// and gives operation handlers what the worker that runs them knows (its
// client, logger and metrics, the operation's info).
//
// Nexus RPC is a service framework for operations that may last longer
// than a request: a workflow calls an operation of a service behind an
// endpoint (workflow.NewNexusClient), and a worker that registered the
// service (worker.Worker.RegisterNexusService) runs its handler. A
// synchronous operation (nexus.NewSyncOperation) answers at once; one made
// with NewWorkflowRunOperation starts a workflow, and the caller's
// operation completes when that workflow does.
//
// See the Nexus over HTTP specification
// (https://github.com/nexus-rpc/api/blob/main/SPEC.md) and the Nexus Go
// SDK (https://github.com/nexus-rpc/sdk-go).
package temporalnexus

import (
	"context"
	"errors"
	"strings"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	nexuspb "go.temporal.io/api/nexus/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/nexushandler"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/workflow"
)

// OperationInfo describes the Nexus operation a handler runs: Namespace
// and TaskQueue, those of the worker that runs it, and Endpoint, the
// endpoint the caller addressed (servers before 1.30 leave it empty).
type OperationInfo = internal.NexusOperationInfo

// IsNexusOperation reports whether ctx is the context of a Nexus
// operation's handler.
func IsNexusOperation(ctx context.Context) bool {
	return internal.IsNexusOperation(ctx)
}

// GetOperationInfo returns the info of the Nexus operation whose handler
// ctx is the context of. It panics with any other context.
func GetOperationInfo(ctx context.Context) OperationInfo {
	return internal.GetNexusOperationInfo(ctx)
}

// GetMetricsHandler returns the metrics handler of a Nexus operation's
// handler: the worker's, tagged with the operation's service, name and
// task queue. It panics outside an operation's handler.
func GetMetricsHandler(ctx context.Context) client.MetricsHandler {
	return internal.GetNexusOperationMetricsHandler(ctx)
}

// GetLogger returns the logger of a Nexus operation's handler: the
// worker's, with the operation's service, name and task queue. It panics
// outside an operation's handler.
func GetLogger(ctx context.Context) log.Logger {
	return internal.GetNexusOperationLogger(ctx)
}

// GetClient returns the client the worker that runs the operation was
// made with. It panics outside an operation's handler.
func GetClient(ctx context.Context) client.Client {
	return internal.GetNexusOperationClient(ctx)
}

// WorkflowRunOperationOptions are the options of
// NewWorkflowRunOperationWithOptions.
type WorkflowRunOperationOptions[I, O any] struct {
	// Name is the operation's name. Required.
	Name string
	// Workflow is the workflow the operation starts, with the operation's
	// input as its argument; its type name is the one it is registered
	// under with the worker. With GetOptions; not with Handler.
	Workflow func(workflow.Context, I) (O, error)
	// GetOptions returns the options the workflow starts with. Their ID
	// must be derived from the input, so that a retried start request
	// finds the workflow started already. TaskQueue defaults to the
	// worker's. WorkflowExecutionErrorWhenAlreadyStarted is always true.
	// WorkflowIDConflictPolicy fails the start of a workflow whose ID is
	// running (the default); UseExisting attaches the caller to it, and
	// every caller attached hears of its completion. With Workflow.
	GetOptions func(context.Context, I, nexus.StartOperationOptions) (client.StartWorkflowOptions, error)
	// Handler starts the workflow itself (with ExecuteWorkflow or
	// ExecuteUntypedWorkflow), for a workflow whose input is not the
	// operation's. Not with Workflow and GetOptions.
	Handler func(context.Context, I, nexus.StartOperationOptions) (WorkflowHandle[O], error)
}

// workflowRunOperation is an operation that starts a workflow and
// completes with it.
type workflowRunOperation[I, O any] struct {
	nexus.UnimplementedOperation[I, O]
	options WorkflowRunOperationOptions[I, O]
}

// reservedPrefix starts the names of Temporal's own operations.
const reservedPrefix = "__temporal_"

// NewWorkflowRunOperation returns an operation named name that starts
// workflow, with the operation's input as its argument and the options
// getOptions returns (see WorkflowRunOperationOptions.GetOptions), and
// completes when it does. A name that starts with "__temporal_" panics.
func NewWorkflowRunOperation[I, O any](
	name string,
	workflow func(workflow.Context, I) (O, error),
	getOptions func(context.Context, I, nexus.StartOperationOptions) (client.StartWorkflowOptions, error),
) nexus.Operation[I, O] {
	if strings.HasPrefix(name, reservedPrefix) {
		panic(errors.New("temporalnexus NewWorkflowRunOperation __temporal_ is an invalid name"))
	}
	return &workflowRunOperation[I, O]{options: WorkflowRunOperationOptions[I, O]{Name: name, Workflow: workflow, GetOptions: getOptions}}
}

// NewWorkflowRunOperationWithOptions returns an operation that starts a
// workflow and completes when it does (see WorkflowRunOperationOptions),
// or an error for options that are missing or contradict each other.
func NewWorkflowRunOperationWithOptions[I, O any](options WorkflowRunOperationOptions[I, O]) (nexus.Operation[I, O], error) {
	switch {
	case options.Name == "":
		return nil, errors.New("invalid options: Name is required")
	case strings.HasPrefix(options.Name, reservedPrefix):
		return nil, errors.New("invalid options: __temporal_ is a reserved prefix")
	case options.Workflow == nil && options.GetOptions == nil && options.Handler == nil:
		return nil, errors.New("invalid options: either GetOptions and Workflow, or Handler are required")
	case (options.Workflow == nil) != (options.GetOptions == nil):
		return nil, errors.New("invalid options: must provide both Workflow and GetOptions")
	case options.Handler != nil && options.Workflow != nil:
		return nil, errors.New("invalid options: Workflow is mutually exclusive with Handler")
	}
	return &workflowRunOperation[I, O]{options: options}, nil
}

// MustNewWorkflowRunOperationWithOptions is
// NewWorkflowRunOperationWithOptions that panics on invalid options.
func MustNewWorkflowRunOperationWithOptions[I, O any](options WorkflowRunOperationOptions[I, O]) nexus.Operation[I, O] {
	op, err := NewWorkflowRunOperationWithOptions(options)
	if err != nil {
		panic(err)
	}
	return op
}

// Name is the operation's name.
func (o *workflowRunOperation[I, O]) Name() string { return o.options.Name }

// Start starts the workflow and answers with the operation's token and a
// link to the workflow's start.
func (o *workflowRunOperation[I, O]) Start(ctx context.Context, input I, options nexus.StartOperationOptions) (nexus.HandlerStartOperationResult[O], error) {
	if _, ok := nexushandler.FromContext(ctx); !ok {
		return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "internal error")
	}
	var handle WorkflowHandle[O]
	if o.options.Handler != nil {
		h, err := o.options.Handler(ctx, input, options)
		if err != nil {
			return nil, err
		}
		handle = h
	} else {
		startOptions, err := o.options.GetOptions(ctx, input, options)
		if err != nil {
			return nil, err
		}
		if handle, err = ExecuteWorkflow(ctx, options, startOptions, o.options.Workflow, input); err != nil {
			return nil, err
		}
	}
	nexus.AddHandlerLinks(ctx, handle.link())
	return &nexus.HandlerStartOperationResultAsync{OperationToken: handle.token()}, nil
}

// Cancel cancels the workflow the token names (its current run).
func (o *workflowRunOperation[I, O]) Cancel(ctx context.Context, token string, _ nexus.CancelOperationOptions) error {
	t, err := parseWorkflowRunOperationToken(token)
	if err != nil {
		return &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Message: "invalid operation token", Cause: err}
	}
	return GetClient(ctx).CancelWorkflow(ctx, t.WorkflowID, "")
}

// WorkflowHandle is the workflow run that backs a Nexus operation, as
// ExecuteWorkflow and ExecuteUntypedWorkflow start it: ID is its workflow
// ID, RunID its run ID. Only this package implements it.
type WorkflowHandle[T any] interface {
	// ID is the workflow's ID.
	ID() string
	// RunID is the workflow's run ID.
	RunID() string

	link() nexus.Link
	token() string
	typeMarker(T)
}

type workflowHandle[T any] struct {
	namespace, id, runID string
	startedLink          *commonpb.Link // the server's, when it returns one
	operationToken       string
}

func (h workflowHandle[T]) ID() string    { return h.id }
func (h workflowHandle[T]) RunID() string { return h.runID }
func (h workflowHandle[T]) token() string { return h.operationToken }
func (h workflowHandle[T]) typeMarker(T)  {}

// link is the link to the workflow's start event, for the caller's
// history: the server's, or one to the workflow's started event.
func (h workflowHandle[T]) link() nexus.Link {
	event := h.startedLink.GetWorkflowEvent()
	if event == nil {
		event = &commonpb.Link_WorkflowEvent{
			Namespace:  h.namespace,
			WorkflowId: h.id,
			RunId:      h.runID,
			Reference: &commonpb.Link_WorkflowEvent_EventRef{EventRef: &commonpb.Link_WorkflowEvent_EventReference{
				EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
			}},
		}
	}
	return ConvertLinkWorkflowEventToNexusLink(event)
}

// ExecuteWorkflow starts workflow with arg for a Nexus operation (in a
// WorkflowRunOperationOptions.Handler), with the operation's callback,
// request ID and links, so that the caller's operation completes when
// the workflow (its last run, after continue-as-new and retries) does.
func ExecuteWorkflow[I, O any, WF func(workflow.Context, I) (O, error)](
	ctx context.Context,
	nexusOptions nexus.StartOperationOptions,
	startWorkflowOptions client.StartWorkflowOptions,
	workflow WF,
	arg I,
) (WorkflowHandle[O], error) {
	return ExecuteUntypedWorkflow[O](ctx, nexusOptions, startWorkflowOptions, workflow, arg)
}

// ExecuteUntypedWorkflow is ExecuteWorkflow for a workflow given as a
// function of any signature or as a type name, with any arguments.
// startWorkflowOptions must have an ID; TaskQueue defaults to the
// worker's.
func ExecuteUntypedWorkflow[R any](
	ctx context.Context,
	nexusOptions nexus.StartOperationOptions,
	startWorkflowOptions client.StartWorkflowOptions,
	workflow any,
	args ...any,
) (WorkflowHandle[R], error) {
	oc, ok := nexushandler.FromContext(ctx)
	if !ok {
		return nil, nexus.NewHandlerErrorf(nexus.HandlerErrorTypeInternal, "internal error")
	}
	workflowType, err := oc.ResolveWorkflowName(workflow)
	if err != nil {
		panic(err)
	}
	if startWorkflowOptions.TaskQueue == "" {
		startWorkflowOptions.TaskQueue = oc.TaskQueue
	}
	if startWorkflowOptions.ID == "" {
		return nil, errMissingWorkflowID
	}
	links, err := requestLinks(nexusOptions.Links, GetLogger(ctx).Warn)
	if err != nil {
		return nil, &nexus.HandlerError{Type: nexus.HandlerErrorTypeBadRequest, Message: "could not convert links for workflow start", Cause: err}
	}
	token, err := workflowRunOperationToken(oc.Namespace, startWorkflowOptions.ID)
	if err != nil {
		return nil, err
	}
	start := &clientapi.NexusStart{RequestID: nexusOptions.RequestID, Links: links, SerializationContext: propagatedContext(oc)}
	if nexusOptions.CallbackURL != "" {
		// "nexus-operation-id" too, for servers before 1.27.
		start.Callbacks = completionCallbacks(nexusOptions, links,
			map[string]string{"nexus-operation-id": token, nexus.HeaderOperationToken: token})
	}
	startWorkflowOptions.WorkflowExecutionErrorWhenAlreadyStarted = true
	run, err := GetClient(ctx).ExecuteWorkflow(clientapi.WithNexusStart(ctx, start), startWorkflowOptions, workflowType, args...)
	if err != nil {
		return nil, err
	}
	return workflowHandle[R]{namespace: oc.Namespace, id: run.GetID(), runID: run.GetRunID(), startedLink: start.Link, operationToken: token}, nil
}

// propagatedContext is the operation's serialization context as a start
// or update request carries it.
func propagatedContext(oc *nexushandler.OperationContext) *nexuspb.PropagatedSerializationContext {
	sc := oc.SerializationContext()
	return &nexuspb.PropagatedSerializationContext{Endpoint: sc.Endpoint, Service: sc.Service, Operation: sc.Operation}
}

// errMissingWorkflowID is go.temporal.io/sdk's error for a start without
// a workflow ID: one derived from the operation's input lets a retried
// start find the workflow it started.
var errMissingWorkflowID = errors.New("workflow ID is unset for Nexus operation")
