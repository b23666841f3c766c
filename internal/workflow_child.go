//lint:file-ignore SA1019 the deprecated namespace, control and inherit_build_id fields are what go.temporal.io/sdk sends and histories record.

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
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/memo"
	"github.com/durable-go/sdk/internal/optcheck"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/internal/wfsync"
)

// ChildWorkflowOptions configure the child workflows a workflow starts
// (workflow.ChildWorkflowOptions). Zero values take the server's defaults,
// or the parent's task queue.
type ChildWorkflowOptions struct {
	// Namespace of the child; the parent's by default.
	Namespace string
	// WorkflowID of the child; by default the parent's run ID and
	// a sequence number, the same on every replay.
	WorkflowID string
	// TaskQueue of the child; the parent's by default.
	TaskQueue                string
	WorkflowExecutionTimeout time.Duration
	WorkflowRunTimeout       time.Duration
	WorkflowTaskTimeout      time.Duration
	// WaitForCancellation is kept for compatibility: canceling a child
	// always waits for its close, as in go.temporal.io/sdk's worker.
	WaitForCancellation   bool
	WorkflowIDReusePolicy enumspb.WorkflowIdReusePolicy
	RetryPolicy           *policy.RetryPolicy
	CronSchedule          string
	Memo                  map[string]any
	SearchAttributes      map[string]any
	TypedSearchAttributes searchattr.SearchAttributes
	// ParentClosePolicy says what becomes of the child when the parent
	// closes first: terminated (the server's default), canceled, or
	// abandoned.
	ParentClosePolicy enumspb.ParentClosePolicy
	VersioningIntent  policy.VersioningIntent
	// VersioningOverride, when set, overrides the child's versioning
	// behavior (pinned to a version, or auto-upgrade) whatever its
	// workflow type's, as client.StartWorkflowOptions.VersioningOverride
	// does for a workflow a client starts.
	VersioningOverride clientapi.VersioningOverride
	// StaticSummary and StaticDetails are shown in the UI.
	StaticSummary string
	StaticDetails string
	Priority      policy.Priority
	// EventGroups are groups the child's commands belong to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

type childOptionsKey struct{}

// WithChildOptions returns a context whose child workflows (and continue
// as new, for task queue and timeouts) use options. An empty namespace or
// task queue keeps the context's, as in go.temporal.io/sdk; the other
// fields replace the context's.
func WithChildOptions(ctx Context, options ChildWorkflowOptions) Context {
	o := options
	current := GetChildWorkflowOptions(ctx)
	if o.Namespace == "" {
		o.Namespace = current.Namespace
	}
	if o.TaskQueue == "" {
		o.TaskQueue = current.TaskQueue
	}
	return WithValue(ctx, childOptionsKey{}, &o)
}

// GetChildWorkflowOptions returns the child workflow options ctx carries:
// by default the workflow's own namespace, task queue and timeouts.
func GetChildWorkflowOptions(ctx Context) ChildWorkflowOptions {
	if o, ok := ctx.Value(childOptionsKey{}).(*ChildWorkflowOptions); ok {
		return *o
	}
	// Computed rather than stored in every root context: most workflows
	// start no child.
	rt, _ := ctx.Value(wfsync.RuntimeKey{}).(*wfsync.Runtime)
	if rt == nil {
		return ChildWorkflowOptions{}
	}
	run, _ := rt.Run().(*workflowRun)
	if run == nil || run.info == nil {
		return ChildWorkflowOptions{}
	}
	info := run.info
	return ChildWorkflowOptions{
		Namespace:                info.Namespace,
		TaskQueue:                info.TaskQueueName,
		WorkflowExecutionTimeout: info.WorkflowExecutionTimeout,
		WorkflowRunTimeout:       info.WorkflowRunTimeout,
		WorkflowTaskTimeout:      info.WorkflowTaskTimeout,
	}
}

func withChildOption(ctx Context, change func(o *ChildWorkflowOptions)) Context {
	o := GetChildWorkflowOptions(ctx)
	change(&o)
	return WithValue(ctx, childOptionsKey{}, &o)
}

// WithWorkflowNamespace sets the namespace of the context's child workflows.
func WithWorkflowNamespace(ctx Context, name string) Context {
	return withChildOption(ctx, func(o *ChildWorkflowOptions) { o.Namespace = name })
}

// WithWorkflowID sets the workflow ID of the context's next child.
func WithWorkflowID(ctx Context, workflowID string) Context {
	return withChildOption(ctx, func(o *ChildWorkflowOptions) { o.WorkflowID = workflowID })
}

// WithWorkflowTaskQueue sets the task queue of the context's child
// workflows and continue-as-new.
func WithWorkflowTaskQueue(ctx Context, name string) Context {
	return withChildOption(ctx, func(o *ChildWorkflowOptions) { o.TaskQueue = name })
}

// WithWorkflowRunTimeout sets the run timeout of the context's child
// workflows and continue-as-new.
func WithWorkflowRunTimeout(ctx Context, d time.Duration) Context {
	return withChildOption(ctx, func(o *ChildWorkflowOptions) { o.WorkflowRunTimeout = d })
}

// WithWorkflowTaskTimeout sets the workflow task timeout of the context's
// child workflows and continue-as-new.
func WithWorkflowTaskTimeout(ctx Context, d time.Duration) Context {
	return withChildOption(ctx, func(o *ChildWorkflowOptions) { o.WorkflowTaskTimeout = d })
}

// WithWorkflowVersioningIntent sets the versioning intent of the context's
// child workflows.
func WithWorkflowVersioningIntent(ctx Context, intent policy.VersioningIntent) Context {
	return withChildOption(ctx, func(o *ChildWorkflowOptions) { o.VersioningIntent = intent })
}

// WithWorkflowPriority sets the priority of the context's child workflows.
func WithWorkflowPriority(ctx Context, priority policy.Priority) Context {
	return withChildOption(ctx, func(o *ChildWorkflowOptions) { o.Priority = priority })
}

// ChildWorkflowFuture is the future of a child workflow's result
// (workflow.ChildWorkflowFuture).
type ChildWorkflowFuture interface {
	Future
	// GetChildWorkflowExecution returns a Future of the child's
	// WorkflowExecution, ready once the child started (or could not).
	GetChildWorkflowExecution() Future
	// SignalChildWorkflow signals the child, once it started.
	SignalChildWorkflow(ctx Context, signalName string, data any) Future
	// SignalChildWorkflowWithOptions is SignalChildWorkflow with options.
	SignalChildWorkflowWithOptions(ctx Context, signalName string, data any, options SignalChildWorkflowOptions) Future
}

// SignalChildWorkflowOptions configure
// ChildWorkflowFuture.SignalChildWorkflowWithOptions.
type SignalChildWorkflowOptions struct {
	// EventGroups are groups the signal belongs to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

// childFuture is the result future of a child with its execution future.
type childFuture struct {
	*wfsync.SettableFuture
	execution *wfsync.SettableFuture
}

func (f *childFuture) GetChildWorkflowExecution() Future { return f.execution }

func (f *childFuture) SignalChildWorkflow(ctx Context, signalName string, data any) Future {
	var child clientapi.WorkflowExecution
	if err := f.execution.Get(ctx, &child); err != nil {
		return f.execution
	}
	r := runOf(ctx)
	if r.config.carriesHeaders() {
		ctx = propagation.WorkflowContextWithNewHeader(ctx)
	}
	return r.outbound.SignalChildWorkflow(ctx, child.ID, signalName, data)
}

func (f *childFuture) SignalChildWorkflowWithOptions(ctx Context, signalName string, data any, options SignalChildWorkflowOptions) Future {
	var child clientapi.WorkflowExecution
	if err := f.execution.Get(ctx, &child); err != nil {
		return f.execution
	}
	r := runOf(ctx)
	if r.config.carriesHeaders() {
		ctx = propagation.WorkflowContextWithNewHeader(ctx)
	}
	return r.outbound.SignalChildWorkflowWithOptions(ctx, child.ID, signalName, data, options)
}

// FailedChildFuture is the future of a child that could not start: its
// execution and its result fail with err. An interceptor that refuses a
// child returns it too (the tracing interceptor, in package interceptor).
func FailedChildFuture(err error) ChildWorkflowFuture {
	f := &childFuture{SettableFuture: &wfsync.SettableFuture{}, execution: &wfsync.SettableFuture{}}
	f.execution.Set(nil, err)
	f.Set(nil, err)
	return f
}

// ExecuteChildWorkflow starts a child workflow (a function or its type
// name) with args and returns the future of its result; its error is a
// *ChildWorkflowExecutionError if the child fails, times out, is canceled
// or terminated, or cannot start. Canceling ctx cancels the child (once it
// started), and the future then waits for the child to close.
func ExecuteChildWorkflow(ctx Context, childWorkflow any, args ...any) ChildWorkflowFuture {
	r := runOf(ctx)
	name, err := childWorkflowName(r.config.registry, childWorkflow)
	if err == nil {
		err = registry.CheckArgs(childWorkflow, args, "child workflow")
	}
	if err != nil {
		return FailedChildFuture(err)
	}
	if r.config.carriesHeaders() {
		ctx = propagation.WorkflowContextWithNewHeader(ctx)
	}
	return r.outbound.ExecuteChildWorkflow(ctx, name, passArgs(args)...)
}

func childWorkflowName(reg *registry.Registry, wf any) (string, error) {
	switch w := wf.(type) {
	case string:
		if w == "" {
			return "", errors.New("ExecuteChildWorkflow: the workflow type name is empty")
		}
		return w, nil
	case nil:
		return "", errors.New("ExecuteChildWorkflow: the workflow is nil; pass a workflow function or a type name")
	}
	name := reg.WorkflowTypeOf(wf)
	if name == "" {
		return "", fmt.Errorf("ExecuteChildWorkflow: %T is not a workflow; pass a workflow function or a type name", wf)
	}
	return name, nil
}

// executeChildWorkflow is ExecuteChildWorkflow at the end of the
// interceptor chain.
func (r *workflowRun) executeChildWorkflow(ctx Context, name string, args []any) ChildWorkflowFuture {
	if err := ctx.Err(); err != nil {
		return FailedChildFuture(err) // canceled before it could start, as in go.temporal.io/sdk
	}
	f := &childFuture{SettableFuture: &wfsync.SettableFuture{}, execution: &wfsync.SettableFuture{}}
	opts := GetChildWorkflowOptions(ctx)
	workflowID := opts.WorkflowID
	if workflowID == "" {
		workflowID = r.exec.DefaultChildWorkflowID()
	}
	// The child's input and result are converted with its serialization
	// context, as in go.temporal.io/sdk.
	dc, fc := r.workflowConverters(ctx, opts.Namespace, workflowID)
	attrs, err := r.childCommand(ctx, dc, name, workflowID, opts, args)
	if err != nil {
		return FailedChildFuture(err)
	}
	if err := r.encodeChildMemoAndSearchAttributes(attrs, name, opts); err != nil {
		return r.refusedChild(err)
	}
	var cancelChild func()
	if markers := r.eventGroupMarkers(ctx, opts.EventGroups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	child, err := r.exec.StartChildWorkflow(attrs, opts.StaticSummary, opts.StaticDetails, fc,
		func(execution *commonpb.WorkflowExecution, err error) {
			if err != nil {
				f.execution.Set(nil, err)
				return
			}
			// Like go.temporal.io/sdk, listen for ctx's cancellation only
			// once the child started (at once if ctx is canceled by then):
			// children canceled together are canceled in the order they
			// started, which is the order of their cancel commands.
			wfsync.OnCancel(ctx, f.SettableFuture, cancelChild)
			f.execution.Set(clientapi.WorkflowExecution{ID: execution.GetWorkflowId(), RunID: execution.GetRunId()}, nil)
		},
		func(result *commonpb.Payloads, err error) {
			if err != nil {
				f.Set(nil, err)
				return
			}
			f.Set(failure.NewCallResult(result, dc, "child workflow", name), nil)
		})
	var open *failure.ChildWorkflowExecutionAlreadyStartedError
	if errors.As(err, &open) {
		return r.refusedChild(err)
	}
	if err != nil {
		return FailedChildFuture(err)
	}
	cancelChild = child.Cancel
	return f
}

// refusedChild is the future of a child that go.temporal.io/sdk refuses
// once it has taken the child's place in the run (a sequence number for
// its default ID): its memo or search attributes cannot be encoded, or a
// child of its workflow ID is open. There is no command. The result is
// err; the execution future fails too under SDK flag 2, with a
// ChildWorkflowExecutionAlreadyStartedError whatever err is, as in
// go.temporal.io/sdk (which, before the flag, left it waiting).
func (r *workflowRun) refusedChild(err error) ChildWorkflowFuture {
	f := &childFuture{SettableFuture: &wfsync.SettableFuture{}, execution: &wfsync.SettableFuture{}}
	if r.exec.TryUseFlag(engine.FlagChildWorkflowErrorExecution) {
		f.execution.Set(nil, &failure.ChildWorkflowExecutionAlreadyStartedError{})
	}
	f.Set(nil, err)
	return f
}

// childCommand is the StartChildWorkflowExecution of a child, its input
// encoded with dc.
func (r *workflowRun) childCommand(ctx Context, dc converter.DataConverter, name, workflowID string, opts ChildWorkflowOptions, args []any) (*commandpb.StartChildWorkflowExecutionCommandAttributes, error) {
	if err := optcheck.NegativeInCall("ExecuteChildWorkflow", name, "workflow.ChildWorkflowOptions",
		optcheck.Duration("WorkflowExecutionTimeout", opts.WorkflowExecutionTimeout), optcheck.Duration("WorkflowRunTimeout", opts.WorkflowRunTimeout),
		optcheck.Duration("WorkflowTaskTimeout", opts.WorkflowTaskTimeout)); err != nil {
		return nil, err
	}
	if err := optcheck.CallError("ExecuteChildWorkflow", name, "workflow.ChildWorkflowOptions", policy.CheckRetryPolicy(opts.RetryPolicy)); err != nil {
		return nil, err
	}
	input, err := registry.EncodeArgs(dc, args)
	if err != nil {
		err = fmt.Errorf("ExecuteChildWorkflow(%s): encoding the input: %w", name, err)
		codecfail.FailTask(err)
		return nil, err
	}
	var header *commonpb.Header
	if r.config.carriesHeaders() {
		if header, err = propagation.WorkflowOutgoingHeader(ctx, r.config.propagators, r.headerCodecFor(converter.WorkflowSerializationContext{Namespace: cmp.Or(opts.Namespace, r.info.Namespace), WorkflowID: workflowID})); err != nil {
			return nil, err
		}
	}
	taskQueue := opts.TaskQueue
	if taskQueue == "" {
		taskQueue = r.info.TaskQueueName
	}
	// As in go.temporal.io/sdk, a child on the parent's task queue inherits
	// the parent's build ID unless its versioning intent says otherwise.
	inheritBuildID := policy.InheritBuildID(opts.VersioningIntent, r.info.TaskQueueName, taskQueue)
	attrs := &commandpb.StartChildWorkflowExecutionCommandAttributes{
		Namespace:                opts.Namespace,
		WorkflowId:               workflowID,
		WorkflowType:             &commonpb.WorkflowType{Name: name},
		TaskQueue:                &taskqueuepb.TaskQueue{Name: taskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
		Input:                    input,
		WorkflowExecutionTimeout: durationpb.New(opts.WorkflowExecutionTimeout),
		WorkflowRunTimeout:       durationpb.New(opts.WorkflowRunTimeout),
		WorkflowTaskTimeout:      durationpb.New(opts.WorkflowTaskTimeout),
		ParentClosePolicy:        opts.ParentClosePolicy,
		WorkflowIdReusePolicy:    opts.WorkflowIDReusePolicy,
		RetryPolicy:              policy.RetryPolicyToProto(opts.RetryPolicy),
		CronSchedule:             opts.CronSchedule,
		Header:                   header,
		InheritBuildId:           inheritBuildID,
		Priority:                 policy.PriorityToProto(opts.Priority),
		VersioningOverride:       clientapi.VersioningOverrideToProto(opts.VersioningOverride),
	}
	return attrs, nil
}

// encodeChildMemoAndSearchAttributes sets the child's memo and search
// attributes on its command.
func (r *workflowRun) encodeChildMemoAndSearchAttributes(attrs *commandpb.StartChildWorkflowExecutionCommandAttributes, name string, opts ChildWorkflowOptions) error {
	// Like go.temporal.io/sdk (flag 7), memo values are encoded with the
	// worker's data converter.
	r.exec.TryUseFlag(engine.FlagMemoUserDCEncode)
	encodedMemo, err := memo.Encode(r.dc, opts.Memo)
	if err != nil {
		return fmt.Errorf("ExecuteChildWorkflow(%s): %w", name, err)
	}
	sa, err := searchattr.EncodeForStart(opts.SearchAttributes, opts.TypedSearchAttributes)
	if err != nil {
		return fmt.Errorf("ExecuteChildWorkflow(%s): %w", name, err)
	}
	attrs.Memo, attrs.SearchAttributes = encodedMemo, sa
	return nil
}

// SignalExternalWorkflow signals a workflow run (the current run of
// workflowID when runID is empty). The future is ready once the signal was
// delivered, or failed: an *UnknownExternalWorkflowExecutionError when
// there is no such workflow.
func SignalExternalWorkflow(ctx Context, workflowID, runID, signalName string, arg any) Future {
	r := runOf(ctx)
	if r.config.carriesHeaders() {
		ctx = propagation.WorkflowContextWithNewHeader(ctx)
	}
	return r.outbound.SignalExternalWorkflow(ctx, workflowID, runID, signalName, arg)
}

// SignalExternalWorkflowOptions configure SignalExternalWorkflowWithOptions.
type SignalExternalWorkflowOptions struct {
	// EventGroups are groups the signal belongs to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

// SignalExternalWorkflowWithOptions is SignalExternalWorkflow with options.
func SignalExternalWorkflowWithOptions(ctx Context, workflowID, runID, signalName string, arg any, options SignalExternalWorkflowOptions) Future {
	r := runOf(ctx)
	if r.config.carriesHeaders() {
		ctx = propagation.WorkflowContextWithNewHeader(ctx)
	}
	return r.outbound.SignalExternalWorkflowWithOptions(ctx, workflowID, runID, signalName, arg, options)
}

// signalExternal is SignalExternalWorkflow and SignalChildWorkflow (with
// options) at the end of the interceptor chain.
func (r *workflowRun) signalExternal(ctx Context, workflowID, runID, signalName string, arg any, childOnly bool, groups []EventGroup) Future {
	f := &wfsync.SettableFuture{}
	if workflowID == "" {
		f.Set(nil, errors.New("SignalExternalWorkflow: the workflow ID is empty"))
		return f
	}
	// Encoded with the target's serialization context, as in
	// go.temporal.io/sdk.
	dc, _ := r.workflowConverters(ctx, GetChildWorkflowOptions(ctx).Namespace, workflowID)
	input, err := dc.ToPayloads(arg)
	if err != nil {
		err = fmt.Errorf("SignalExternalWorkflow(%s): the argument (%T) cannot be encoded: %w", signalName, arg, err)
		codecfail.FailTask(err)
		f.Set(nil, err)
		return f
	}
	var header *commonpb.Header
	if r.config.carriesHeaders() {
		if header, err = propagation.WorkflowOutgoingHeader(ctx, r.config.propagators, r.headerCodecFor(converter.WorkflowSerializationContext{Namespace: r.info.Namespace, WorkflowID: workflowID})); err != nil {
			f.Set(nil, err)
			return f
		}
	}
	if markers := r.eventGroupMarkers(ctx, groups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	r.exec.SignalExternalWorkflow(&commandpb.SignalExternalWorkflowExecutionCommandAttributes{
		Namespace:         GetChildWorkflowOptions(ctx).Namespace,
		Execution:         &commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID},
		SignalName:        signalName,
		Input:             input,
		ChildWorkflowOnly: childOnly,
		Header:            header,
	}, func(err error) { f.Set(nil, err) })
	return f
}

// RequestCancelExternalWorkflow asks a workflow run (the current run of
// workflowID when runID is empty) to cancel itself. The future is ready
// once the request was delivered, or failed.
func RequestCancelExternalWorkflow(ctx Context, workflowID, runID string) Future {
	return runOf(ctx).outbound.RequestCancelExternalWorkflow(ctx, workflowID, runID)
}

// CancelExternalWorkflowOptions configure
// RequestCancelExternalWorkflowWithOptions.
type CancelExternalWorkflowOptions struct {
	// EventGroups are groups the cancel request belongs to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

// RequestCancelExternalWorkflowWithOptions is RequestCancelExternalWorkflow
// with options.
func RequestCancelExternalWorkflowWithOptions(ctx Context, workflowID, runID string, options CancelExternalWorkflowOptions) Future {
	return runOf(ctx).outbound.RequestCancelExternalWorkflowWithOptions(ctx, workflowID, runID, options)
}

// requestCancelExternal is RequestCancelExternalWorkflow (with options) at
// the end of the interceptor chain.
func (r *workflowRun) requestCancelExternal(ctx Context, workflowID, runID string, groups []EventGroup) Future {
	f := &wfsync.SettableFuture{}
	if workflowID == "" {
		f.Set(nil, errors.New("RequestCancelExternalWorkflow: the workflow ID is empty"))
		return f
	}
	if markers := r.eventGroupMarkers(ctx, groups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	r.exec.RequestCancelExternalWorkflow(&commandpb.RequestCancelExternalWorkflowExecutionCommandAttributes{
		Namespace:  GetChildWorkflowOptions(ctx).Namespace,
		WorkflowId: workflowID,
		RunId:      runID,
	}, func(err error) { f.Set(nil, err) })
	return f
}
