package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/rpc"
)

// clientWorkflowRun implements WorkflowRun.
type clientWorkflowRun struct {
	client       *workflowClient
	workflowID   string
	workflowType string
	firstRunID   string
	dc           converter.DataConverter
	fc           converter.FailureConverter

	mu    sync.Mutex
	runID string
	// resultRunID is the run the next Get starts from, as the interceptors
	// see it: the run the handle was made with (empty for GetWorkflow
	// without one, even once resolved), then the last run Get followed to.
	resultRunID string
	// resolveRunID, when set, finds the current run of a handle made
	// without a run ID; it runs once, on first need, with the context of
	// the call that needs it (GetRunID has none and uses resolveCtx, the
	// context GetWorkflow was given, as the official SDK does).
	resolveRunID func(context.Context) string
	resolveCtx   context.Context
	// requestTags tag the request metrics of Get's history polls, as
	// those of the start that made the run (nil: none).
	requestTags map[string]string
}

// runHandle is the client's handle to a run of workflowID, the
// WorkflowRun that ExecuteWorkflow, GetWorkflow and update-with-start
// return.
func (c *workflowClient) runHandle(workflowID, workflowType, runID, firstRunID string) *clientWorkflowRun {
	return &clientWorkflowRun{
		client:       c,
		workflowID:   workflowID,
		workflowType: workflowType,
		firstRunID:   firstRunID,
		runID:        runID,
		resultRunID:  runID,
		dc:           c.converterFor(workflowID),
		fc:           c.workflowFailureConverter(workflowID),
	}
}

// GetWorkflow implements Client.
func (c *workflowClient) GetWorkflow(ctx context.Context, workflowID string, runID string) clientapi.WorkflowRun {
	return c.interceptor.GetWorkflowRun(ctx, &clientapi.ClientGetWorkflowRunInput{WorkflowID: workflowID, RunID: runID})
}

// GetWorkflowRun implements ClientOutboundInterceptor: GetWorkflow's
// handle, made without a request.
func (r *clientRoot) GetWorkflowRun(ctx context.Context, in *clientapi.ClientGetWorkflowRunInput) clientapi.WorkflowRun {
	return r.c.workflowHandle(ctx, in.WorkflowID, in.RunID)
}

// workflowHandle is the handle to run runID of workflowID, or, runID
// empty, to the run current when the handle is first used.
func (c *workflowClient) workflowHandle(ctx context.Context, workflowID string, runID string) *clientWorkflowRun {
	run := c.runHandle(workflowID, "", runID, "")
	if runID == "" {
		// Pin the handle to the run that is current when first used, so
		// that Get follows that run's chain and errors name it.
		run.resolveCtx = ctx
		run.resolveRunID = func(ctx context.Context) string {
			resp, err := c.DescribeWorkflowExecution(ctx, workflowID, "")
			if err != nil {
				// Leave it empty: the server then picks the current run,
				// and reports a missing workflow itself.
				return ""
			}
			return resp.GetWorkflowExecutionInfo().GetExecution().GetRunId()
		}
	}
	return run
}

// GetID implements WorkflowRun.
func (r *clientWorkflowRun) GetID() string { return r.workflowID }

// GetFirstExecutionRunID implements WorkflowRun.
func (r *clientWorkflowRun) GetFirstExecutionRunID() string { return r.firstRunID }

// GetRunID implements WorkflowRun.
func (r *clientWorkflowRun) GetRunID() string { return r.currentRunID(r.resolveCtx) }

func (r *clientWorkflowRun) currentRunID(ctx context.Context) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.resolveRunID != nil {
		r.runID = r.resolveRunID(ctx)
		r.resolveRunID = nil
	}
	return r.runID
}

// followedTo moves the handle to runID, the run that carries on the
// workflow.
func (r *clientWorkflowRun) followedTo(runID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runID = runID
	r.resultRunID = runID
}

func (r *clientWorkflowRun) nextResultRunID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.resultRunID
}

// Get implements WorkflowRun.
func (r *clientWorkflowRun) Get(ctx context.Context, valuePtr any) error {
	return r.GetWithOptions(ctx, valuePtr, clientapi.WorkflowRunGetOptions{})
}

