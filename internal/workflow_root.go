package internal

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
)

// workflowRoot is the end of a run's interceptor chains: as the innermost
// inbound interceptor it runs the workflow function and its handlers, as
// the last outbound interceptor it does what the workflow package's
// functions ask. Without interceptors the chains are just this, so a
// workflow call costs one interface call more than a direct one.
type workflowRoot struct {
	run *workflowRun
}

var (
	_ WorkflowInboundInterceptor  = (*workflowRoot)(nil)
	_ WorkflowOutboundInterceptor = (*workflowRoot)(nil)
)

// initInterceptors builds the run's chains from the worker's interceptors,
// the first one outermost, lets them Init, and puts on the root context
// what the propagators extract from the start header: all the run's code,
// handlers included, sees those values, as in go.temporal.io/sdk. A panic
// in an interceptor or a propagator fails the workflow task rather than
// the worker.
func (r *workflowRun) initInterceptors(startHeader *commonpb.Header) (err error) {
	root := &workflowRoot{run: r}
	r.inbound, r.outbound = root, root
	if !r.config.carriesHeaders() {
		return nil
	}
	defer recoverInto(&err, "a workflow interceptor or context propagator")
	interceptors := r.config.interceptors
	r.intercepted = len(interceptors) > 0
	for i := len(interceptors) - 1; i >= 0; i-- {
		r.inbound = interceptors[i].InterceptWorkflow(r.rootCtx, r.inbound)
	}
	if err := r.inbound.Init(root); err != nil {
		return err
	}
	r.rootCtx, err = propagation.WorkflowContextWithIncomingHeader(r.rootCtx, startHeader, r.config.propagators, r.ownHeaderCodec())
	return err
}

// passArgs returns the arguments of a variadic workflow call for the
// outbound chain. Handing the caller's slice to an interface method would
// make every caller's slice escape to the heap, even without interceptors;
// so the functions call the root directly when the run is not
// intercepted, and the chain gets a copy.
func passArgs[T any](args []T) []T { return slices.Clone(args) }

// recoverInto, deferred, turns a panic into *err, naming who panicked;
// the error carries the stack for the failure and the log.
func recoverInto(err *error, who string) {
	if p := recover(); p != nil {
		*err = &engine.UserPanic{Who: who, Value: p, Stack: string(debug.Stack())}
	}
}

// incomingContext is the context of a signal or query that arrived with
// header: the root context, with the header and what the propagators
// extract from it when headers matter.
func (r *workflowRun) incomingContext(header *commonpb.Header) (Context, error) {
	if !r.config.carriesHeaders() {
		return r.rootCtx, nil
	}
	return propagation.WorkflowContextWithIncomingHeader(r.rootCtx, header, r.config.propagators, r.ownHeaderCodec())
}

// Init takes the outermost outbound interceptor, where workflow calls go.
func (w *workflowRoot) Init(outbound WorkflowOutboundInterceptor) error {
	w.run.outbound = outbound
	return nil
}

// ExecuteWorkflow calls the workflow function with the run's arguments.
// Its error goes out through the interceptors, which may walk its chain:
// one that cannot be walked is replaced here (failure.SafeChain), as are
// the errors of the other handlers below.
func (w *workflowRoot) ExecuteWorkflow(ctx Context, in *ExecuteWorkflowInput) (any, error) {
	call := w.run.fn.CallFor(in.Args)
	result, err := call(propagation.WorkflowContextWithoutHeader(ctx), in.Args)
	return result, failure.SafeChain(err)
}

// HandleSignal buffers the signal on its channel.
func (w *workflowRoot) HandleSignal(_ Context, in *HandleSignalInput) error {
	return w.run.bufferSignal(in.SignalName, in.Arg)
}

// ValidateUpdate calls the update's validator, if it has one.
func (w *workflowRoot) ValidateUpdate(ctx Context, in *UpdateInput) error {
	h := w.run.updates.handlers[in.Name]
	if h == nil || h.validator == nil {
		return nil
	}
	args := h.validator.ArgValues(in.Args)
	if h.validator.HasContext {
		args = append([]reflect.Value{reflect.ValueOf(propagation.WorkflowContextWithoutHeader(ctx))}, args...)
	}
	_, _, err := registry.Results(h.validator.Fn.Call(args))
	return failure.SafeChain(err)
}

// ExecuteUpdate calls the update's handler.
func (w *workflowRoot) ExecuteUpdate(ctx Context, in *UpdateInput) (any, error) {
	h := w.run.updates.handlers[in.Name]
	if h == nil {
		return nil, fmt.Errorf("unknown update %v", in.Name)
	}
	result, err := h.fn.CallWithContext(propagation.WorkflowContextWithoutHeader(ctx), in.Args)
	return result, failure.SafeChain(err)
}

// HandleQuery calls the query's handler.
func (w *workflowRoot) HandleQuery(_ Context, in *HandleQueryInput) (any, error) {
	h := w.run.queries[in.QueryType]
	if h == nil {
		return nil, w.run.unknownQuery(in.QueryType)
	}
	result, _, err := registry.Results(h.fn.Fn.Call(h.fn.ArgValues(in.Args)))
	return result, failure.SafeChain(err)
}

func (*workflowRoot) mustEmbedWorkflowInboundInterceptorBase()  {}
func (*workflowRoot) mustEmbedWorkflowOutboundInterceptorBase() {}
