package clientapi

import (
	"context"

	"github.com/durable-go/sdk/converter"
)

// ClientExecuteActivityInput is the input of
// ClientOutboundInterceptor.ExecuteActivity.
type ClientExecuteActivityInput struct {
	// Options are the start options, as given.
	Options *StartActivityOptions
	// ActivityType is the activity's registered name.
	ActivityType string
	// Args are its arguments, not yet encoded.
	Args []any
}

// ClientGetActivityHandleInput is the input of
// ClientOutboundInterceptor.GetActivityHandle.
type ClientGetActivityHandleInput struct {
	ActivityID string
	RunID      string
}

// ClientPollActivityResultInput is the input of
// ClientOutboundInterceptor.PollActivityResult.
type ClientPollActivityResultInput struct {
	ActivityID string
	RunID      string
}

// ClientPollActivityResultOutput is the result of
// ClientOutboundInterceptor.PollActivityResult: the activity's result, or
// its failure.
type ClientPollActivityResultOutput struct {
	Result converter.EncodedValue
	Error  error
}

// ClientDescribeActivityInput is the input of
// ClientOutboundInterceptor.DescribeActivity.
type ClientDescribeActivityInput struct {
	ActivityID string
	RunID      string
	Options    *DescribeActivityOptions
}

// ClientDescribeActivityOutput is the result of
// ClientOutboundInterceptor.DescribeActivity.
type ClientDescribeActivityOutput struct {
	Description *ActivityExecutionDescription
}

// ClientCancelActivityInput is the input of
// ClientOutboundInterceptor.CancelActivity.
type ClientCancelActivityInput struct {
	ActivityID string
	RunID      string
	Reason     string
}

// ClientTerminateActivityInput is the input of
// ClientOutboundInterceptor.TerminateActivity.
type ClientTerminateActivityInput struct {
	ActivityID string
	RunID      string
	Reason     string
}

// ClientPauseActivityInput is the input of
// ClientOutboundInterceptor.PauseActivity.
type ClientPauseActivityInput struct {
	ActivityID string
	RunID      string
	Options    *PauseActivityOptions
}

// ClientUnpauseActivityInput is the input of
// ClientOutboundInterceptor.UnpauseActivity.
type ClientUnpauseActivityInput struct {
	ActivityID string
	RunID      string
	Options    *UnpauseActivityOptions
}

// ClientUpdateActivityOptionsInput is the input of
// ClientOutboundInterceptor.UpdateActivityOptions: the changes of Update,
// or, with RestoreOriginal, the undoing of every change (the two cannot
// be combined).
type ClientUpdateActivityOptionsInput struct {
	ActivityID      string
	RunID           string
	Update          *ActivityOptionsUpdate
	RestoreOriginal bool
}

// ClientUpdateActivityOptionsOutput is the result of
// ClientOutboundInterceptor.UpdateActivityOptions: the activity's options
// after the call.
type ClientUpdateActivityOptionsOutput struct {
	Options *ActivityExecutionOptions
}

// ExecuteActivity calls Next.ExecuteActivity.
func (c *ClientOutboundInterceptorBase) ExecuteActivity(ctx context.Context, in *ClientExecuteActivityInput) (ActivityHandle, error) {
	return c.Next.ExecuteActivity(ctx, in)
}

// GetActivityHandle calls Next.GetActivityHandle.
func (c *ClientOutboundInterceptorBase) GetActivityHandle(in *ClientGetActivityHandleInput) ActivityHandle {
	return c.Next.GetActivityHandle(in)
}

// PollActivityResult calls Next.PollActivityResult.
func (c *ClientOutboundInterceptorBase) PollActivityResult(ctx context.Context, in *ClientPollActivityResultInput) (*ClientPollActivityResultOutput, error) {
	return c.Next.PollActivityResult(ctx, in)
}

// DescribeActivity calls Next.DescribeActivity.
func (c *ClientOutboundInterceptorBase) DescribeActivity(ctx context.Context, in *ClientDescribeActivityInput) (*ClientDescribeActivityOutput, error) {
	return c.Next.DescribeActivity(ctx, in)
}

// CancelActivity calls Next.CancelActivity.
func (c *ClientOutboundInterceptorBase) CancelActivity(ctx context.Context, in *ClientCancelActivityInput) error {
	return c.Next.CancelActivity(ctx, in)
}

// TerminateActivity calls Next.TerminateActivity.
func (c *ClientOutboundInterceptorBase) TerminateActivity(ctx context.Context, in *ClientTerminateActivityInput) error {
	return c.Next.TerminateActivity(ctx, in)
}

// PauseActivity calls Next.PauseActivity.
func (c *ClientOutboundInterceptorBase) PauseActivity(ctx context.Context, in *ClientPauseActivityInput) error {
	return c.Next.PauseActivity(ctx, in)
}

// UnpauseActivity calls Next.UnpauseActivity.
func (c *ClientOutboundInterceptorBase) UnpauseActivity(ctx context.Context, in *ClientUnpauseActivityInput) error {
	return c.Next.UnpauseActivity(ctx, in)
}

// UpdateActivityOptions calls Next.UpdateActivityOptions.
func (c *ClientOutboundInterceptorBase) UpdateActivityOptions(ctx context.Context, in *ClientUpdateActivityOptionsInput) (*ClientUpdateActivityOptionsOutput, error) {
	return c.Next.UpdateActivityOptions(ctx, in)
}
