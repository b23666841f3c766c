package interceptor

import (
	"context"
	"errors"
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/log"
)

// The worker side of the tracing interceptor. Activities are traced as
// any Go code is. Workflow code replays: a span started there while the
// workflow replays history would repeat one that the first execution
// already reported, so workflow spans are only started live.
//
// RunWorkflow is the span of the workflow code's execution on the worker
// that starts the run live. It ends when the code returns, or when that
// worker drops the run from its cache (the coroutines unwind), so it is
// reported once. A worker that rebuilds the run by replay starts none: the
// spans it starts after the replay hang under the client's span from the
// start header, the one RunWorkflow hangs under too. Signals delivered
// before the code starts (signal-with-start) are traced when it starts, by
// the worker that starts it live.

// InterceptActivity traces the activity's execution.
func (t *tracingInterceptor) InterceptActivity(_ context.Context, next internal.ActivityInboundInterceptor) internal.ActivityInboundInterceptor {
	return &tracingActivityInbound{ActivityInboundInterceptorBase: internal.ActivityInboundInterceptorBase{Next: next}, root: t}
}

// InterceptWorkflow traces the workflow run.
func (t *tracingInterceptor) InterceptWorkflow(_ internal.Context, next internal.WorkflowInboundInterceptor) internal.WorkflowInboundInterceptor {
	return &tracingWorkflowInbound{WorkflowInboundInterceptorBase: internal.WorkflowInboundInterceptorBase{Next: next}, root: t}
}

// tracingActivityInbound traces an activity attempt as
// RunActivity:<activity type>, under the workflow's StartActivity span.
type tracingActivityInbound struct {
	internal.ActivityInboundInterceptorBase
	root *tracingInterceptor
}

// Init wraps the outbound interceptor, for span-aware loggers.
func (a *tracingActivityInbound) Init(outbound internal.ActivityOutboundInterceptor) error {
	return a.Next.Init(&tracingActivityOutbound{ActivityOutboundInterceptorBase: internal.ActivityOutboundInterceptorBase{Next: outbound}, root: a.root})
}

// ExecuteActivity runs the activity inside its span.
func (a *tracingActivityInbound) ExecuteActivity(ctx context.Context, in *internal.ExecuteActivityInput) (any, error) {
	info := internal.GetActivityInfo(ctx)
	span, ctx, err := a.root.startInContext(ctx, spanOp{
		operation: "RunActivity", name: info.ActivityType.Name,
		tags: map[string]string{
			tracingTagWorkflowID: info.WorkflowExecution.ID,
			tracingTagRunID:      info.WorkflowExecution.RunID,
			tracingTagActivityID: info.ActivityID,
		},
		time: info.StartedTime, dependedOn: true,
		header: propagation.Header(ctx), headerCtx: ctx, fromHeader: true,
	})
	if err != nil {
		return nil, err
	}
	result, err := a.Next.ExecuteActivity(ctx, in)
	finishSpan(span, err)
	return result, err
}

// tracingActivityOutbound gives activity code a logger that names its span.
type tracingActivityOutbound struct {
	internal.ActivityOutboundInterceptorBase
	root *tracingInterceptor
}

// GetLogger adds the span to the activity's logger.
func (a *tracingActivityOutbound) GetLogger(ctx context.Context) log.Logger {
	if span := a.root.tracer.SpanFromContext(ctx); span != nil {
		return a.root.tracer.GetLogger(a.Next.GetLogger(ctx), span)
	}
	return a.Next.GetLogger(ctx)
}

// tracingWorkflowInbound traces a workflow run's execution, signals and
// queries.
type tracingWorkflowInbound struct {
	internal.WorkflowInboundInterceptorBase
	root *tracingInterceptor
	// parent is what the run's spans hang under when their context has
	// none: RunWorkflow when this worker started the run live, otherwise
	// the span of the start header.
	parent TracerSpanRef
	// startSpan is the start header's span field, passed on to the next
	// run when the workflow continues as new after a replay.
	startSpan *commonpb.Payload
	// spansStarted counts the inbound calls that may start a span, replay
	// included, so that idempotency keys are the same on every execution.
	spansStarted int
	// codeStarted is set once ExecuteWorkflow runs. Signals delivered
	// before (signal-with-start) wait in earlySignals until then: only
	// when the code starts is it known whether the run is live or
	// replayed.
	codeStarted  bool
	earlySignals []spanOp
}

