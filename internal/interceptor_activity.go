package internal

import (
	"context"

	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// ActivityInboundInterceptor sees an activity attempt as the worker starts
// it (interceptor.ActivityInboundInterceptor). Implementations embed
// ActivityInboundInterceptorBase.
type ActivityInboundInterceptor interface {
	// Init is called first, with the outbound interceptor the activity's
	// calls go to; an implementation may wrap it before passing it on to
	// the next Init.
	Init(outbound ActivityOutboundInterceptor) error
	// ExecuteActivity runs the activity. Header(ctx) returns the header the
	// workflow sent with it.
	ExecuteActivity(ctx context.Context, in *ExecuteActivityInput) (any, error)

	mustEmbedActivityInboundInterceptorBase()
}

// ExecuteActivityInput is the input of ActivityInboundInterceptor.ExecuteActivity.
type ExecuteActivityInput struct {
	// Args are the activity's arguments, decoded.
	Args []any
}

// ActivityOutboundInterceptor sees the calls activity code makes through
// the activity package (interceptor.ActivityOutboundInterceptor).
// Implementations embed ActivityOutboundInterceptorBase.
type ActivityOutboundInterceptor interface {
	// GetInfo intercepts activity.GetInfo.
	GetInfo(ctx context.Context) ActivityInfo
	// GetLogger intercepts activity.GetLogger.
	GetLogger(ctx context.Context) log.Logger
	// GetMetricsHandler intercepts activity.GetMetricsHandler.
	GetMetricsHandler(ctx context.Context) sdkmetrics.Handler
	// RecordHeartbeat intercepts activity.RecordHeartbeat.
	RecordHeartbeat(ctx context.Context, details ...any)
	// HasHeartbeatDetails intercepts activity.HasHeartbeatDetails.
	HasHeartbeatDetails(ctx context.Context) bool
	// GetHeartbeatDetails intercepts activity.GetHeartbeatDetails.
	GetHeartbeatDetails(ctx context.Context, d ...any) error
	// GetWorkerStopChannel intercepts activity.GetWorkerStopChannel.
	GetWorkerStopChannel(ctx context.Context) <-chan struct{}
	// GetClient intercepts activity.GetClient.
	GetClient(ctx context.Context) Client

	mustEmbedActivityOutboundInterceptorBase()
}

// ActivityInboundInterceptorBase passes every call on to Next: embed it and
// override the methods that matter.
type ActivityInboundInterceptorBase struct {
	Next ActivityInboundInterceptor
}

var _ ActivityInboundInterceptor = &ActivityInboundInterceptorBase{}

// Init calls Next.Init.
func (a *ActivityInboundInterceptorBase) Init(outbound ActivityOutboundInterceptor) error {
	return a.Next.Init(outbound)
}

// ExecuteActivity calls Next.ExecuteActivity.
func (a *ActivityInboundInterceptorBase) ExecuteActivity(ctx context.Context, in *ExecuteActivityInput) (any, error) {
	return a.Next.ExecuteActivity(ctx, in)
}

func (*ActivityInboundInterceptorBase) mustEmbedActivityInboundInterceptorBase() {}

// ActivityOutboundInterceptorBase passes every call on to Next: embed it and
// override the methods that matter.
type ActivityOutboundInterceptorBase struct {
	Next ActivityOutboundInterceptor
}

var _ ActivityOutboundInterceptor = &ActivityOutboundInterceptorBase{}

// GetInfo calls Next.GetInfo.
func (a *ActivityOutboundInterceptorBase) GetInfo(ctx context.Context) ActivityInfo {
	return a.Next.GetInfo(ctx)
}

// GetMetricsHandler calls Next.GetMetricsHandler.
func (a *ActivityOutboundInterceptorBase) GetMetricsHandler(ctx context.Context) sdkmetrics.Handler {
	return a.Next.GetMetricsHandler(ctx)
}

// GetLogger calls Next.GetLogger.
func (a *ActivityOutboundInterceptorBase) GetLogger(ctx context.Context) log.Logger {
	return a.Next.GetLogger(ctx)
}

// RecordHeartbeat calls Next.RecordHeartbeat.
func (a *ActivityOutboundInterceptorBase) RecordHeartbeat(ctx context.Context, details ...any) {
	a.Next.RecordHeartbeat(ctx, details...)
}

// HasHeartbeatDetails calls Next.HasHeartbeatDetails.
func (a *ActivityOutboundInterceptorBase) HasHeartbeatDetails(ctx context.Context) bool {
	return a.Next.HasHeartbeatDetails(ctx)
}

// GetHeartbeatDetails calls Next.GetHeartbeatDetails.
func (a *ActivityOutboundInterceptorBase) GetHeartbeatDetails(ctx context.Context, d ...any) error {
	return a.Next.GetHeartbeatDetails(ctx, d...)
}

// GetWorkerStopChannel calls Next.GetWorkerStopChannel.
func (a *ActivityOutboundInterceptorBase) GetWorkerStopChannel(ctx context.Context) <-chan struct{} {
	return a.Next.GetWorkerStopChannel(ctx)
}

// GetClient calls Next.GetClient.
func (a *ActivityOutboundInterceptorBase) GetClient(ctx context.Context) Client {
	return a.Next.GetClient(ctx)
}

func (*ActivityOutboundInterceptorBase) mustEmbedActivityOutboundInterceptorBase() {}
