package internal

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/wfctx"
)

// HandlerUnfinishedPolicy says what to do about an update handler still
// running when its workflow completes (workflow.HandlerUnfinishedPolicy).
type HandlerUnfinishedPolicy int

const (
	// HandlerUnfinishedPolicyWarnAndAbandon logs a warning naming the
	// unfinished updates, and abandons them. The default.
	HandlerUnfinishedPolicyWarnAndAbandon HandlerUnfinishedPolicy = iota
	// HandlerUnfinishedPolicyAbandon abandons them silently.
	HandlerUnfinishedPolicyAbandon
)

// UpdateHandlerOptions configure an update handler
// (workflow.UpdateHandlerOptions).
type UpdateHandlerOptions struct {
	// Validator, when set, vets each update before it is accepted: a
	// function of the handler's parameters (the Context optional) that
	// returns an error to reject the update. It must not change the
	// workflow's state nor make commands; it does not run in replay.
	Validator any
	// UnfinishedPolicy says what to do if the workflow completes while the
	// handler runs.
	UnfinishedPolicy HandlerUnfinishedPolicy
	// Description documents the update in the workflow's metadata.
	Description string
}

// UpdateInfo identifies the update a handler runs (workflow.UpdateInfo).
type UpdateInfo struct {
	ID   string
	Name string
}

// UpdateInput is the input of the update interceptor methods
// (interceptor.UpdateInput).
type UpdateInput struct {
	Name string
	Args []any
}

// updateHandler is a handler the code set.
type updateHandler struct {
	fn        *registry.Func
	validator *registry.Func // nil: accept everything
	options   UpdateHandlerOptions
}

// runUpdates is a run's update handlers and the updates in progress.
type runUpdates struct {
	handlers map[string]*updateHandler
	// queued are updates that arrived before any handler was set (flag 4),
	// by name, in arrival order; SetUpdateHandler runs a name's, and the
	// rest are rejected once every coroutine is blocked.
	queued      map[string][]*engine.Update
	queuedOrder []string
	running     []UpdateInfo
}

type updateInfoKey struct{}

// SetUpdateHandler sets the handler of the update named updateName: a
// function taking a Context and the update's arguments, returning an error
// or a result and an error. Each update runs in a coroutine of its own,
// and may wait for activities, timers or signals.
func SetUpdateHandler(ctx Context, updateName string, handler any) error {
	return SetUpdateHandlerWithOptions(ctx, updateName, handler, UpdateHandlerOptions{})
}

// SetUpdateHandlerWithOptions is SetUpdateHandler with options: a
// validator, a description, the unfinished policy.
func SetUpdateHandlerWithOptions(ctx Context, updateName string, handler any, options UpdateHandlerOptions) error {
	return runOf(ctx).outbound.SetUpdateHandler(ctx, updateName, handler, options)
}

// GetCurrentUpdateInfo returns the update the calling coroutine handles,
// or nil outside update handlers.
func GetCurrentUpdateInfo(ctx Context) *UpdateInfo {
	return runOf(ctx).outbound.GetCurrentUpdateInfo(ctx)
}

// AllHandlersFinished reports whether no update handler is running: wait
// for it before completing, with
// workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }).
func AllHandlersFinished(ctx Context) bool { return len(runOf(ctx).updates.running) == 0 }

// IsReadOnly reports whether ctx belongs to code that may not make
// commands or change state: a query handler, or an update validator.
func IsReadOnly(ctx Context) bool { return runOf(ctx).readOnly }

// setUpdateHandler is SetUpdateHandler at the end of the interceptor
// chain.
func (r *workflowRun) setUpdateHandler(ctx Context, name string, handler any, options UpdateHandlerOptions) error {
	if strings.HasPrefix(name, "__") {
		return errors.New("SetUpdateHandler: update names starting with '__' are reserved for internal use")
	}
	h, err := newUpdateHandler(name, handler, options)
	if err != nil {
		return err
	}
	if r.updates.handlers == nil {
		r.updates.handlers = make(map[string]*updateHandler)
	}
	r.updates.handlers[name] = h
	if r.exec.TryUseFlag(engine.FlagPriorityUpdateHandling) {
		queued := r.updates.queued[name]
		delete(r.updates.queued, name)
		r.updates.queuedOrder = slices.DeleteFunc(r.updates.queuedOrder, func(n string) bool { return n == name })
		for _, u := range queued {
			r.spawnUpdate(u, true)
		}
		// Let the updates that waited for this handler run now.
		r.rt.Dispatcher().Yield("letting any updates waiting on a handler run")
	}
	return nil
}