// idempotencyKey names the next inbound span of the run.
func (w *tracingWorkflowInbound) idempotencyKey(info *internal.WorkflowInfo) string {
	w.spansStarted++
	return fmt.Sprintf("%s/%s/%s/%d", info.Namespace, info.WorkflowExecution.ID, info.WorkflowExecution.RunID, w.spansStarted)
}

// Init wraps the outbound interceptor, to trace the workflow's calls.
func (w *tracingWorkflowInbound) Init(outbound internal.WorkflowOutboundInterceptor) error {
	return w.Next.Init(&tracingWorkflowOutbound{WorkflowOutboundInterceptorBase: internal.WorkflowOutboundInterceptorBase{Next: outbound}, inbound: w})
}

// ExecuteWorkflow runs the workflow code, inside a RunWorkflow span when
// the run starts live here.
func (w *tracingWorkflowInbound) ExecuteWorkflow(ctx internal.Context, in *internal.ExecuteWorkflowInput) (any, error) {
	info := internal.GetInfo(ctx)
	key := w.idempotencyKey(info)
	header := propagation.WorkflowHeader(ctx)
	w.startSpan = header[w.root.options.HeaderKey]
	w.codeStarted = true
	early := w.earlySignals
	w.earlySignals = nil
	if internal.IsReplaying(ctx) {
		parent, err := w.root.readHeaderOf(header, ctx)
		if err != nil && !w.root.options.AllowInvalidParentSpans {
			return nil, err
		}
		w.parent = parent
		return w.Next.ExecuteWorkflow(ctx, in)
	}
	span, err := w.root.start(spanOp{
		operation: "RunWorkflow", name: info.WorkflowType.Name,
		tags: map[string]string{
			tracingTagWorkflowID: info.WorkflowExecution.ID,
			tracingTagRunID:      info.WorkflowExecution.RunID,
		},
		time: info.WorkflowStartTime, idempotencyKey: key,
		header: header, headerCtx: ctx, fromHeader: true,
	}, nil)
	if err != nil {
		return nil, err
	}
	w.parent = span
	for _, op := range early {
		signalSpan, err := w.root.start(op, span)
		if err != nil {
			finishSpan(span, err)
			return nil, err
		}
		finishSpan(signalSpan, nil)
	}
	// Deferred, so that the span also ends when the run is dropped from
	// the cache and its coroutines unwind.
	var spanErr error
	defer func() { finishSpan(span, spanErr) }()
	result, err := w.Next.ExecuteWorkflow(internal.WithValue(ctx, w.root.options.SpanContextKey, span), in)
	var continued *internal.ContinueAsNewError
	if !errors.As(err, &continued) {
		spanErr = err
	}
	return result, err
}

// HandleSignal traces a signal's delivery as HandleSignal:<signal name>,
// under the sender's span.
func (w *tracingWorkflowInbound) HandleSignal(ctx internal.Context, in *internal.HandleSignalInput) error {
	info := internal.GetInfo(ctx)
	key := w.idempotencyKey(info)
	if w.root.options.DisableSignalTracing {
		return w.Next.HandleSignal(ctx, in)
	}
	op := spanOp{
		operation: "HandleSignal", name: in.SignalName,
		tags: map[string]string{
			tracingTagWorkflowID: info.WorkflowExecution.ID,
			tracingTagRunID:      info.WorkflowExecution.RunID,
		},
		idempotencyKey: key,
		header:         propagation.WorkflowHeader(ctx), headerCtx: ctx, fromHeader: true,
	}
	if !w.codeStarted {
		op.time = time.Now()
		w.earlySignals = append(w.earlySignals, op)
		return w.Next.HandleSignal(ctx, in)
	}
	if internal.IsReplaying(ctx) {
		return w.Next.HandleSignal(ctx, in)
	}
	span, err := w.root.start(op, w.parent)
	if err != nil {
		return err
	}
	err = w.Next.HandleSignal(internal.WithValue(ctx, w.root.options.SpanContextKey, span), in)
	finishSpan(span, err)
	return err
}

