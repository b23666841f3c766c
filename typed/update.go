package typed

import "github.com/durable-go/sdk/workflow"

// Update is an update's definition: its name, the type of its argument
// and the type of its result. Declare it once and use it in the workflow
// (SetUpdateHandler) and in clients (UpdateWorkflow,
// UpdateWithStartWorkflow), so that the two cannot disagree:
//
//	var AddItem = typed.NewUpdate[Item, int]("add-item") // answers the item count
//
// An Update[A, None] has no result: its handler returns (None, error) and
// the update completes with no payload, as an untyped handler that
// returns only an error does.
type Update[A, R any] struct {
	name string
}

// NewUpdate defines the update name, taking an A and returning an R.
func NewUpdate[A, R any](name string) Update[A, R] { return Update[A, R]{name: name} }

// Name returns the update's name, the one the untyped calls take.
func (u Update[A, R]) Name() string { return u.name }

// UpdateHandlerOptions are workflow.UpdateHandlerOptions with a typed
// validator.
type UpdateHandlerOptions[A any] struct {
	// Validator, when set, vets each update before it is accepted: it
	// returns an error to reject the update, which then leaves no trace
	// in the history. It must not change the workflow's state nor block;
	// it does not run in replay.
	Validator func(ctx workflow.Context, a A) error
	// UnfinishedPolicy says what to do if the workflow completes while the
	// handler runs (see workflow.UpdateHandlerOptions).
	UnfinishedPolicy workflow.HandlerUnfinishedPolicy
	// Description documents the update in the workflow's metadata.
	Description string
}

// SetUpdateHandler makes handler run the update, as
// workflow.SetUpdateHandler(ctx, update.Name(), handler) does; the
// compiler checks handler's signature against the definition. Unlike a
// query handler, an update handler may block and change the workflow's
// state; its result goes back to the caller.
//
//	err := typed.SetUpdateHandler(ctx, AddItem, func(ctx workflow.Context, item Item) (int, error) {
//		items = append(items, item)
//		return len(items), nil
//	})
func SetUpdateHandler[A, R any](ctx workflow.Context, update Update[A, R], handler func(ctx workflow.Context, a A) (R, error)) error {
	return workflow.SetUpdateHandler(ctx, update.name, untypedUpdateHandler(handler))
}

// SetUpdateHandlerWithOptions is SetUpdateHandler with options: a typed
// validator, the unfinished-handler policy and a description.
func SetUpdateHandlerWithOptions[A, R any](ctx workflow.Context, update Update[A, R], handler func(ctx workflow.Context, a A) (R, error), options UpdateHandlerOptions[A]) error {
	untyped := workflow.UpdateHandlerOptions{UnfinishedPolicy: options.UnfinishedPolicy, Description: options.Description}
	if options.Validator != nil {
		untyped.Validator = options.Validator
	}
	return workflow.SetUpdateHandlerWithOptions(ctx, update.name, untypedUpdateHandler(handler), untyped)
}

// untypedUpdateHandler is the handler the untyped call registers: the
// typed one itself, or for a None result one that returns only the
// error, so that the update completes without a payload.
func untypedUpdateHandler[A, R any](handler func(ctx workflow.Context, a A) (R, error)) any {
	if isNone[R]() {
		return func(ctx workflow.Context, a A) error {
			_, err := handler(ctx, a)
			return err
		}
	}
	return handler
}