func newUpdateHandler(name string, handler any, options UpdateHandlerOptions) (*updateHandler, error) {
	t := reflect.TypeOf(handler)
	if t == nil || t.Kind() != reflect.Func {
		return nil, fmt.Errorf("SetUpdateHandler(%q): the handler must be a function, not %T", name, handler)
	}
	if t.NumIn() == 0 || t.In(0) != reflect.TypeFor[wfctx.Context]() {
		return nil, fmt.Errorf("SetUpdateHandler(%q): the handler's first parameter must be a workflow.Context", name)
	}
	errType := reflect.TypeFor[error]()
	if n := t.NumOut(); n == 0 || n > 2 || t.Out(n-1) != errType {
		return nil, fmt.Errorf("SetUpdateHandler(%q): the handler must return an error, or a result and an error", name)
	}
	h := &updateHandler{fn: registry.WorkflowFunc(name, handler), options: options}
	if v := options.Validator; v != nil {
		vt := reflect.TypeOf(v)
		if vt.Kind() != reflect.Func || vt.NumOut() != 1 || vt.Out(0) != errType {
			return nil, fmt.Errorf("SetUpdateHandler(%q): the validator must be a function returning only an error", name)
		}
		vf := &registry.Func{Name: name, Fn: reflect.ValueOf(v)}
		vf.HasContext = vt.NumIn() > 0 && vt.In(0) == reflect.TypeFor[wfctx.Context]()
		if !slices.Equal(vf.Params(), h.fn.Params()) {
			return nil, fmt.Errorf("SetUpdateHandler(%q): the validator must take the handler's parameters %v (its Context optional), not %v",
				name, h.fn.Params(), vf.Params())
		}
		h.validator = vf
	}
	return h, nil
}

// Update receives an update request from the engine: it runs in a
// coroutine of its own, ahead of the others (flag 4), or waits for the
// code to set its first handler.
func (r *workflowRun) Update(u *engine.Update) {
	priority := r.exec.TryUseFlag(engine.FlagPriorityUpdateHandling)
	if len(r.updates.handlers) == 0 && priority {
		if r.updates.queued == nil {
			r.updates.queued = make(map[string][]*engine.Update)
			// The queued updates are rejected once every coroutine is
			// blocked, if no handler came for them.
			r.rt.Dispatcher().SetOnAllBlocked(r.drainQueuedUpdates)
		}
		if _, ok := r.updates.queued[u.Name]; !ok {
			r.updates.queuedOrder = append(r.updates.queuedOrder, u.Name)
		}
		r.updates.queued[u.Name] = append(r.updates.queued[u.Name], u)
		return
	}
	r.spawnUpdate(u, priority)
}

// drainQueuedUpdates runs, once every coroutine is blocked, the updates
// still waiting for a handler: they are rejected, as no handler came.
func (r *workflowRun) drainQueuedUpdates() bool {
	if len(r.updates.queuedOrder) == 0 {
		return false
	}
	for _, name := range r.updates.queuedOrder {
		for _, u := range r.updates.queued[name] {
			r.spawnUpdate(u, true)
		}
	}
	r.updates.queued, r.updates.queuedOrder = nil, nil
	return true
}

// spawnUpdate starts the coroutine that validates, accepts, runs and
// completes an update.
func (r *workflowRun) spawnUpdate(u *engine.Update, first bool) {
	ctx, err := r.incomingContext(u.Header)
	if err != nil {
		u.Reject(fmt.Errorf("update %q: %w", u.Name, err))
		return
	}
	info := &UpdateInfo{ID: u.ID, Name: u.Name}
	ctx = WithValue(ctx, updateInfoKey{}, info)
	run := func() { r.runUpdate(ctx, u, info, first) }
	if first {
		r.rt.Dispatcher().SpawnFirst(u.Name, run)
	} else {
		r.rt.Dispatcher().Spawn(u.Name, run)
	}
}

