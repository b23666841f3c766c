package clientapi

import (
	"context"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/converter"
)

// ClientOutboundInterceptor sees the workflow calls a client makes
// (interceptor.ClientOutboundInterceptor). The last one of the chain sends
// the request. Implementations embed ClientOutboundInterceptorBase.
type ClientOutboundInterceptor interface {
	// ExecuteWorkflow intercepts Client.ExecuteWorkflow. Header(ctx) is the
	// header the workflow starts with: write to it here.
	ExecuteWorkflow(ctx context.Context, in *ClientExecuteWorkflowInput) (WorkflowRun, error)
	// SignalWorkflow intercepts Client.SignalWorkflow. Header(ctx) is the
	// signal's header.
	SignalWorkflow(ctx context.Context, in *ClientSignalWorkflowInput) error
	// SignalWithStartWorkflow intercepts Client.SignalWithStartWorkflow.
	// Header(ctx) is the header of both the start and the signal.
	SignalWithStartWorkflow(ctx context.Context, in *ClientSignalWithStartWorkflowInput) (WorkflowRun, error)
	// CancelWorkflow intercepts Client.CancelWorkflow and
	// CancelWorkflowWithOptions.
	CancelWorkflow(ctx context.Context, in *ClientCancelWorkflowInput) error
	// TerminateWorkflow intercepts Client.TerminateWorkflow and
	// TerminateWorkflowWithOptions.
	TerminateWorkflow(ctx context.Context, in *ClientTerminateWorkflowInput) error
	// QueryWorkflow intercepts Client.QueryWorkflow and
	// QueryWorkflowWithOptions. Header(ctx) is the query's header. A
	// rejected query is an error that QueryWorkflowWithOptions turns back
	// into its response.
	QueryWorkflow(ctx context.Context, in *ClientQueryWorkflowInput) (converter.EncodedValue, error)
	// DescribeWorkflow intercepts Client.DescribeWorkflow.
	DescribeWorkflow(ctx context.Context, in *ClientDescribeWorkflowInput) (*ClientDescribeWorkflowOutput, error)
	// CreateSchedule intercepts ScheduleClient.Create. Header(ctx) is the
	// header of the workflows the schedule starts.
	CreateSchedule(ctx context.Context, in *ScheduleClientCreateInput) (ScheduleHandle, error)
	// UpdateWorkflow intercepts Client.UpdateWorkflow. Header(ctx) is the
	// update's header.
	UpdateWorkflow(ctx context.Context, in *ClientUpdateWorkflowInput) (WorkflowUpdateHandle, error)
	// UpdateWithStartWorkflow intercepts Client.UpdateWithStartWorkflow.
	// Header(ctx) is the header of both the start and the update.
	UpdateWithStartWorkflow(ctx context.Context, in *ClientUpdateWithStartWorkflowInput) (WorkflowUpdateHandle, error)
	// PollWorkflowUpdate intercepts each wait for an update's outcome: in
	// WorkflowUpdateHandle.Get, and in UpdateWorkflow and
	// UpdateWithStartWorkflow waiting for WorkflowUpdateStageCompleted.
	PollWorkflowUpdate(ctx context.Context, in *ClientPollWorkflowUpdateInput) (*ClientPollWorkflowUpdateOutput, error)
	// GetWorkflowRun intercepts Client.GetWorkflow; the end of the chain
	// only makes the handle, without a request. Handles that starting a
	// workflow returns (ExecuteWorkflow, SignalWithStartWorkflow,
	// update-with-start) do not come through here.
	GetWorkflowRun(ctx context.Context, in *ClientGetWorkflowRunInput) WorkflowRun
	// GetWorkflowResult intercepts WorkflowRun.Get and GetWithOptions,
	// once per call, whatever number of runs it follows. The workflow's
	// own failure is the output's Error; the error is a failure to learn
	// the outcome. The handle decodes Result after the chain returns.
	GetWorkflowResult(ctx context.Context, in *ClientGetWorkflowResultInput) (*ClientGetWorkflowResultOutput, error)
	// GetWorkflowHistory intercepts Client.GetWorkflowHistory, once, when
	// the iterator is made (wrap the output's Iterator to see the pages).
	// The history reads of GetWorkflowResult do not come through here.
	GetWorkflowHistory(ctx context.Context, in *ClientGetWorkflowHistoryInput) *ClientGetWorkflowHistoryOutput

	// The standalone Nexus operations (interceptor_nexus.go).

	// ExecuteNexusOperation intercepts NexusClient.ExecuteOperation.
	ExecuteNexusOperation(ctx context.Context, in *ClientExecuteNexusOperationInput) (NexusOperationHandle, error)
	// GetNexusOperationHandle intercepts Client.GetNexusOperationHandle;
	// the end of the chain only makes the handle.
	GetNexusOperationHandle(in *ClientGetNexusOperationHandleInput) NexusOperationHandle
	// PollNexusOperationResult intercepts each wait of
	// NexusOperationHandle.Get for the operation's outcome. The
	// operation's own failure is the output's Error.
	PollNexusOperationResult(ctx context.Context, in *ClientPollNexusOperationResultInput) (*ClientPollNexusOperationResultOutput, error)
	// DescribeNexusOperation intercepts NexusOperationHandle.Describe.
	DescribeNexusOperation(ctx context.Context, in *ClientDescribeNexusOperationInput) (*ClientDescribeNexusOperationOutput, error)
	// CancelNexusOperation intercepts NexusOperationHandle.Cancel.
	CancelNexusOperation(ctx context.Context, in *ClientCancelNexusOperationInput) error
	// TerminateNexusOperation intercepts NexusOperationHandle.Terminate.
	TerminateNexusOperation(ctx context.Context, in *ClientTerminateNexusOperationInput) error

	// The standalone activities (interceptor_activity.go).

	// ExecuteActivity intercepts Client.ExecuteActivity. Header(ctx) is
	// the header the activity starts with: write to it here.
	ExecuteActivity(ctx context.Context, in *ClientExecuteActivityInput) (ActivityHandle, error)
	// GetActivityHandle intercepts Client.GetActivityHandle; the end of
	// the chain only makes the handle.
	GetActivityHandle(in *ClientGetActivityHandleInput) ActivityHandle
	// PollActivityResult intercepts each wait of ActivityHandle.Get for
	// the activity's outcome. The activity's own failure is the output's
	// Error.
	PollActivityResult(ctx context.Context, in *ClientPollActivityResultInput) (*ClientPollActivityResultOutput, error)
	// DescribeActivity intercepts ActivityHandle.Describe.
	DescribeActivity(ctx context.Context, in *ClientDescribeActivityInput) (*ClientDescribeActivityOutput, error)
	// CancelActivity intercepts ActivityHandle.Cancel.
	CancelActivity(ctx context.Context, in *ClientCancelActivityInput) error
	// TerminateActivity intercepts ActivityHandle.Terminate.
	TerminateActivity(ctx context.Context, in *ClientTerminateActivityInput) error
	// PauseActivity intercepts ActivityHandle.Pause.
	PauseActivity(ctx context.Context, in *ClientPauseActivityInput) error
	// UnpauseActivity intercepts ActivityHandle.Unpause.
	UnpauseActivity(ctx context.Context, in *ClientUnpauseActivityInput) error
	// UpdateActivityOptions intercepts ActivityHandle.UpdateOptions and
	// RestoreOriginalOptions.
	UpdateActivityOptions(ctx context.Context, in *ClientUpdateActivityOptionsInput) (*ClientUpdateActivityOptionsOutput, error)

	mustEmbedClientOutboundInterceptorBase()
}

