package workflow

import "github.com/durable-go/sdk/internal"

// LocalVar is a handle to a value local to one workflow run, which workflow
// code and workflow interceptors can pass around by value and share. Get
// returns T's zero value until Set is called. The value is in-memory
// workflow state: replay rebuilds it, and it goes to no activity, child
// workflow or continued run. Set follows the rules of any change to
// workflow state: deterministic, and not in read-only code (query
// handlers, update validators), where it panics. The zero LocalVar is
// invalid: make one with NewLocalVar.
type LocalVar[T any] = internal.LocalVar[T]

// NewLocalVar makes a LocalVar of ctx's workflow run. Using it with the
// context of another run panics.
func NewLocalVar[T any](ctx Context) LocalVar[T] { return internal.NewLocalVar[T](ctx) }
