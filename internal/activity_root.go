package internal

import (
	"context"
	"reflect"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// activityRoot is the end of an activity attempt's interceptor chains: as
// the innermost inbound interceptor it calls the activity function, as the
// last outbound interceptor it answers the activity package's calls from
// the attempt's activityEnv.
type activityRoot struct {
	env *activityEnv
	fn  *registry.Func
}

var (
	_ ActivityInboundInterceptor  = (*activityRoot)(nil)
	_ ActivityOutboundInterceptor = (*activityRoot)(nil)
)

// interceptActivity builds an attempt's chains from the worker's
// interceptors, the first one outermost, and lets them Init. It returns
// where the attempt enters, and ctx with the header the attempt arrived
// with and what the propagators extract from it. ctx must carry env. A
// panic in an interceptor or a propagator is an error: it must not take
// the worker down.
func (e *activityExecutor) interceptActivity(ctx context.Context, env *activityEnv, fn *registry.Func, header *commonpb.Header) (_ context.Context, inbound ActivityInboundInterceptor, err error) {
	root := &activityRoot{env: env, fn: fn}
	env.outbound, inbound = root, root
	if len(e.interceptors) == 0 && len(e.propagators) == 0 {
		return ctx, root, nil
	}
	defer recoverInto(&err, "an activity interceptor or context propagator")
	for i := len(e.interceptors) - 1; i >= 0; i-- {
		inbound = e.interceptors[i].InterceptActivity(ctx, inbound)
	}
	if err := inbound.Init(root); err != nil {
		return nil, nil, err
	}
	ctx, err = propagation.ContextWithIncomingHeader(ctx, header, e.propagators, func() converter.PayloadCodec {
		return propagation.HeaderCodec(converter.WithDataConverterSerializationContext(e.dc, activitySerializationContext(&env.info)))
	})
	return ctx, inbound, err
}

// activitySerializationContext is what a codec is told of the activity
// whose payloads it converts.
func activitySerializationContext(info *ActivityInfo) converter.ActivitySerializationContext {
	return converter.ActivitySerializationContext{
		Namespace:    info.WorkflowNamespace,
		WorkflowID:   info.WorkflowExecution.ID,
		WorkflowType: workflowTypeName(*info),
		ActivityType: info.ActivityType.Name,
		TaskQueue:    info.TaskQueue,
		IsLocal:      info.IsLocalActivity,
	}
}

// Init takes the outermost outbound interceptor, where the activity
// package's calls go.
func (a *activityRoot) Init(outbound ActivityOutboundInterceptor) error {
	a.env.outbound = outbound
	return nil
}

// ExecuteActivity calls the activity function, without the header, which
// belongs to the interceptors. An error whose chain cannot be walked is
// replaced (failure.SafeChain) before the interceptors walk it.
func (a *activityRoot) ExecuteActivity(ctx context.Context, in *ExecuteActivityInput) (any, error) {
	args := a.fn.ArgValues(in.Args)
	if a.fn.HasContext {
		args = append([]reflect.Value{reflect.ValueOf(propagation.ContextWithoutHeader(ctx))}, args...)
	}
	result, _, err := registry.Results(a.fn.Fn.Call(args))
	return result, failure.SafeChain(err)
}

func (a *activityRoot) GetInfo(context.Context) ActivityInfo { return a.env.info }

func (a *activityRoot) GetLogger(context.Context) log.Logger { return a.env.logger }

func (a *activityRoot) GetMetricsHandler(context.Context) sdkmetrics.Handler { return a.env.metrics }

func (a *activityRoot) GetWorkerStopChannel(context.Context) <-chan struct{} {
	return a.env.workerStop
}

func (a *activityRoot) GetClient(context.Context) Client { return a.env.client }

func (a *activityRoot) RecordHeartbeat(_ context.Context, details ...any) {
	env := a.env
	var p *commonpb.Payloads
	if len(details) > 0 {
		var err error
		if p, err = env.dc.ToPayloads(details...); err != nil {
			env.logger.Error("heartbeat details cannot be encoded; sending the heartbeat without them", "Error", err)
			p = nil
		}
	}
	env.heartbeat(p)
}

func (a *activityRoot) HasHeartbeatDetails(context.Context) bool {
	return len(a.env.heartbeatDetails.GetPayloads()) > 0
}

func (a *activityRoot) GetHeartbeatDetails(_ context.Context, d ...any) error {
	if len(a.env.heartbeatDetails.GetPayloads()) == 0 {
		return errNoHeartbeatDetails
	}
	return a.env.dc.FromPayloads(a.env.heartbeatDetails, d...)
}

func (*activityRoot) mustEmbedActivityInboundInterceptorBase()  {}
func (*activityRoot) mustEmbedActivityOutboundInterceptorBase() {}