// HandleQuery traces a query's answer as HandleQuery:<query type>, under
// the sender's span. Queries are not in history, so their spans take no
// idempotency key: one would not be the same on every execution.
func (w *tracingWorkflowInbound) HandleQuery(ctx internal.Context, in *internal.HandleQueryInput) (any, error) {
	if w.root.options.DisableQueryTracing || internal.IsReplaying(ctx) {
		return w.Next.HandleQuery(ctx, in)
	}
	info := internal.GetInfo(ctx)
	span, err := w.root.start(spanOp{
		operation: "HandleQuery", name: in.QueryType,
		tags: map[string]string{
			tracingTagWorkflowID: info.WorkflowExecution.ID,
			tracingTagRunID:      info.WorkflowExecution.RunID,
		},
		header: propagation.WorkflowHeader(ctx), headerCtx: ctx, fromHeader: true,
	}, w.parent)
	if err != nil {
		return nil, err
	}
	result, err := w.Next.HandleQuery(internal.WithValue(ctx, w.root.options.SpanContextKey, span), in)
	finishSpan(span, err)
	return result, err
}

// ValidateUpdate traces an update's validation as ValidateUpdate:<update
// name>, under the sender's span. Validators do not run in replay, so the
// span takes no idempotency key.
func (w *tracingWorkflowInbound) ValidateUpdate(ctx internal.Context, in *internal.UpdateInput) error {
	if w.root.options.DisableUpdateTracing || internal.IsReplaying(ctx) {
		return w.Next.ValidateUpdate(ctx, in)
	}
	span, err := w.root.start(w.updateSpan(ctx, "ValidateUpdate", in, ""), w.parent)
	if err != nil {
		return err
	}
	err = w.Next.ValidateUpdate(internal.WithValue(ctx, w.root.options.SpanContextKey, span), in)
	finishSpan(span, err)
	return err
}

// ExecuteUpdate traces an update's handler as HandleUpdate:<update name>,
// under the sender's span.
func (w *tracingWorkflowInbound) ExecuteUpdate(ctx internal.Context, in *internal.UpdateInput) (any, error) {
	if w.root.options.DisableUpdateTracing {
		return w.Next.ExecuteUpdate(ctx, in)
	}
	key := w.idempotencyKey(internal.GetInfo(ctx))
	if internal.IsReplaying(ctx) {
		return w.Next.ExecuteUpdate(ctx, in)
	}
	span, err := w.root.start(w.updateSpan(ctx, "HandleUpdate", in, key), w.parent)
	if err != nil {
		return nil, err
	}
	result, err := w.Next.ExecuteUpdate(internal.WithValue(ctx, w.root.options.SpanContextKey, span), in)
	finishSpan(span, err)
	return result, err
}

func (w *tracingWorkflowInbound) updateSpan(ctx internal.Context, operation string, in *internal.UpdateInput, key string) spanOp {
	info := internal.GetInfo(ctx)
	return spanOp{
		operation: operation, name: in.Name,
		tags: map[string]string{
			tracingTagWorkflowID: info.WorkflowExecution.ID,
			tracingTagRunID:      info.WorkflowExecution.RunID,
			tracingTagUpdateID:   internal.GetCurrentUpdateInfo(ctx).ID,
		},
		idempotencyKey: key,
		header:         propagation.WorkflowHeader(ctx), headerCtx: ctx, fromHeader: true,
		time: time.Now(),
	}
}

