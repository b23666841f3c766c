package clientapi

import (
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/searchattr"
)

type (
	// WorkflowExecutionMetadata is what the server knows about a workflow
	// run, as DescribeWorkflow reports it.
	WorkflowExecutionMetadata struct {
		// WorkflowExecution is the workflow ID and run ID.
		WorkflowExecution WorkflowExecution
		// WorkflowType is the workflow's type.
		WorkflowType WorkflowType
		// TaskQueueName is the workflow's task queue.
		TaskQueueName string
		// Status says whether the run is open or how it closed.
		Status enumspb.WorkflowExecutionStatus
		// Memo is the run's current memo, still encoded; read values with
		// WorkflowExecutionDescription.GetMemoValue.
		Memo *commonpb.Memo
		// TypedSearchAttributes are the run's current search attributes
		// that carry their type.
		TypedSearchAttributes searchattr.SearchAttributes
		// ParentWorkflowExecution is the parent of a child workflow.
		ParentWorkflowExecution *WorkflowExecution
		// RootWorkflowExecution is the first workflow of the child chain.
		RootWorkflowExecution *WorkflowExecution
		// WorkflowStartTime is when the run started.
		WorkflowStartTime time.Time
		// WorkflowCloseTime is when the run closed; nil while it is open.
		WorkflowCloseTime *time.Time
		// ExecutionTime is when the run began, or will begin, executing:
		// later than its start with a start delay or a cron schedule.
		ExecutionTime *time.Time
		// HistoryLength is the number of events in the run's history.
		HistoryLength int
	}

	// WorkflowExecutionDescription is the answer of Client.DescribeWorkflow.
	WorkflowExecutionDescription struct {
		WorkflowExecutionMetadata
		// RawResponse is the server's answer this description was read
		// from, with what the fields above leave out (pending activities
		// and children, the execution config, versioning info).
		RawResponse   *workflowservice.DescribeWorkflowExecutionResponse
		dc            converter.DataConverter
		staticSummary *commonpb.Payload
		staticDetails *commonpb.Payload
	}
)

// NewWorkflowExecutionDescription is the description of a run read from
// the server's answer raw: its metadata, and the summary and details given
// at its start (its user metadata), which dc decodes. The client's
// DescribeWorkflow makes it.
func NewWorkflowExecutionDescription(metadata WorkflowExecutionMetadata, dc converter.DataConverter, raw *workflowservice.DescribeWorkflowExecutionResponse) *WorkflowExecutionDescription {
	userMetadata := raw.GetExecutionConfig().GetUserMetadata()
	return &WorkflowExecutionDescription{
		WorkflowExecutionMetadata: metadata,
		RawResponse:               raw,
		dc:                        dc,
		staticSummary:             userMetadata.GetSummary(),
		staticDetails:             userMetadata.GetDetails(),
	}
}

// GetStaticSummary decodes the summary given at start; "" if none.
func (d *WorkflowExecutionDescription) GetStaticSummary() (string, error) {
	return decodeOptionalString(d.dc, d.staticSummary)
}

// GetStaticDetails decodes the details given at start; "" if none.
func (d *WorkflowExecutionDescription) GetStaticDetails() (string, error) {
	return decodeOptionalString(d.dc, d.staticDetails)
}

// GetMemoValue decodes the memo value under key into valuePtr. It returns
// temporal.ErrNoData when there is no such key.
func (d *WorkflowExecutionDescription) GetMemoValue(key string, valuePtr any) error {
	payload, ok := d.Memo.GetFields()[key]
	if !ok {
		return failure.ErrNoData
	}
	return d.dc.FromPayload(payload, valuePtr)
}

func decodeOptionalString(dc converter.DataConverter, payload *commonpb.Payload) (string, error) {
	if payload == nil {
		return "", nil
	}
	var s string
	err := dc.FromPayload(payload, &s)
	return s, err
}