// ClientExecuteWorkflowInput is the input of ClientOutboundInterceptor.ExecuteWorkflow.
type ClientExecuteWorkflowInput struct {
	// Options are the start options; ID is already set.
	Options      *StartWorkflowOptions
	WorkflowType string
	Args         []any
}

// ClientSignalWorkflowInput is the input of ClientOutboundInterceptor.SignalWorkflow.
type ClientSignalWorkflowInput struct {
	WorkflowID string
	RunID      string
	SignalName string
	Arg        any
}

// ClientSignalWithStartWorkflowInput is the input of
// ClientOutboundInterceptor.SignalWithStartWorkflow.
type ClientSignalWithStartWorkflowInput struct {
	SignalName string
	SignalArg  any
	// Options are the start options; ID is already set.
	Options      *StartWorkflowOptions
	WorkflowType string
	Args         []any
}

// ClientCancelWorkflowInput is the input of ClientOutboundInterceptor.CancelWorkflow.
type ClientCancelWorkflowInput struct {
	WorkflowID          string
	RunID               string
	FirstExecutionRunID string
	Reason              string
}

// ClientTerminateWorkflowInput is the input of ClientOutboundInterceptor.TerminateWorkflow.
type ClientTerminateWorkflowInput struct {
	WorkflowID          string
	RunID               string
	FirstExecutionRunID string
	Reason              string
	Details             []any
}

// ClientQueryWorkflowInput is the input of ClientOutboundInterceptor.QueryWorkflow.
type ClientQueryWorkflowInput struct {
	WorkflowID           string
	RunID                string
	QueryType            string
	Args                 []any
	QueryRejectCondition enumspb.QueryRejectCondition
}