// tracingWorkflowOutbound traces the calls workflow code makes.
type tracingWorkflowOutbound struct {
	internal.WorkflowOutboundInterceptorBase
	inbound *tracingWorkflowInbound
}

// current is the span that workflow code running with ctx is under.
func (w *tracingWorkflowOutbound) current(ctx internal.Context) TracerSpanRef {
	if span, ok := ctx.Value(w.inbound.root.options.SpanContextKey).(TracerSpan); ok {
		return span
	}
	return w.inbound.parent
}

// ExecuteActivity traces the scheduling of an activity as
// StartActivity:<activity type>, and sends the span with it.
func (w *tracingWorkflowOutbound) ExecuteActivity(ctx internal.Context, activityType string, args ...any) internal.Future {
	return w.traceActivity(ctx, activityType, func(ctx internal.Context) internal.Future { return w.Next.ExecuteActivity(ctx, activityType, args...) })
}

// ExecuteLocalActivity traces a local activity as go.temporal.io/sdk does:
// like an activity, StartActivity:<activity type>.
func (w *tracingWorkflowOutbound) ExecuteLocalActivity(ctx internal.Context, activityType string, args ...any) internal.Future {
	return w.traceActivity(ctx, activityType, func(ctx internal.Context) internal.Future {
		return w.Next.ExecuteLocalActivity(ctx, activityType, args...)
	})
}

func (w *tracingWorkflowOutbound) traceActivity(ctx internal.Context, activityType string, next func(internal.Context) internal.Future) internal.Future {
	if w.Next.IsReplaying(ctx) {
		return next(ctx)
	}
	info := w.Next.GetInfo(ctx)
	span, err := w.inbound.root.start(spanOp{
		operation: "StartActivity", name: activityType,
		tags: map[string]string{
			tracingTagWorkflowID: info.WorkflowExecution.ID,
			tracingTagRunID:      info.WorkflowExecution.RunID,
		},
		dependedOn: true,
		header:     propagation.WorkflowHeader(ctx), headerCtx: ctx, toHeader: true,
	}, w.current(ctx))
	if err != nil {
		future, settable := internal.NewFuture(ctx)
		settable.SetError(err)
		return future
	}
	defer finishSpan(span, nil)
	return next(internal.WithValue(ctx, w.inbound.root.options.SpanContextKey, span))
}

// ExecuteChildWorkflow traces a child's start as
// StartChildWorkflow:<child type>, and sends the span with it.
func (w *tracingWorkflowOutbound) ExecuteChildWorkflow(ctx internal.Context, childWorkflowType string, args ...any) internal.ChildWorkflowFuture {
	span, ctx, err := w.startSpan(ctx, "StartChildWorkflow", childWorkflowType, false)
	if err != nil {
		return internal.FailedChildFuture(err)
	}
	if span != nil {
		defer finishSpan(span, nil)
	}
	return w.Next.ExecuteChildWorkflow(ctx, childWorkflowType, args...)
}

// SignalWithStartWorkflow traces a signal-with-start as
// SignalWithStartWorkflow:<workflow type>, and sends the span in the
// request's header, as go.temporal.io/sdk does.
func (w *tracingWorkflowOutbound) SignalWithStartWorkflow(ctx internal.Context, options internal.SignalWithStartWorkflowOptions, workflowID, signal string, signalArg any, workflowType string, args ...any) internal.Future {
	span, ctx, err := w.startSpan(ctx, "SignalWithStartWorkflow", workflowType, false)
	if err != nil {
		future, settable := internal.NewFuture(ctx)
		settable.SetError(err)
		return future
	}
	if span != nil {
		defer finishSpan(span, nil)
	}
	return w.Next.SignalWithStartWorkflow(ctx, options, workflowID, signal, signalArg, workflowType, args...)
}

