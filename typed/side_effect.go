package typed

import "github.com/durable-go/sdk/workflow"

// SideEffect runs fn once, records its result in the history, and returns
// it; on replay it returns the recorded value without running fn, as
// workflow.SideEffect does. Use it for small non-deterministic values
// (a UUID, a random number):
//
//	id, err := typed.SideEffect(ctx, func(workflow.Context) string { return uuid.NewString() })
//
// err is set only when the recorded value cannot be decoded into a T.
func SideEffect[T any](ctx workflow.Context, fn func(ctx workflow.Context) T) (T, error) {
	var value T
	err := workflow.SideEffect(ctx, func(ctx workflow.Context) any { return fn(ctx) }).Get(&value)
	return value, err
}

// MutableSideEffect runs fn and records its result under id when it
// differs from the last value recorded there (equals says whether two
// values are the same), and returns the value, as
// workflow.MutableSideEffect does. Use it for a value that changes
// rarely, such as a configuration read in the workflow.
func MutableSideEffect[T any](ctx workflow.Context, id string, fn func(ctx workflow.Context) T, equals func(a, b T) bool) (T, error) {
	var value T
	err := workflow.MutableSideEffect(ctx, id,
		func(ctx workflow.Context) any { return fn(ctx) },
		func(a, b any) bool {
			// Both are T: the fresh value, and the recorded one decoded
			// into the fresh one's type.
			x, _ := a.(T)
			y, _ := b.(T)
			return equals(x, y)
		}).Get(&value)
	return value, err
}