func (r *workflowRun) runUpdate(ctx Context, u *engine.Update, info *UpdateInfo, priority bool) {
	if len(r.updates.handlers) == 0 && !priority {
		r.rt.Dispatcher().Yield("yielding for initial handler registration")
	}
	h := r.updates.handlers[u.Name]
	if h == nil {
		u.Reject(fmt.Errorf("unknown update %v. KnownUpdates=%v", u.Name, slices.Sorted(maps.Keys(r.updates.handlers))))
		return
	}
	values, err := h.fn.DecodeArgs(r.dc, u.Args, "update")
	if err != nil {
		u.Reject(fmt.Errorf("unable to decode the input for update %q: %w", u.Name, err))
		return
	}
	in := &UpdateInput{Name: u.Name, Args: registry.Interfaces(values)}
	r.updates.running = append(r.updates.running, *info)
	defer func() {
		r.updates.running = slices.DeleteFunc(r.updates.running, func(i UpdateInfo) bool { return i.ID == info.ID })
	}()
	if !u.Replaying {
		// Validators do not run in replay, so that they may change between
		// versions of the code, as in go.temporal.io/sdk.
		if err := r.validateUpdate(ctx, in); err != nil {
			u.Reject(failure.SafeChain(err)) // it may come from an interceptor
			return
		}
	}
	u.Accept()
	// The handler's commands belong to the update's event group, as in
	// go.temporal.io/sdk v1.51; its validator makes none.
	result, err := r.inbound.ExecuteUpdate(withUpdateEventGroup(ctx, u.ID), in)
	if err != nil {
		u.Complete(nil, failure.SafeChain(err))
		return
	}
	p, encErr := r.dc.ToPayloads(result)
	if encErr != nil {
		encErr = fmt.Errorf("the result of update %q (%T) cannot be encoded: %w", u.Name, result, encErr)
		codecfail.FailTask(encErr)
		u.Complete(nil, encErr)
		return
	}
	u.Complete(p, nil)
}

// validateUpdate runs the validator read-only; a panic of the validator is
// a rejection naming it.
func (r *workflowRun) validateUpdate(ctx Context, in *UpdateInput) (err error) {
	r.setReadOnly(true)
	defer r.setReadOnly(false)
	defer func() {
		if p := recover(); p != nil {
			if ro, ok := p.(*commands.ReadOnlyError); ok {
				panic(ro) // the code is wrong: fail the task, as go.temporal.io/sdk does
			}
			err = failure.NewPanicError(fmt.Sprintf("update validator panic: %v", p), "")
		}
	}()
	return r.inbound.ValidateUpdate(ctx, in)
}

// setReadOnly marks code that may only read the workflow's state.
func (r *workflowRun) setReadOnly(readOnly bool) {
	r.readOnly = readOnly
	r.exec.SetReadOnly(readOnly)
}

// currentUpdateInfo is GetCurrentUpdateInfo at the end of the chain.
func currentUpdateInfo(ctx Context) *UpdateInfo {
	info, _ := ctx.Value(updateInfoKey{}).(*UpdateInfo)
	return info
}

// warnOfUnfinishedUpdates logs the update handlers still running when the
// workflow completes, unless their policy is to abandon them silently, as
// go.temporal.io/sdk does (but not for a failed workflow).
func (r *workflowRun) warnOfUnfinishedUpdates(err error) {
	var canceled *failure.CanceledError
	var can *ContinueAsNewError
	if err != nil && !errors.As(err, &canceled) && !errors.As(err, &can) {
		return
	}
	type unfinished struct {
		Name string `json:"name"`
		ID   string `json:"id"`
	}
	var warn []unfinished
	for _, i := range r.updates.running {
		if h := r.updates.handlers[i.Name]; h != nil && h.options.UnfinishedPolicy == HandlerUnfinishedPolicyWarnAndAbandon {
			warn = append(warn, unfinished{Name: i.Name, ID: i.ID})
		}
	}
	if len(warn) > 0 {
		r.log().Warn(unfinishedUpdateWarning, "Updates", warn)
	}
}

// unfinishedUpdateWarning is go.temporal.io/sdk's warning, word for word,
// so that log alerts written for it match.
const unfinishedUpdateWarning = "[TMPRL1102] Workflow finished while update handlers are still running. This may have interrupted work that the" +
	" update handler was doing, and the client that sent the update will receive a 'workflow execution" +
	" already completed' RPCError instead of the update result. You can wait for all update" +
	" handlers to complete by using `workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })`. Alternatively, if both you and the clients sending the update" +
	" are okay with interrupting running handlers when the workflow finishes, and causing clients to" +
	" receive errors, then you can disable this warning via UnfinishedPolicy in UpdateHandlerOptions."