// ExecuteNexusOperation traces a Nexus operation's start as
// StartNexusOperation:<service>/<operation>, and sends the span with the
// request, in its Nexus header.
func (w *tracingWorkflowOutbound) ExecuteNexusOperation(ctx internal.Context, input internal.ExecuteNexusOperationInput) internal.NexusOperationFuture {
	var operation string
	switch op := input.Operation.(type) {
	case string:
		operation = op
	case interface{ Name() string }:
		operation = op.Name()
	default:
		return failedNexusFuture(ctx, fmt.Errorf("unexpected operation type: %v", input.Operation))
	}
	if w.Next.IsReplaying(ctx) {
		return w.Next.ExecuteNexusOperation(ctx, input)
	}
	info := w.Next.GetInfo(ctx)
	span, err := w.inbound.root.start(spanOp{
		operation: "StartNexusOperation", name: input.Client.Service() + "/" + operation,
		tags: map[string]string{
			tracingTagWorkflowID: info.WorkflowExecution.ID,
			tracingTagRunID:      info.WorkflowExecution.RunID,
		},
		toHeader: true, nexusHeader: input.NexusHeader,
	}, w.current(ctx))
	if err != nil {
		return failedNexusFuture(ctx, err)
	}
	defer finishSpan(span, nil)
	return w.Next.ExecuteNexusOperation(internal.WithValue(ctx, w.inbound.root.options.SpanContextKey, span), input)
}

// failedNexusFuture is an operation's future that failed with err.
func failedNexusFuture(ctx internal.Context, err error) internal.NexusOperationFuture {
	future, settable := internal.NewFuture(ctx)
	settable.SetError(err)
	return nexusFailedFuture{future}
}

type nexusFailedFuture struct{ internal.Future }

func (f nexusFailedFuture) GetNexusOperationExecution() internal.Future { return f.Future }

// SignalExternalWorkflow traces a signal to another workflow as
// SignalExternalWorkflow:<signal name>, and sends the span with it.
func (w *tracingWorkflowOutbound) SignalExternalWorkflow(ctx internal.Context, workflowID, runID, signalName string, arg any) internal.Future {
	if w.inbound.root.options.DisableSignalTracing {
		return w.Next.SignalExternalWorkflow(ctx, workflowID, runID, signalName, arg)
	}
	span, ctx, err := w.startSpan(ctx, "SignalExternalWorkflow", signalName, false)
	if err != nil {
		future, settable := internal.NewFuture(ctx)
		settable.SetError(err)
		return future
	}
	if span != nil {
		defer finishSpan(span, nil)
	}
	return w.Next.SignalExternalWorkflow(ctx, workflowID, runID, signalName, arg)
}

// SignalExternalWorkflowWithOptions traces a signal to another workflow as
// SignalExternalWorkflow does.
func (w *tracingWorkflowOutbound) SignalExternalWorkflowWithOptions(ctx internal.Context, workflowID, runID, signalName string, arg any, options internal.SignalExternalWorkflowOptions) internal.Future {
	if w.inbound.root.options.DisableSignalTracing {
		return w.Next.SignalExternalWorkflowWithOptions(ctx, workflowID, runID, signalName, arg, options)
	}
	span, ctx, err := w.startSpan(ctx, "SignalExternalWorkflow", signalName, false)
	if err != nil {
		future, settable := internal.NewFuture(ctx)
		settable.SetError(err)
		return future
	}
	if span != nil {
		defer finishSpan(span, nil)
	}
	return w.Next.SignalExternalWorkflowWithOptions(ctx, workflowID, runID, signalName, arg, options)
}

// SignalChildWorkflow traces a signal to a child as
// SignalChildWorkflow:<signal name>, and sends the span with it.
func (w *tracingWorkflowOutbound) SignalChildWorkflow(ctx internal.Context, workflowID, signalName string, arg any) internal.Future {
	if w.inbound.root.options.DisableSignalTracing {
		return w.Next.SignalChildWorkflow(ctx, workflowID, signalName, arg)
	}
	span, ctx, err := w.startSpan(ctx, "SignalChildWorkflow", signalName, false)
	if err != nil {
		future, settable := internal.NewFuture(ctx)
		settable.SetError(err)
		return future
	}
	if span != nil {
		defer finishSpan(span, nil)
	}
	return w.Next.SignalChildWorkflow(ctx, workflowID, signalName, arg)
}