// GetWithOptions implements WorkflowRun.
// The interceptors see the call whatever valuePtr is, as the official
// SDK's do: it is checked once the outcome is known.
func (r *clientWorkflowRun) GetWithOptions(ctx context.Context, valuePtr any, options clientapi.WorkflowRunGetOptions) error {
	in := clientapi.NewClientGetWorkflowResultInput(r.workflowID, r.nextResultRunID(), options, r)
	out, err := r.client.interceptor.GetWorkflowResult(ctx, in)
	switch {
	case err != nil:
		return err
	case out.Error != nil:
		return out.Error
	case valuePtr == nil || out.Result == nil:
		return nil
	case reflect.TypeOf(valuePtr).Kind() != reflect.Pointer:
		return fmt.Errorf("WorkflowRun.Get: valuePtr must be a pointer, not %T", valuePtr)
	}
	return out.Result.Get(valuePtr)
}

// GetWorkflowResult implements ClientOutboundInterceptor: it waits on the
// handle that made the call, or, if an interceptor redirected the input
// to another workflow or run, on a handle of its own.
func (r *clientRoot) GetWorkflowResult(ctx context.Context, in *clientapi.ClientGetWorkflowResultInput) (*clientapi.ClientGetWorkflowResultOutput, error) {
	run, _ := clientapi.ClientGetWorkflowResultHandle(in).(*clientWorkflowRun)
	if run == nil || run.client != r.c || in.WorkflowID != run.workflowID || in.RunID != run.nextResultRunID() {
		run = r.c.workflowHandle(ctx, in.WorkflowID, in.RunID)
	}
	return run.waitOutcome(ctx, in.Options)
}

// waitOutcome waits for the run to close, following the runs that carry
// the workflow on unless told not to, and moving the handle along them.
// The workflow's failure is the output's Error; err is a failure to learn
// the outcome.
func (r *clientWorkflowRun) waitOutcome(ctx context.Context, options clientapi.WorkflowRunGetOptions) (*clientapi.ClientGetWorkflowResultOutput, error) {
	runID := r.currentRunID(ctx)
	ctx = withRequestTags(ctx, r.requestTags)
	for {
		event, err := r.client.closeEvent(ctx, r.workflowID, runID)
		if err != nil {
			return nil, err
		}
		outcome, err := readRunCloseEvent(event, r.dc, r.fc)
		if err != nil {
			return nil, fmt.Errorf("workflow %q run %s: %w", r.workflowID, runID, err)
		}
		if outcome.nextRunID != "" && !options.DisableFollowingRuns {
			runID = outcome.nextRunID
			r.followedTo(runID)
			continue
		}
		switch {
		case outcome.continuedAsNew != nil:
			return &clientapi.ClientGetWorkflowResultOutput{Error: continueAsNewErrorFrom(outcome.continuedAsNew)}, nil
		case outcome.err != nil:
			return &clientapi.ClientGetWorkflowResultOutput{Error: failure.NewWorkflowExecutionError(r.workflowID, runID, r.workflowType, outcome.err)}, nil
		case len(outcome.result.GetPayloads()) == 0:
			return &clientapi.ClientGetWorkflowResultOutput{}, nil
		}
		return &clientapi.ClientGetWorkflowResultOutput{Result: failure.NewEncodedValue(outcome.result, r.dc)}, nil
	}
}

// runCloseOutcome is what a run's close event says.
type runCloseOutcome struct {
	// result is the completed run's result.
	result *commonpb.Payloads
	// err is why the run did not complete: the workflow's error, or a
	// canceled, terminated or timeout error.
	err error
	// nextRunID is the run that carries on the workflow (continue-as-new,
	// retry, next cron run), if any.
	nextRunID string
	// continuedAsNew describes the new run when the run continued as new.
	continuedAsNew *historypb.WorkflowExecutionContinuedAsNewEventAttributes
}

// serverIdentity is the identity of the events the server writes on its
// own account, such as the termination of a workflow over a limit.
const serverIdentity = "history-service"

