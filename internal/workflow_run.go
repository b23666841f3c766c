package internal

import (
	"errors"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/coro"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/wfsync"
)

// workflowRun is one run of a registered workflow function, as the engine
// drives it (it implements engine.Workflow). Its state lives between
// workflow tasks in the worker's sticky cache.
type workflowRun struct {
	config *runConfig
	fn     *registry.Func
	exec   *engine.Run
	rt     *wfsync.Runtime
	// dc and fc convert the run's own payloads and failures: the worker's,
	// told the run's serialization context (useOwnConverters).
	dc converter.DataConverter
	fc converter.FailureConverter
	// startedByNexus is the serialization context of the Nexus operation
	// that started the run (nil: none), with which its result and failure
	// are converted, as the operation's caller reads them.
	startedByNexus *converter.NexusSerializationContext

	rootCtx    Context
	cancelRoot CancelFunc
	// input is what the root coroutine calls the workflow function with
	// (*ExecuteWorkflowInput), or the error its arguments could not be
	// decoded with; nil once taken (see takeInput).
	input   any
	info    *WorkflowInfo
	logger  *runLogger         // made on first use (see log)
	metrics sdkmetrics.Handler // made on first use (see metricsHandler)

	signals signalChannels
	queries queryHandlers
	updates runUpdates
	// readOnly: a query handler or an update validator runs, which may
	// not make commands.
	readOnly bool
	// intercepted: the worker has interceptors, so outbound is not just
	// the root (see passArgs).
	intercepted    bool
	currentDetails string                          // SetCurrentDetails, shown in the metadata query
	localVars      map[*localVarKey]any            // workflow.LocalVar values; made on first Set
	randoms        map[string]*wfsync.RandomStream // workflow.GetRandomStream; made on first use
	openSessions   map[string]*SessionInfo

	// inbound is where the start, signals and queries enter the run;
	// outbound is where the workflow package's calls go. Both end at the
	// run's workflowRoot, directly when there are no interceptors.
	inbound  WorkflowInboundInterceptor
	outbound WorkflowOutboundInterceptor

	// ended is how the workflow function returned, once it has; the
	// replayer reports it.
	ended *workflowEnding
}

// workflowEnding is how a workflow function returned.
type workflowEnding struct {
	returned bool               // it has returned
	result   *commonpb.Payloads // the encoded result, when it completed
	err      error              // the error it returned, or that failed it
}

// runOf returns the run that ctx belongs to.
func runOf(ctx Context) *workflowRun {
	r, _ := wfsync.RuntimeOf(ctx).Run().(*workflowRun)
	if r == nil {
		panic("workflow: this call needs a workflow run (the Context is not one a worker or replayer gave a workflow)")
	}
	return r
}

// Go implements wfsync.Run: workflow.Go goes through the run's
// interceptors.
func (r *workflowRun) Go(ctx Context, name string, f func(ctx Context)) Context {
	return r.outbound.Go(ctx, name, f)
}

// Await implements wfsync.Run: workflow.Await goes through the run's
// interceptors.
func (r *workflowRun) Await(ctx Context, condition func() bool) error {
	return r.outbound.Await(ctx, condition)
}

// spawn creates a coroutine that runs f with ctx, what Go does at the end
// of the interceptor chain; a query handler or an update validator may not.
func (r *workflowRun) spawn(ctx Context, name string, f func(ctx Context)) {
	if r.readOnly {
		panic(&commands.ReadOnlyError{What: "a coroutine (workflow.Go)"})
	}
	r.rt.Spawn(ctx, name, f)
}

// Start prepares the root coroutine; it runs at the first workflow task.
func (r *workflowRun) Start(x *engine.Run, started *historypb.WorkflowExecutionStartedEventAttributes) error {
	r.exec = x
	r.rt = wfsync.NewRuntime(coro.Options{DeadlockTimeout: r.config.deadlockTimeout})
	r.rt.Attach(r, r)
	r.signals.init(r.dropCorruptSignal)
	r.info = r.config.buildInfo(x, started)
	r.useOwnConverters()
	if sc := started.GetPropagatedNexusSerializationContext(); sc != nil {
		r.startedByNexus = &converter.NexusSerializationContext{Endpoint: sc.GetEndpoint(), Service: sc.GetService(), Operation: sc.GetOperation()}
	}
	// Decoded here rather than in the root coroutine: decoding needs deep
	// stacks, and a coroutine's stack stays as large as it ever grew.
	args, err := r.fn.DecodeArgs(r.dc, started.GetInput(), "workflow")
	if codecfail.Has(err) {
		return fmt.Errorf("decoding the input of %w", err)
	}
	if err != nil {
		r.input = err
	} else {
		r.input = &ExecuteWorkflowInput{Args: registry.Interfaces(args)}
	}
	r.rootCtx, r.cancelRoot = wfsync.NewRootContext(r.rt)
	if err := r.initInterceptors(started.GetHeader()); err != nil {
		return err
	}
	r.outbound.Go(r.rootCtx, "root", r.root())
	return nil
}

// root returns the root coroutine: it calls the workflow function and
// turns its return into the command that closes the workflow. Its frame
// stays under the workflow function for as long as the workflow waits, so
// what happens before and after the call is in functions of their own,
// and it is a function literal rather than a method value, whose wrapper
// would add a frame.
func (r *workflowRun) root() func(ctx Context) {
	return func(ctx Context) {
		// Like go.temporal.io/sdk, let the first pass end before the
		// workflow function starts, so coroutines are created in the same
		// order.
		r.rt.Dispatcher().Yield("starting")
		in := r.takeInput()
		if in == nil {
			return
		}
		result, err := r.inbound.ExecuteWorkflow(ctx, in)
		r.returned(result, err)
	}
}