// SignalChildWorkflowWithOptions traces a signal to a child as
// SignalChildWorkflow does.
func (w *tracingWorkflowOutbound) SignalChildWorkflowWithOptions(ctx internal.Context, workflowID, signalName string, arg any, options internal.SignalChildWorkflowOptions) internal.Future {
	if w.inbound.root.options.DisableSignalTracing {
		return w.Next.SignalChildWorkflowWithOptions(ctx, workflowID, signalName, arg, options)
	}
	span, ctx, err := w.startSpan(ctx, "SignalChildWorkflow", signalName, false)
	if err != nil {
		future, settable := internal.NewFuture(ctx)
		settable.SetError(err)
		return future
	}
	if span != nil {
		defer finishSpan(span, nil)
	}
	return w.Next.SignalChildWorkflowWithOptions(ctx, workflowID, signalName, arg, options)
}

// startSpan starts the span of a call the code makes, written to the
// call's header; in replay it starts none (nil span, ctx unchanged).
func (w *tracingWorkflowOutbound) startSpan(ctx internal.Context, operation, name string, dependedOn bool) (TracerSpan, internal.Context, error) {
	if w.Next.IsReplaying(ctx) {
		return nil, ctx, nil
	}
	info := w.Next.GetInfo(ctx)
	span, err := w.inbound.root.start(spanOp{
		operation: operation, name: name,
		tags: map[string]string{
			tracingTagWorkflowID: info.WorkflowExecution.ID,
			tracingTagRunID:      info.WorkflowExecution.RunID,
		},
		dependedOn: dependedOn,
		header:     propagation.WorkflowHeader(ctx), headerCtx: ctx, toHeader: true,
	}, w.current(ctx))
	if err != nil {
		return nil, ctx, err
	}
	return span, internal.WithValue(ctx, w.inbound.root.options.SpanContextKey, span), nil
}

// GetLogger adds the current span to the workflow's logger.
func (w *tracingWorkflowOutbound) GetLogger(ctx internal.Context) log.Logger {
	if ref := w.current(ctx); ref != nil {
		return w.inbound.root.tracer.GetLogger(w.Next.GetLogger(ctx), ref)
	}
	return w.Next.GetLogger(ctx)
}

// NewContinueAsNewError passes the current span on to the next run, so
// that its trace continues this one's.
func (w *tracingWorkflowOutbound) NewContinueAsNewError(ctx internal.Context, wfn any, args ...any) error {
	return w.passSpanOn(ctx, w.Next.NewContinueAsNewError(ctx, wfn, args...))
}

// NewContinueAsNewErrorWithOptions passes the current span on to the next
// run, as NewContinueAsNewError does.
func (w *tracingWorkflowOutbound) NewContinueAsNewErrorWithOptions(ctx internal.Context, options internal.ContinueAsNewErrorOptions, wfn any, args ...any) error {
	return w.passSpanOn(ctx, w.Next.NewContinueAsNewErrorWithOptions(ctx, options, wfn, args...))
}

// passSpanOn writes the current span to the header of the run err
// continues to.
func (w *tracingWorkflowOutbound) passSpanOn(ctx internal.Context, err error) error {
	var continued *internal.ContinueAsNewError
	if w.Next.IsReplaying(ctx) || !errors.As(err, &continued) {
		return err
	}
	header := propagation.WorkflowHeader(ctx)
	if span, ok := w.current(ctx).(TracerSpan); ok {
		if writeErr := w.inbound.root.writeHeader(header, span); writeErr != nil {
			return fmt.Errorf("continuing as new: %w", writeErr)
		}
		w.inbound.root.markForEncoding(ctx)
	} else if w.inbound.startSpan != nil && header != nil {
		header[w.inbound.root.options.HeaderKey] = w.inbound.startSpan
	}
	return err
}
