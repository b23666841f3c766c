package internal

import (
	"errors"
	"fmt"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
)

// ContinueAsNewError, returned by a workflow function, closes the run and
// starts a new run of the workflow with fresh history
// (workflow.ContinueAsNewError).
type ContinueAsNewError struct {
	WorkflowType             *clientapi.WorkflowType
	Input                    *commonpb.Payloads
	Header                   *commonpb.Header
	TaskQueueName            string
	WorkflowRunTimeout       time.Duration
	WorkflowTaskTimeout      time.Duration
	BackoffStartInterval     time.Duration
	WorkflowExecutionTimeout time.Duration
	VersioningIntent         policy.VersioningIntent
	RetryPolicy              *policy.RetryPolicy
	// InitialVersioningBehavior says which worker deployment version the
	// new run's first task goes to (see ContinueAsNewVersioningBehavior).
	InitialVersioningBehavior ContinueAsNewVersioningBehavior

	// eventGroupMarkers are those of the call that made the error, for
	// the command that continues the run.
	eventGroupMarkers []*sdkpb.EventGroupMarker
}

// ContinueAsNewErrorOptions configure NewContinueAsNewErrorWithOptions.
type ContinueAsNewErrorOptions struct {
	// RetryPolicy of the new run; the current run's by default.
	RetryPolicy *policy.RetryPolicy
	// BackoffStartInterval delays the new run's start.
	BackoffStartInterval time.Duration
	// InitialVersioningBehavior says which worker deployment version the
	// new run's first task goes to (see ContinueAsNewVersioningBehavior);
	// unspecified: the new run inherits the current run's behavior.
	InitialVersioningBehavior ContinueAsNewVersioningBehavior
	// EventGroups are groups the command that continues the run belongs
	// to, besides the context's (see WithEventGroups).
	EventGroups []EventGroup
}

func (e *ContinueAsNewError) Error() string { return "continue as new" }

// NewContinueAsNewError returns the error that continues the workflow as a
// new run of wfn (a function or a type name) with args. The new run keeps
// the current task queue and timeouts.
func NewContinueAsNewError(ctx Context, wfn any, args ...any) error {
	r := runOf(ctx)
	if r.config.carriesHeaders() {
		ctx = propagation.WorkflowContextWithNewHeader(ctx)
	}
	if !r.intercepted {
		return r.newContinueAsNewError(ctx, ContinueAsNewErrorOptions{}, wfn, args)
	}
	return r.outbound.NewContinueAsNewError(ctx, wfn, passArgs(args)...)
}

// NewContinueAsNewErrorWithOptions is NewContinueAsNewError with options.
// Interceptors see it as NewContinueAsNewErrorWithOptions, as in
// go.temporal.io/sdk v1.51.
func NewContinueAsNewErrorWithOptions(ctx Context, options ContinueAsNewErrorOptions, wfn any, args ...any) error {
	r := runOf(ctx)
	if r.config.carriesHeaders() {
		ctx = propagation.WorkflowContextWithNewHeader(ctx)
	}
	if !r.intercepted {
		return r.newContinueAsNewError(ctx, options, wfn, args)
	}
	return r.outbound.NewContinueAsNewErrorWithOptions(ctx, options, wfn, passArgs(args)...)
}

// newContinueAsNewError is NewContinueAsNewError (with options) at the
// end of the interceptor chain. The header interceptors wrote to ctx goes
// to the new run.
func (r *workflowRun) newContinueAsNewError(ctx Context, options ContinueAsNewErrorOptions, wfn any, args []any) error {
	name := r.config.registry.WorkflowTypeOf(wfn)
	if name == "" {
		panic(fmt.Sprintf("NewContinueAsNewError: %T is not a workflow; pass a workflow function or type name", wfn))
	}
	if err := registry.CheckArgs(wfn, args, "workflow"); err != nil {
		panic(fmt.Errorf("NewContinueAsNewError: %w", err))
	}
	input, err := registry.EncodeArgs(r.dataConverter(ctx), args)
	if err != nil {
		panic(fmt.Errorf("NewContinueAsNewError(%s): %w", name, err))
	}
	var header *commonpb.Header
	if r.config.carriesHeaders() {
		if header, err = propagation.WorkflowOutgoingHeader(ctx, r.config.propagators, r.ownHeaderCodec()); err != nil {
			return err
		}
	}
	// Task queue and timeouts come from the context's workflow options,
	// the current run's by default, as in go.temporal.io/sdk.
	opts := GetChildWorkflowOptions(ctx)
	return &ContinueAsNewError{
		WorkflowType:         &clientapi.WorkflowType{Name: name},
		Input:                input,
		Header:               header,
		TaskQueueName:        opts.TaskQueue,
		WorkflowRunTimeout:   opts.WorkflowRunTimeout,
		WorkflowTaskTimeout:  opts.WorkflowTaskTimeout,
		RetryPolicy:          options.RetryPolicy, // nil: the current run's
		BackoffStartInterval: options.BackoffStartInterval,
		eventGroupMarkers:    r.eventGroupMarkers(ctx, options.EventGroups),
		// As go.temporal.io/sdk, the context's versioning intent for the
		// deprecated build-ID versioning.
		VersioningIntent:          opts.VersioningIntent,
		InitialVersioningBehavior: options.InitialVersioningBehavior,
	}
}

// IsContinueAsNewError reports whether err is, or wraps, a
// ContinueAsNewError.
func IsContinueAsNewError(err error) bool {
	var can *ContinueAsNewError
	return errors.As(err, &can)
}

// commandAttributes is the command that continues the run: the current
// memo and search attributes carry over, as do the retry policy (unless
// the error has one) and the task queue.
func (e *ContinueAsNewError) commandAttributes(r *workflowRun) *commandpb.ContinueAsNewWorkflowExecutionCommandAttributes {
	attrs := &commandpb.ContinueAsNewWorkflowExecutionCommandAttributes{
		WorkflowType:        &commonpb.WorkflowType{Name: e.WorkflowType.Name},
		TaskQueue:           &taskqueuepb.TaskQueue{Name: e.TaskQueueName, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
		Input:               e.Input,
		WorkflowRunTimeout:  durationpb.New(e.WorkflowRunTimeout),
		WorkflowTaskTimeout: durationpb.New(e.WorkflowTaskTimeout),
		Header:              e.Header,
		Memo:                r.info.Memo,
		SearchAttributes:    withoutUnset(r.info.SearchAttributes),
		//lint:ignore SA1019 go.temporal.io/sdk still sends it, for build-ID versioning.
		InheritBuildId:            policy.InheritBuildID(e.VersioningIntent, r.info.TaskQueueName, e.TaskQueueName),
		InitialVersioningBehavior: continueAsNewVersioningBehaviorProto(e.InitialVersioningBehavior),
	}
	if e.BackoffStartInterval > 0 {
		attrs.BackoffStartInterval = durationpb.New(e.BackoffStartInterval)
	}
	if e.RetryPolicy != nil {
		attrs.RetryPolicy = policy.RetryPolicyToProto(e.RetryPolicy)
	} else if r.info.RetryPolicy != nil {
		attrs.RetryPolicy = policy.RetryPolicyToProto(r.info.RetryPolicy)
	}
	return attrs
}