// takeInput hands the decoded arguments over to the workflow call, or
// fails the workflow (and returns nil) if they could not be decoded.
//
//go:noinline
func (r *workflowRun) takeInput() *ExecuteWorkflowInput {
	input := r.input
	r.input = nil
	if err, ok := input.(error); ok {
		err = failure.NewApplicationError(err.Error(), "ArgumentDecodingError")
		r.ended = &workflowEnding{returned: true, err: err}
		r.exec.CloseWorkflow(engine.Close{Err: err})
		return nil
	}
	return input.(*ExecuteWorkflowInput)
}

// metricsHandler returns the run's metrics handler (GetMetricsHandler),
// made on first use: the worker's, tagged with the run's namespace, task
// queue and workflow type, and silent in replay.
func (r *workflowRun) metricsHandler() sdkmetrics.Handler {
	if r.metrics == nil {
		r.metrics = sdkmetrics.ReplayAware(r.config.metrics.WithTags(map[string]string{
			"namespace": r.info.Namespace, "task_queue": r.info.TaskQueueName, "workflow_type": r.info.WorkflowType.Name,
		}), r.exec.IsReplaying)
	}
	return r.metrics
}

// log returns the run's logger (GetLogger), made on first use.
func (r *workflowRun) log() *runLogger {
	if r.logger == nil {
		r.logger = &runLogger{run: r, next: r.config.runLogNext}
	}
	return r.logger
}

// returned closes the workflow as its function's return says. err may
// come from an interceptor rather than the function (whose error
// workflowRoot checked): one whose chain cannot be walked is replaced.
//
//go:noinline
func (r *workflowRun) returned(result any, err error) {
	err = failure.SafeChain(err)
	r.warnOfUnhandledSignals(err)
	r.warnOfUnfinishedUpdates(err)
	c := r.closeFor(result, err)
	if err == nil {
		err = c.Err // the result could not be encoded
	}
	r.ended = &workflowEnding{returned: true, result: c.Result, err: err}
	r.exec.CloseWorkflow(c)
}

// closeFor says how a workflow that returned (result, err) closes, as
// go.temporal.io/sdk decides it: a cancellation anywhere in the error
// chain cancels the workflow, a ContinueAsNewError continues it, other
// errors fail it.
func (r *workflowRun) closeFor(result any, err error) engine.Close {
	var canceled *failure.CanceledError
	var can *ContinueAsNewError
	switch {
	case errors.As(err, &canceled):
		var details *commonpb.Payloads
		if f := r.fc.ErrorToFailure(canceled); f.GetCanceledFailureInfo() != nil {
			details = f.GetCanceledFailureInfo().GetDetails()
		}
		return engine.Close{Canceled: true, Details: details}
	case errors.As(err, &can):
		return engine.Close{ContinueAsNew: can.commandAttributes(r), ContinueAsNewGroups: can.eventGroupMarkers}
	case err != nil && r.startedByNexus != nil:
		return engine.Close{Err: err, FailureConverter: converter.WithFailureConverterSerializationContext(r.config.fc, *r.startedByNexus)}
	case err != nil:
		return engine.Close{Err: err}
	case result == nil:
		return engine.Close{}
	}
	dc := r.dc
	if r.startedByNexus != nil {
		dc = converter.WithDataConverterSerializationContext(r.config.dc, *r.startedByNexus)
	}
	p, encErr := dc.ToPayloads(result)
	if encErr != nil {
		codecfail.FailTask(fmt.Errorf("encoding the workflow's result (%T): %w", result, encErr))
		// Non-retryable: a retry of the workflow would return a value that
		// cannot be encoded either.
		return engine.Close{Err: failure.NewNonRetryableApplicationError(fmt.Sprintf("the workflow's result (%T) cannot be encoded: %v", result, encErr), "ResultEncodingError", nil)}
	}
	return engine.Close{Result: p}
}

// Run resumes coroutines until all are blocked.
func (r *workflowRun) Run() error {
	err := r.rt.Dispatcher().RunUntilBlocked()
	if err == nil {
		return nil // before errors.As, whose target would escape each time
	}
	var p *coro.PanicError
	if errors.As(err, &p) {
		if e, ok := p.Value.(error); ok {
			// The panic unwraps to its value, which the engine walks.
			p.Value = failure.SafeChain(e)
		}
		return &codePanic{PanicError: p}
	}
	return err
}

// codePanic is a panic in workflow code. It unwraps both to the panic value
// (so a nondeterminism panic raised by the engine is recognized) and to a
// workflow panic failure (so a failed task or workflow shows the stack).
type codePanic struct{ *coro.PanicError }

func (p *codePanic) Unwrap() []error {
	errs := []error{failure.NewWorkflowPanicError(p.Value, p.Stack)}
	if e, ok := p.Value.(error); ok {
		errs = append(errs, e)
	}
	return errs
}

// Cancel cancels the root context: the workflow's cancellation was
// requested.
func (r *workflowRun) Cancel() { r.cancelRoot() }

// StackTrace renders every coroutine's stack.
func (r *workflowRun) StackTrace() string {
	s, err := r.rt.Dispatcher().StackTrace()
	if err != nil {
		return "stack trace unavailable: " + err.Error()
	}
	return s
}

// Close unwinds every coroutine.
func (r *workflowRun) Close() {
	if r.rt != nil {
		_ = r.rt.Dispatcher().Close()
	}
}