// ClientDescribeWorkflowInput is the input of ClientOutboundInterceptor.DescribeWorkflow.
type ClientDescribeWorkflowInput struct {
	WorkflowID string
	RunID      string
}

// ClientDescribeWorkflowOutput is the result of ClientOutboundInterceptor.DescribeWorkflow.
type ClientDescribeWorkflowOutput struct {
	Response *WorkflowExecutionDescription
}

// ClientOutboundInterceptorBase passes every call on to Next: embed it and
// override the methods that matter.
type ClientOutboundInterceptorBase struct {
	Next ClientOutboundInterceptor
}

var _ ClientOutboundInterceptor = &ClientOutboundInterceptorBase{}

// ExecuteWorkflow calls Next.ExecuteWorkflow.
func (c *ClientOutboundInterceptorBase) ExecuteWorkflow(ctx context.Context, in *ClientExecuteWorkflowInput) (WorkflowRun, error) {
	return c.Next.ExecuteWorkflow(ctx, in)
}

// SignalWorkflow calls Next.SignalWorkflow.
func (c *ClientOutboundInterceptorBase) SignalWorkflow(ctx context.Context, in *ClientSignalWorkflowInput) error {
	return c.Next.SignalWorkflow(ctx, in)
}

// SignalWithStartWorkflow calls Next.SignalWithStartWorkflow.
func (c *ClientOutboundInterceptorBase) SignalWithStartWorkflow(ctx context.Context, in *ClientSignalWithStartWorkflowInput) (WorkflowRun, error) {
	return c.Next.SignalWithStartWorkflow(ctx, in)
}

// CancelWorkflow calls Next.CancelWorkflow.
func (c *ClientOutboundInterceptorBase) CancelWorkflow(ctx context.Context, in *ClientCancelWorkflowInput) error {
	return c.Next.CancelWorkflow(ctx, in)
}

// TerminateWorkflow calls Next.TerminateWorkflow.
func (c *ClientOutboundInterceptorBase) TerminateWorkflow(ctx context.Context, in *ClientTerminateWorkflowInput) error {
	return c.Next.TerminateWorkflow(ctx, in)
}

// QueryWorkflow calls Next.QueryWorkflow.
func (c *ClientOutboundInterceptorBase) QueryWorkflow(ctx context.Context, in *ClientQueryWorkflowInput) (converter.EncodedValue, error) {
	return c.Next.QueryWorkflow(ctx, in)
}

// DescribeWorkflow calls Next.DescribeWorkflow.
func (c *ClientOutboundInterceptorBase) DescribeWorkflow(ctx context.Context, in *ClientDescribeWorkflowInput) (*ClientDescribeWorkflowOutput, error) {
	return c.Next.DescribeWorkflow(ctx, in)
}

// CreateSchedule calls Next.CreateSchedule.
func (c *ClientOutboundInterceptorBase) CreateSchedule(ctx context.Context, in *ScheduleClientCreateInput) (ScheduleHandle, error) {
	return c.Next.CreateSchedule(ctx, in)
}

// GetWorkflowRun calls Next.GetWorkflowRun.
func (c *ClientOutboundInterceptorBase) GetWorkflowRun(ctx context.Context, in *ClientGetWorkflowRunInput) WorkflowRun {
	return c.Next.GetWorkflowRun(ctx, in)
}

// GetWorkflowResult calls Next.GetWorkflowResult.
func (c *ClientOutboundInterceptorBase) GetWorkflowResult(ctx context.Context, in *ClientGetWorkflowResultInput) (*ClientGetWorkflowResultOutput, error) {
	return c.Next.GetWorkflowResult(ctx, in)
}

// GetWorkflowHistory calls Next.GetWorkflowHistory.
func (c *ClientOutboundInterceptorBase) GetWorkflowHistory(ctx context.Context, in *ClientGetWorkflowHistoryInput) *ClientGetWorkflowHistoryOutput {
	return c.Next.GetWorkflowHistory(ctx, in)
}

func (*ClientOutboundInterceptorBase) mustEmbedClientOutboundInterceptorBase() {}

// ClientRootSeal gives the end of a client's interceptor chain, which
// sends the requests (internal/clientimpl's clientRoot), the unexported
// method of ClientOutboundInterceptor, and no call: a type that embeds
// it implements every call itself, where ClientOutboundInterceptorBase
// would pass a call it lacks to a nil Next.
type ClientRootSeal struct{}

func (ClientRootSeal) mustEmbedClientOutboundInterceptorBase() {}

// The seal is embedded in another package; this says, to tools that read
// one package at a time, that its method is used.
var _ interface{ mustEmbedClientOutboundInterceptorBase() } = ClientRootSeal{}