// readRunCloseEvent interprets a run's close event the way every SDK does.
func readRunCloseEvent(event *historypb.HistoryEvent, dc converter.DataConverter, fc converter.FailureConverter) (runCloseOutcome, error) {
	switch event.GetEventType() {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
		a := event.GetWorkflowExecutionCompletedEventAttributes()
		return runCloseOutcome{result: a.GetResult(), nextRunID: a.GetNewExecutionRunId()}, nil
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
		a := event.GetWorkflowExecutionFailedEventAttributes()
		return runCloseOutcome{err: fc.FailureToError(a.GetFailure()), nextRunID: a.GetNewExecutionRunId()}, nil
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
		a := event.GetWorkflowExecutionCanceledEventAttributes()
		return runCloseOutcome{err: failure.NewCanceledError(failure.NewEncodedValues(a.GetDetails(), dc))}, nil
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
		a := event.GetWorkflowExecutionTerminatedEventAttributes()
		if explained := rpc.ExplainServerLimit(a.GetReason()); explained != "" && a.GetIdentity() == serverIdentity {
			return runCloseOutcome{err: failure.NewServerTerminatedError(explained)}, nil
		}
		return runCloseOutcome{err: failure.NewTerminatedError()}, nil
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
		a := event.GetWorkflowExecutionTimedOutEventAttributes()
		// The event does not say which timeout fired; the official SDK
		// reports start-to-close, and so does this one.
		timeout := failure.NewTimeoutError("Workflow timeout", enumspb.TIMEOUT_TYPE_START_TO_CLOSE, nil)
		return runCloseOutcome{err: timeout, nextRunID: a.GetNewExecutionRunId()}, nil
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		a := event.GetWorkflowExecutionContinuedAsNewEventAttributes()
		return runCloseOutcome{nextRunID: a.GetNewExecutionRunId(), continuedAsNew: a}, nil
	}
	return runCloseOutcome{}, fmt.Errorf("expected a close event, got %v", event.GetEventType())
}

// RunOutcome reads how a run ended from its close event, as
// WorkflowRun.Get does: its result, or runErr, what the run ended with
// (its failure, a cancellation, a timeout, a termination, the
// ContinueAsNewError of a run that continued as new). err reports an
// event that closes no run. The test environment reads its runs' ends
// with it.
func RunOutcome(closeEvent *historypb.HistoryEvent, dc converter.DataConverter, fc converter.FailureConverter) (result *commonpb.Payloads, runErr error, err error) {
	outcome, err := readRunCloseEvent(closeEvent, dc, fc)
	switch {
	case err != nil:
		return nil, nil, err
	case outcome.continuedAsNew != nil:
		return nil, continueAsNewErrorFrom(outcome.continuedAsNew), nil
	}
	return outcome.result, outcome.err, nil
}

// continueAsNewErrorFrom is what Get returns, as the official SDK does,
// for a run that continued as new when it is told not to follow: the
// error a workflow returns to continue as new, describing the new run.
func continueAsNewErrorFrom(a *historypb.WorkflowExecutionContinuedAsNewEventAttributes) *internal.ContinueAsNewError {
	return &internal.ContinueAsNewError{
		WorkflowType:        &clientapi.WorkflowType{Name: a.GetWorkflowType().GetName()},
		Input:               a.GetInput(),
		Header:              a.GetHeader(),
		TaskQueueName:       a.GetTaskQueue().GetName(),
		WorkflowRunTimeout:  a.GetWorkflowRunTimeout().AsDuration(),
		WorkflowTaskTimeout: a.GetWorkflowTaskTimeout().AsDuration(),
	}
}

// errRunNoCloseEvent reports a close-event poll that ended without an event,
// which a server should never do.
var errRunNoCloseEvent = errors.New("the server returned no close event")

// closeEvent waits for a run to close and returns its close event.
func (c *workflowClient) closeEvent(ctx context.Context, workflowID, runID string) (*historypb.HistoryEvent, error) {
	it := c.newHistoryIterator(ctx, workflowID, runID, true, enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT)
	if !it.HasNext() {
		return nil, fmt.Errorf("waiting for workflow %q run %q to close: %w", workflowID, runID, errRunNoCloseEvent)
	}
	return it.Next()
}
