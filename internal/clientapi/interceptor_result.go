package clientapi

import (
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/converter"
)

// ClientGetWorkflowRunInput is the input of
// ClientOutboundInterceptor.GetWorkflowRun.
type ClientGetWorkflowRunInput struct {
	WorkflowID string
	// RunID is the run of the handle; empty: the run current when the
	// handle is first used.
	RunID string
}

// ClientGetWorkflowResultInput is the input of
// ClientOutboundInterceptor.GetWorkflowResult. Pass it on, or a copy of
// it: it carries the handle whose Get made the call.
type ClientGetWorkflowResultInput struct {
	// WorkflowID and RunID are the handle's workflow and the run its next
	// Get starts from (empty: the current run, found after the chain).
	// Changing them redirects this wait only, not the handle.
	WorkflowID string
	RunID      string
	// Options say whether to follow the runs that carry the workflow on.
	Options WorkflowRunGetOptions

	// handle is the run handle that made the call, which the end of the
	// chain waits on (and moves along the runs it follows) unless the
	// input was redirected.
	handle WorkflowRun
}

// NewClientGetWorkflowResultInput is the input a run handle's Get gives
// the interceptor chain.
func NewClientGetWorkflowResultInput(workflowID, runID string, options WorkflowRunGetOptions, handle WorkflowRun) *ClientGetWorkflowResultInput {
	return &ClientGetWorkflowResultInput{WorkflowID: workflowID, RunID: runID, Options: options, handle: handle}
}

// ClientGetWorkflowResultHandle is the run handle whose Get made in, nil
// for an input an interceptor made itself.
func ClientGetWorkflowResultHandle(in *ClientGetWorkflowResultInput) WorkflowRun {
	return in.handle
}

// ClientGetWorkflowResultOutput is the result of
// ClientOutboundInterceptor.GetWorkflowResult.
type ClientGetWorkflowResultOutput struct {
	// Result is the workflow's result, nil when it completed without one.
	Result converter.EncodedValue
	// Error is why the workflow did not complete.
	Error error
}

// ClientGetWorkflowHistoryInput is the input of
// ClientOutboundInterceptor.GetWorkflowHistory.
type ClientGetWorkflowHistoryInput struct {
	WorkflowID string
	// RunID is the run to read; empty: the current one.
	RunID string
	// IsLongPoll waits for new events at the end of the history.
	IsLongPoll bool
	FilterType enumspb.HistoryEventFilterType
}

// ClientGetWorkflowHistoryOutput is the result of
// ClientOutboundInterceptor.GetWorkflowHistory.
type ClientGetWorkflowHistoryOutput struct {
	// Iterator reads the history page by page, as it is iterated.
	Iterator HistoryEventIterator
}
