package internal

import (
	"cmp"
	"errors"
	"fmt"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/optcheck"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/wfsync"
)

// ActivityOptions configure the activities a workflow schedules
// (workflow.ActivityOptions). StartToCloseTimeout or ScheduleToCloseTimeout
// must be set.
type ActivityOptions struct {
	// TaskQueue is where the activity is scheduled; the workflow's own
	// task queue by default.
	TaskQueue string
	// ScheduleToCloseTimeout bounds the whole activity, retries included.
	ScheduleToCloseTimeout time.Duration
	// ScheduleToStartTimeout bounds the wait for a worker to pick it up.
	ScheduleToStartTimeout time.Duration
	// StartToCloseTimeout bounds one attempt.
	StartToCloseTimeout time.Duration
	// HeartbeatTimeout is the longest gap allowed between heartbeats.
	HeartbeatTimeout time.Duration
	// WaitForCancellation: when the activity is canceled, wait for it to
	// end (canceled, completed or failed) instead of returning at once.
	WaitForCancellation bool
	// ActivityID names the activity; by default a number unique in the run.
	ActivityID string
	// RetryPolicy overrides the server's default retry policy.
	RetryPolicy *policy.RetryPolicy
	// DisableEagerExecution stops the server from handing the activity
	// straight back to this worker (eager execution; see
	// worker.Options.DisableEagerActivities).
	DisableEagerExecution bool
	// VersioningIntent is for build-ID versioning (deprecated upstream).
	VersioningIntent policy.VersioningIntent
	// Summary is shown in the UI next to the activity.
	Summary string
	// Priority orders the activity in its task queue.
	Priority policy.Priority
	// EventGroups are groups the command belongs to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

type activityOptionsKey struct{}

// WithActivityOptions returns a context whose activities use options.
func WithActivityOptions(ctx Context, options ActivityOptions) Context {
	o := options
	return WithValue(ctx, activityOptionsKey{}, &o)
}

// GetActivityOptions returns the activity options ctx carries.
func GetActivityOptions(ctx Context) ActivityOptions { return *activityOptionsOf(ctx) }

// withActivityOption returns ctx with one activity option changed.
func withActivityOption(ctx Context, change func(o *ActivityOptions)) Context {
	o := GetActivityOptions(ctx)
	change(&o)
	return WithActivityOptions(ctx, o)
}

// WithTaskQueue sets the task queue of the context's activities.
func WithTaskQueue(ctx Context, name string) Context {
	return withActivityOption(ctx, func(o *ActivityOptions) { o.TaskQueue = name })
}

// WithScheduleToCloseTimeout sets the context's activities' schedule-to-close timeout.
func WithScheduleToCloseTimeout(ctx Context, d time.Duration) Context {
	return withActivityOption(ctx, func(o *ActivityOptions) { o.ScheduleToCloseTimeout = d })
}

// WithScheduleToStartTimeout sets the context's activities' schedule-to-start timeout.
func WithScheduleToStartTimeout(ctx Context, d time.Duration) Context {
	return withActivityOption(ctx, func(o *ActivityOptions) { o.ScheduleToStartTimeout = d })
}

// WithStartToCloseTimeout sets the context's activities' start-to-close timeout.
func WithStartToCloseTimeout(ctx Context, d time.Duration) Context {
	return withActivityOption(ctx, func(o *ActivityOptions) { o.StartToCloseTimeout = d })
}

// WithHeartbeatTimeout sets the context's activities' heartbeat timeout.
func WithHeartbeatTimeout(ctx Context, d time.Duration) Context {
	return withActivityOption(ctx, func(o *ActivityOptions) { o.HeartbeatTimeout = d })
}

// WithWaitForCancellation sets whether canceled activities are waited for.
func WithWaitForCancellation(ctx Context, wait bool) Context {
	return withActivityOption(ctx, func(o *ActivityOptions) { o.WaitForCancellation = wait })
}

// WithRetryPolicy sets the context's activities' retry policy.
func WithRetryPolicy(ctx Context, retryPolicy policy.RetryPolicy) Context {
	return withActivityOption(ctx, func(o *ActivityOptions) { o.RetryPolicy = &retryPolicy })
}

// WithPriority sets the context's activities' priority.
func WithPriority(ctx Context, priority policy.Priority) Context {
	return withActivityOption(ctx, func(o *ActivityOptions) { o.Priority = priority })
}

// errNoActivityTimeout explains the most common first mistake.
var errNoActivityTimeout = errors.New("ExecuteActivity: the activity options set neither StartToCloseTimeout nor ScheduleToCloseTimeout; " +
	"set at least one with workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: ...})")

// ExecuteActivity schedules an activity (a registered function, or its
// name) with args, and returns a Future for its result. If the activity
// fails, the Future's error is an *ActivityError whose cause is the
// activity's error. Canceling ctx cancels the activity.
//
// Arguments that do not fit the activity function are logged as a warning
// and the activity is scheduled all the same, as go.temporal.io/sdk
// schedules it, so that ported code writes the same history: the activity
// ignores extra arguments, takes zero values for missing ones, and fails
// when it cannot decode one into its parameter's type.
func ExecuteActivity(ctx Context, activity any, args ...any) Future {
	r := runOf(ctx)
	name, err := r.config.registry.ActivityName(activity)
	if err != nil {
		f := &wfsync.SettableFuture{}
		f.Set(nil, err)
		return f
	}
	if mismatch := registry.CheckArgs(activity, args, "activity"); mismatch != nil {
		r.log().Warn("ExecuteActivity: the arguments do not fit the activity function; it is scheduled all the same, as go.temporal.io/sdk schedules it: "+
			"it ignores extra arguments, takes zero values for missing ones, and fails if it cannot decode one. Fix the call (workflowcheck reports such calls)",
			"ActivityType", name, "Error", mismatch)
	}
	if r.config.carriesHeaders() {
		ctx = propagation.WorkflowContextWithNewHeader(ctx)
	}
	if !r.intercepted {
		return r.executeActivity(ctx, name, args)
	}
	return r.outbound.ExecuteActivity(ctx, name, passArgs(args)...)
}

// executeActivity schedules the activity named name: ExecuteActivity at
// the end of the interceptor chain. The header interceptors wrote to ctx
// goes with it.
//
// Its frame is kept small, the options' checks and the command's
// building being functions of their own: it is on the stack while the
// arguments are encoded, the deepest calls a workflow's coroutine makes
// before it blocks, and with the frame it had (1.3 KB) the coroutine's
// stack grew twice, to 8 KiB, in every workflow that ran an activity.
func (r *workflowRun) executeActivity(ctx Context, name string, args []any) Future {
	f := &wfsync.SettableFuture{}
	opts := activityOptionsOf(ctx)
	err := checkActivityOptions(name, opts)
	// The queue it goes to (its session's, in one) is part of its
	// serialization context, as in go.temporal.io/sdk.
	taskQueue, queueErr := sessionQueue(ctx, name, opts.TaskQueue)
	if taskQueue == "" {
		taskQueue = r.info.TaskQueueName
	}
	dc, fc := r.activityConverters(ctx, name, taskQueue, false)
	var input *commonpb.Payloads
	if err == nil {
		if input, err = registry.EncodeArgs(dc, args); err != nil {
			err = fmt.Errorf("ExecuteActivity(%s): encoding the input: %w", name, err)
			codecfail.FailTask(err)
		}
	}
	var header *commonpb.Header
	if err == nil && r.config.carriesHeaders() {
		header, err = propagation.WorkflowOutgoingHeader(ctx, r.config.propagators, r.activityHeaderCodec(name, cmp.Or(opts.TaskQueue, r.info.TaskQueueName), false))
	}
	if err == nil {
		err = queueErr
	}
	if err != nil {
		f.Set(nil, err)
		return f
	}
	r.scheduleActivity(ctx, f, name, opts, taskQueue, header, input, dc, fc)
	return f
}

// activityOptionsOf returns the options ctx carries, not to be changed
// (GetActivityOptions returns a copy).
func activityOptionsOf(ctx Context) *ActivityOptions {
	if o, ok := ctx.Value(activityOptionsKey{}).(*ActivityOptions); ok {
		return o
	}
	return &ActivityOptions{}
}

// checkActivityOptions returns the error of ExecuteActivity's options
// that say what cannot be: a negative timeout, a retry policy that
// cannot be, no timeout to end the activity.
func checkActivityOptions(name string, opts *ActivityOptions) error {
	err := optcheck.NegativeInCall("ExecuteActivity", name, "workflow.ActivityOptions",
		optcheck.Duration("ScheduleToCloseTimeout", opts.ScheduleToCloseTimeout), optcheck.Duration("ScheduleToStartTimeout", opts.ScheduleToStartTimeout),
		optcheck.Duration("StartToCloseTimeout", opts.StartToCloseTimeout), optcheck.Duration("HeartbeatTimeout", opts.HeartbeatTimeout))
	if err == nil {
		err = optcheck.CallError("ExecuteActivity", name, "workflow.ActivityOptions", policy.CheckRetryPolicy(opts.RetryPolicy))
	}
	if err == nil && opts.StartToCloseTimeout == 0 && opts.ScheduleToCloseTimeout == 0 {
		err = errNoActivityTimeout
	}
	return err
}

// scheduleActivity gives the engine the command that schedules the
// activity, and settles f with its outcome.
func (r *workflowRun) scheduleActivity(ctx Context, f *wfsync.SettableFuture, name string, opts *ActivityOptions, taskQueue string,
	header *commonpb.Header, input *commonpb.Payloads, dc converter.DataConverter, fc converter.FailureConverter) {
	parts := new(scheduleActivityParts)
	parts.activityType.Name = name
	parts.taskQueue.Name, parts.taskQueue.Kind = taskQueue, enumspb.TASK_QUEUE_KIND_NORMAL
	attrs := &parts.attrs
	*attrs = commandpb.ScheduleActivityTaskCommandAttributes{
		ActivityId:             opts.ActivityID,
		ActivityType:           &parts.activityType,
		TaskQueue:              &parts.taskQueue,
		Header:                 header,
		Input:                  input,
		ScheduleToCloseTimeout: parts.timeouts[0].set(opts.ScheduleToCloseTimeout),
		ScheduleToStartTimeout: parts.timeouts[1].set(opts.ScheduleToStartTimeout),
		StartToCloseTimeout:    parts.timeouts[2].set(opts.StartToCloseTimeout),
		HeartbeatTimeout:       parts.timeouts[3].set(opts.HeartbeatTimeout),
		RetryPolicy:            policy.RetryPolicyToProto(opts.RetryPolicy),
		RequestEagerExecution:  !opts.DisableEagerExecution, // the worker withdraws it without a free slot
		// Build-ID versioning: on the workflow's own task queue the
		// activity stays on the workflow's build ID unless the intent
		// says the queue's default.
		UseWorkflowBuildId: policy.InheritBuildID(opts.VersioningIntent, r.info.TaskQueueName, taskQueue),
		Priority:           policy.PriorityToProto(opts.Priority),
	}
	if markers := r.eventGroupMarkers(ctx, opts.EventGroups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	act, err := r.exec.ScheduleActivity(attrs, opts.Summary, opts.WaitForCancellation, fc, func(result *commonpb.Payloads, err error) {
		if err != nil {
			f.Set(nil, err)
			return
		}
		f.Set(failure.NewCallResult(result, dc, "activity", name), nil)
	})
	if err != nil {
		f.Set(nil, fmt.Errorf("ExecuteActivity(%s): %w", name, err))
		return
	}
	wfsync.OnCancel(ctx, f, act.Cancel)
}

// scheduleActivityParts are a ScheduleActivityTask command's attributes
// and the messages they point to, made in one allocation rather than
// seven: the activity's machine keeps the attributes, and so all of them,
// until it ends.
type scheduleActivityParts struct {
	attrs        commandpb.ScheduleActivityTaskCommandAttributes
	activityType commonpb.ActivityType
	taskQueue    taskqueuepb.TaskQueue
	timeouts     [4]durationInPlace
}

// durationInPlace is a durationpb.Duration set where it lies.
type durationInPlace struct{ d durationpb.Duration }

// set makes the duration d, as durationpb.New makes it, and returns it.
func (p *durationInPlace) set(d time.Duration) *durationpb.Duration {
	p.d.Seconds, p.d.Nanos = int64(d/time.Second), int32(d%time.Second)
	return &p.d
}
