package workflow

import "github.com/durable-go/sdk/internal"

type (
	// UpdateHandlerOptions configure an update handler: its validator,
	// description and unfinished policy.
	UpdateHandlerOptions = internal.UpdateHandlerOptions
	// UpdateInfo identifies the update a handler runs.
	UpdateInfo = internal.UpdateInfo
	// HandlerUnfinishedPolicy says what to do about an update handler
	// still running when the workflow completes.
	HandlerUnfinishedPolicy = internal.HandlerUnfinishedPolicy
)

const (
	// HandlerUnfinishedPolicyWarnAndAbandon logs a warning naming the
	// unfinished updates. The default.
	HandlerUnfinishedPolicyWarnAndAbandon = internal.HandlerUnfinishedPolicyWarnAndAbandon
	// HandlerUnfinishedPolicyAbandon abandons them silently.
	HandlerUnfinishedPolicyAbandon = internal.HandlerUnfinishedPolicyAbandon
)

// SetUpdateHandler sets the handler of the update named updateName: a
// function taking a Context and the update's arguments, returning an error
// or a result and an error. Each update runs in a coroutine of its own and
// may wait for activities, timers and signals; the client gets its result.
func SetUpdateHandler(ctx Context, updateName string, handler any) error {
	return internal.SetUpdateHandler(ctx, updateName, handler)
}

// SetUpdateHandlerWithOptions is SetUpdateHandler with options. A
// Validator rejects updates before they are accepted, leaving no trace in
// history; it may only read the workflow's state, and does not run in
// replay.
func SetUpdateHandlerWithOptions(ctx Context, updateName string, handler any, options UpdateHandlerOptions) error {
	return internal.SetUpdateHandlerWithOptions(ctx, updateName, handler, options)
}

// GetCurrentUpdateInfo returns the update the calling code handles, or nil
// outside update handlers.
func GetCurrentUpdateInfo(ctx Context) *UpdateInfo { return internal.GetCurrentUpdateInfo(ctx) }

// AllHandlersFinished reports whether no update handler is running. Wait
// for it before completing so that no update is cut short:
//
//	workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })
func AllHandlersFinished(ctx Context) bool { return internal.AllHandlersFinished(ctx) }

// IsReadOnly reports whether the calling code may only read the workflow's
// state: a query handler or an update validator.
func IsReadOnly(ctx Context) bool { return internal.IsReadOnly(ctx) }
