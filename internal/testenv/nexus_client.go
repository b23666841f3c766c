package testenv

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/clientimpl"
	"github.com/durable-go/sdk/internal/memo"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/searchattr"
)

// nexusClient is the client a Nexus operation's handler gets in the test
// environment (temporalnexus.GetClient): it starts workflows in the
// environment's server (which is what workflow-run operations need, their
// callbacks included), gets, signals, cancels and terminates them.
// go.temporal.io/sdk's only starts and cancels. Its other methods are not
// available: calling one panics on the nil Client it embeds (the task
// handler turns that into an INTERNAL handler error), as
// go.temporal.io/sdk's panics with "not implemented".
type nexusClient struct {
	clientapi.Client
	env *TestWorkflowEnvironment
}

// ExecuteWorkflow starts a workflow in the environment's server, on the
// environment's worker; a Nexus operation's start (clientapi.NexusStart)
// goes with it: its callbacks, links and serialization context.
func (c *nexusClient) ExecuteWorkflow(ctx context.Context, options clientapi.StartWorkflowOptions, workflow any, args ...any) (clientapi.WorkflowRun, error) {
	e := c.env
	if options.ID == "" {
		return nil, errors.New("the test environment's client starts workflows with an ID only: set StartWorkflowOptions.ID")
	}
	typeName, err := clientimpl.WorkflowTypeName(workflow)
	if err != nil {
		return nil, err
	}
	if name := e.registry.WorkflowTypeOf(workflow); name != "" {
		typeName = name
	}
	// A server would start it and let its tasks fail until a worker knows
	// it; the test's one worker never will.
	if _, err := e.registry.Workflow(typeName); err != nil {
		return nil, fmt.Errorf("the test environment cannot start the workflow: %v", err)
	}
	dc, _ := e.workflowConverters(options.ID)
	input, err := registry.EncodeArgs(dc, args)
	if err != nil {
		return nil, fmt.Errorf("workflow %q: %w", typeName, err)
	}
	encodedMemo, err := memo.Encode(e.dc, options.Memo)
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 the deprecated untyped search attributes still start a workflow, as in go.temporal.io/sdk.
	sa, err := searchattr.EncodeForStart(options.SearchAttributes, options.TypedSearchAttributes)
	if err != nil {
		return nil, err
	}
	taskQueue := options.TaskQueue
	if taskQueue == "" {
		taskQueue = e.workerTaskQueue()
	}
	attrs := &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType:             &commonpb.WorkflowType{Name: typeName},
		TaskQueue:                &taskqueuepb.TaskQueue{Name: taskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
		Input:                    input,
		WorkflowExecutionTimeout: durationOrNil(options.WorkflowExecutionTimeout),
		WorkflowRunTimeout:       durationOrNil(options.WorkflowRunTimeout),
		WorkflowTaskTimeout:      durationOrNil(cmp.Or(options.WorkflowTaskTimeout, testWorkflowTaskTimeout)),
		Identity:                 e.identity,
		Memo:                     encodedMemo,
		SearchAttributes:         sa,
		RetryPolicy:              policy.RetryPolicyToProto(options.RetryPolicy),
		CronSchedule:             options.CronSchedule,
		Priority:                 policy.PriorityToProto(options.Priority),
		FirstWorkflowTaskBackoff: durationOrNil(options.StartDelay),
	}
	start := clientapi.NexusStartOf(ctx)
	if start != nil {
		attrs.CompletionCallbacks = start.Callbacks
		attrs.PropagatedNexusSerializationContext = start.SerializationContext
	}
	execution, err := e.server.StartWorkflow(options.ID, "", attrs)
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	switch {
	case errors.As(err, &already) && !options.WorkflowExecutionErrorWhenAlreadyStarted:
		execution = &commonpb.WorkflowExecution{WorkflowId: options.ID, RunId: already.RunId}
	case err != nil:
		return nil, err
	}
	if start != nil {
		start.Link = &commonpb.Link{Variant: &commonpb.Link_WorkflowEvent_{WorkflowEvent: &commonpb.Link_WorkflowEvent{
			Namespace: testNamespace, WorkflowId: execution.GetWorkflowId(), RunId: execution.GetRunId(),
			Reference: &commonpb.Link_WorkflowEvent_EventRef{EventRef: &commonpb.Link_WorkflowEvent_EventReference{
				EventId: 1, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED}},
		}}}
	}
	return &nexusClientRun{env: e, execution: execution}, nil
}

// GetWorkflow returns a run of the environment (the workflow's newest for
// an empty runID).
func (c *nexusClient) GetWorkflow(_ context.Context, workflowID, runID string) clientapi.WorkflowRun {
	return &nexusClientRun{env: c.env, execution: &commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID}}
}

// SignalWorkflow signals a workflow of the environment.
func (c *nexusClient) SignalWorkflow(_ context.Context, workflowID, runID, signalName string, arg any) error {
	dc, _ := c.env.workflowConverters(workflowID)
	input, err := dc.ToPayloads(arg)
	if err != nil {
		return fmt.Errorf("signal %q: %w", signalName, err)
	}
	return c.env.server.Signal(&commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID}, signalName, input, nil, c.env.identity, false)
}

// TerminateWorkflow terminates a workflow of the environment.
func (c *nexusClient) TerminateWorkflow(_ context.Context, workflowID, runID, reason string, _ ...any) error {
	return c.env.server.Terminate(&commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID}, reason, nil, c.env.identity)
}

// CancelWorkflow asks a workflow of the environment to cancel itself.
func (c *nexusClient) CancelWorkflow(_ context.Context, workflowID, runID string) error {
	return c.env.server.RequestCancel(&commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID}, c.env.identity, "")
}

// CancelWorkflowWithOptions is CancelWorkflow.
func (c *nexusClient) CancelWorkflowWithOptions(ctx context.Context, options clientapi.CancelWorkflowOptions) error {
	return c.CancelWorkflow(ctx, options.WorkflowID, options.RunID)
}

// nexusClientRun is a run the nexusClient started.
type nexusClientRun struct {
	env       *TestWorkflowEnvironment
	execution *commonpb.WorkflowExecution
}

func (r *nexusClientRun) GetID() string                  { return r.execution.GetWorkflowId() }
func (r *nexusClientRun) GetRunID() string               { return r.execution.GetRunId() }
func (r *nexusClientRun) GetFirstExecutionRunID() string { return r.execution.GetRunId() }

// Get waits for the run to close and reads its outcome (this run's: the
// test environment does not follow it to later runs here).
func (r *nexusClientRun) Get(ctx context.Context, valuePtr any) error {
	return r.GetWithOptions(ctx, valuePtr, clientapi.WorkflowRunGetOptions{})
}

func (r *nexusClientRun) GetWithOptions(ctx context.Context, valuePtr any, _ clientapi.WorkflowRunGetOptions) error {
	closed, _, err := r.env.server.Closed(r.execution)
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-closed:
	}
	h, err := r.env.server.History(r.execution)
	if err != nil {
		return err
	}
	dc, fc := r.env.workflowConverters(r.GetID())
	result, runErr, err := clientimpl.RunOutcome(h.GetEvents()[len(h.GetEvents())-1], dc, fc)
	if err != nil || runErr != nil {
		return errors.Join(err, runErr)
	}
	if valuePtr == nil || result == nil {
		return nil
	}
	return dc.FromPayloads(result, valuePtr)
}
