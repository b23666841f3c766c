package workflow

import "github.com/durable-go/sdk/internal"

// UpdateHandlerOptions configure SetUpdateHandlerWithOptions.
//
//   - Validator: a function with the handler's parameters (its Context
//     optional) that returns an error to reject an update before it is
//     accepted; a rejected update leaves no trace in history, and the
//     caller gets the error. It runs read-only (see IsReadOnly): it must
//     not change workflow state, block, or start anything. It does not run
//     on replay. Default: no validator, every update is accepted.
//   - UnfinishedPolicy: what happens when the workflow completes while
//     the handler still runs. Default:
//     HandlerUnfinishedPolicyWarnAndAbandon.
//   - Description: what the update does, published in the workflow's
//     metadata (shown by the UI).
//
// NOTE: Experimental
type UpdateHandlerOptions = internal.UpdateHandlerOptions

// UpdateInfo identifies the update that the calling handler runs, as
// GetCurrentUpdateInfo returns it: its ID (the caller's UpdateID, or one
// the client made) and its Name.
type UpdateInfo = internal.UpdateInfo

// HandlerUnfinishedPolicy says what happens to an update handler that
// still runs when its workflow completes (UpdateHandlerOptions).
type HandlerUnfinishedPolicy = internal.HandlerUnfinishedPolicy

const (
	// HandlerUnfinishedPolicyWarnAndAbandon abandons the unfinished
	// updates and logs a warning naming them, since their callers get an
	// error rather than a result. The default.
	HandlerUnfinishedPolicyWarnAndAbandon = internal.HandlerUnfinishedPolicyWarnAndAbandon
	// HandlerUnfinishedPolicyAbandon abandons them without a warning.
	HandlerUnfinishedPolicyAbandon = internal.HandlerUnfinishedPolicyAbandon
)

// SetUpdateHandler sets the handler of the updates named updateName, sent
// with client.Client.UpdateWorkflow. An update, unlike a signal, returns a
// result (or an error) to its caller, and unlike a query, it may change
// the workflow's state. The handler is a function taking a Context and
// then the update's arguments, returning an error, or a result and an
// error:
//
//	err := workflow.SetUpdateHandler(ctx, "add-item", func(ctx workflow.Context, item Item) (int, error) {
//		if err := workflow.ExecuteActivity(ctx, Reserve, item).Get(ctx, nil); err != nil {
//			return 0, err // the caller gets the error; the workflow goes on
//		}
//		cart = append(cart, item)
//		return len(cart), nil
//	})
//
// Each update runs in a coroutine of its own and may block: wait for
// activities, timers, signals. Set handlers at the start of the workflow
// function, before it blocks, so that updates sent with the start find
// them. Before completing, wait for running handlers (AllHandlersFinished)
// so that none is cut short. It returns an error when handler is not such
// a function, or when updateName starts with "__" (reserved).
func SetUpdateHandler(ctx Context, updateName string, handler any) error {
	return internal.SetUpdateHandler(ctx, updateName, handler)
}

// SetUpdateHandlerWithOptions is SetUpdateHandler with options: most
// often a Validator that rejects bad updates before they are accepted,
// so that they leave no trace in history:
//
//	err := workflow.SetUpdateHandlerWithOptions(ctx, "add-item", addItem, workflow.UpdateHandlerOptions{
//		Validator: func(item Item) error {
//			if item.Quantity <= 0 {
//				return errors.New("quantity must be positive")
//			}
//			return nil
//		},
//	})
func SetUpdateHandlerWithOptions(ctx Context, updateName string, handler any, options UpdateHandlerOptions) error {
	return internal.SetUpdateHandlerWithOptions(ctx, updateName, handler, options)
}

// GetCurrentUpdateInfo returns the update that the calling code handles,
// or nil outside update handlers.
func GetCurrentUpdateInfo(ctx Context) *UpdateInfo { return internal.GetCurrentUpdateInfo(ctx) }

// AllHandlersFinished reports whether no update handler is running. Wait
// for it before completing or continuing as new, so that no update is cut
// short:
//
//	err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })
func AllHandlersFinished(ctx Context) bool { return internal.AllHandlersFinished(ctx) }

// IsReadOnly reports whether the calling code may only read the workflow's
// state: a query handler or an update validator, where starting
// activities, timers or child workflows, or changing state, is not allowed.
//
// NOTE: Experimental
func IsReadOnly(ctx Context) bool { return internal.IsReadOnly(ctx) }
