package internal

import (
	"errors"
	"fmt"
	"time"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/optcheck"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/wfsync"
	sdkpb "go.temporal.io/api/sdk/v1"
)

// LocalActivityOptions configure the local activities a workflow runs
// (workflow.LocalActivityOptions). ScheduleToCloseTimeout or
// StartToCloseTimeout must be set; either defaults to the other.
type LocalActivityOptions struct {
	// ScheduleToCloseTimeout bounds the local activity, retries included.
	ScheduleToCloseTimeout time.Duration
	// StartToCloseTimeout bounds one attempt.
	StartToCloseTimeout time.Duration
	// RetryPolicy: by default, retries with backoff from 1s doubling up to
	// 100s, until the schedule-to-close timeout.
	RetryPolicy *policy.RetryPolicy
	// Summary is shown in the UI next to the local activity's marker.
	Summary string
	// EventGroups are groups the local activity's marker belongs to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

type localActivityOptionsKey struct{}

// WithLocalActivityOptions returns ctx with the options of its local
// activities; unset retry policy fields take their defaults (see
// LocalActivityOptions.RetryPolicy).
func WithLocalActivityOptions(ctx Context, options LocalActivityOptions) Context {
	o := options
	o.RetryPolicy = localActivityRetryDefaults(options.RetryPolicy)
	return WithValue(ctx, localActivityOptionsKey{}, &o)
}

// GetLocalActivityOptions returns the local activity options ctx carries.
func GetLocalActivityOptions(ctx Context) LocalActivityOptions {
	if o, ok := ctx.Value(localActivityOptionsKey{}).(*LocalActivityOptions); ok {
		return *o
	}
	return LocalActivityOptions{}
}

// localActivityRetryDefaults fills in a copy of p the defaults
// go.temporal.io/sdk gives local activities.
func localActivityRetryDefaults(p *policy.RetryPolicy) *policy.RetryPolicy {
	filled := policy.RetryPolicy{}
	if p != nil {
		filled = *p
	}
	if filled.BackoffCoefficient == 0 {
		filled.BackoffCoefficient = 2
	}
	if filled.InitialInterval == 0 {
		filled.InitialInterval = time.Second
	}
	if filled.MaximumInterval == 0 {
		filled.MaximumInterval = 100 * filled.InitialInterval
	}
	return &filled
}

var errNoLocalActivityOptions = errors.New("ExecuteLocalActivity: the context carries no local activity options; " +
	"set them with workflow.WithLocalActivityOptions (ScheduleToCloseTimeout or StartToCloseTimeout is required)")

// localActivityFnKey carries, past the interceptors (which see only the
// type name), the function the code passed.
type localActivityFnKey struct{}

// ExecuteLocalActivity runs an activity in this worker, within the
// workflow task, and records its outcome in history as a marker. activity
// is a function (registered or not) or the name of a registered activity.
// The future's error is the activity's own error (not wrapped in an
// ActivityError), a timeout or a cancellation.
func ExecuteLocalActivity(ctx Context, activity any, args ...any) Future {
	r := runOf(ctx)
	name, err := r.config.registry.ActivityName(activity)
	if err == nil {
		err = registry.CheckArgs(activity, args, "local activity")
	}
	if err != nil {
		f := &wfsync.SettableFuture{}
		f.Set(nil, err)
		return f
	}
	if _, isName := activity.(string); !isName {
		ctx = WithValue(ctx, localActivityFnKey{}, activity)
	}
	if r.config.carriesHeaders() {
		ctx = propagation.WorkflowContextWithNewHeader(ctx)
	}
	return r.outbound.ExecuteLocalActivity(ctx, name, passArgs(args)...)
}

// executeLocalActivity is ExecuteLocalActivity at the end of the
// interceptor chain. As in go.temporal.io/sdk, a coroutine of its own
// schedules the local activity, and schedules it again after a workflow
// timer when the worker's retries asked for a backoff longer than it
// waits inside a task.
func (r *workflowRun) executeLocalActivity(ctx Context, name string, args []any) Future {
	f := &wfsync.SettableFuture{}
	// Its input, result and failure are converted with its serialization
	// context, as in go.temporal.io/sdk.
	dc, fc := r.activityConverters(ctx, name, r.info.TaskQueueName, true)
	req, summary, err := r.localActivityRequest(ctx, dc, name, args)
	if err != nil {
		f.Set(nil, err)
		return f
	}
	req.FailureConverter = fc
	// Every attempt's marker carries the groups of this call.
	markers := r.eventGroupMarkers(ctx, GetLocalActivityOptions(ctx).EventGroups)
	r.spawn(ctx, "", func(ctx Context) {
		for {
			res := r.scheduleLocalActivity(ctx, req, summary, markers)
			if res.Err != nil && res.Backoff > 0 && !failure.IsCanceledError(res.Err) {
				// Canceled while waiting, it still asks for the next
				// attempt, which is canceled before it starts: its
				// marker is what go.temporal.io/sdk records.
				_ = Sleep(ctx, res.Backoff)
				next := *req
				next.Attempt = res.Attempt + 1
				req = &next
				continue
			}
			if res.Err != nil {
				f.Set(nil, res.Err)
				return
			}
			f.Set(failure.NewCallResult(res.Result, dc, "local activity", req.ActivityType), nil)
			return
		}
	})
	return f
}

// scheduleLocalActivity asks the engine for one local activity and waits
// for its result; canceling ctx cancels it. Its marker carries the event
// group markers given.
func (r *workflowRun) scheduleLocalActivity(ctx Context, req *engine.LocalActivityRequest, summary string, markers []*sdkpb.EventGroupMarker) engine.LocalActivityResult {
	attempt := *req
	done := &wfsync.SettableFuture{}
	previous := r.exec.SetEventGroups(markers)
	la := r.exec.ScheduleLocalActivity(&attempt, summary, func(res engine.LocalActivityResult) { done.Set(res, nil) })
	r.exec.SetEventGroups(previous)
	wfsync.OnCancel(ctx, done, func() {
		if err := r.exec.CancelLocalActivity(la); err != nil {
			panic(err) // an illegal transition: a bug of this SDK
		}
	})
	_ = done.Get(ctx, nil)
	return done.Value().(engine.LocalActivityResult)
}

// localActivityRequest checks the options and arguments and builds the
// request of the first attempt, its input encoded with dc.
func (r *workflowRun) localActivityRequest(ctx Context, dc converter.DataConverter, name string, args []any) (*engine.LocalActivityRequest, string, error) {
	o, ok := ctx.Value(localActivityOptionsKey{}).(*LocalActivityOptions)
	if !ok {
		return nil, "", errNoLocalActivityOptions
	}
	if err := optcheck.NegativeInCall("ExecuteLocalActivity", name, "workflow.LocalActivityOptions",
		optcheck.Duration("ScheduleToCloseTimeout", o.ScheduleToCloseTimeout), optcheck.Duration("StartToCloseTimeout", o.StartToCloseTimeout)); err != nil {
		return nil, "", err
	}
	if err := optcheck.CallError("ExecuteLocalActivity", name, "workflow.LocalActivityOptions", policy.CheckRetryPolicy(o.RetryPolicy)); err != nil {
		return nil, "", err
	}
	switch {
	case o.ScheduleToCloseTimeout == 0 && o.StartToCloseTimeout == 0:
		return nil, "", fmt.Errorf("ExecuteLocalActivity(%s): set ScheduleToCloseTimeout or StartToCloseTimeout in workflow.LocalActivityOptions", name)
	}
	fn := ctx.Value(localActivityFnKey{})
	if _, err := r.config.registry.Activity(name); err != nil && fn == nil && !r.config.replayer {
		return nil, "", fmt.Errorf("local activity %s is not registered by the worker: register it with RegisterActivity, or pass the function itself", name)
	}
	req := &engine.LocalActivityRequest{
		ActivityType: name, Args: args, Attempt: 1, ScheduledTime: Now(ctx), Fn: fn,
		ScheduleToCloseTimeout: o.ScheduleToCloseTimeout, StartToCloseTimeout: o.StartToCloseTimeout,
		RetryPolicy: policy.RetryPolicyToProto(o.RetryPolicy),
	}
	if req.ScheduleToCloseTimeout == 0 {
		req.ScheduleToCloseTimeout = req.StartToCloseTimeout
	}
	if req.StartToCloseTimeout == 0 {
		req.StartToCloseTimeout = req.ScheduleToCloseTimeout
	}
	if r.config.carriesHeaders() {
		var err error
		if req.Header, err = propagation.WorkflowOutgoingHeader(ctx, r.config.propagators, r.activityHeaderCodec(name, r.info.TaskQueueName, true)); err != nil {
			return nil, "", err
		}
	}
	return req, o.Summary, nil
}
