package typed

import "github.com/durable-go/sdk/workflow"

// Query is a query's definition: its name, the type of its argument and
// the type of its answer. Declare it once and use it in the workflow
// (SetQueryHandler) and in clients (QueryWorkflow), so that the two
// cannot disagree:
//
//	var ItemsMatching = typed.NewQuery[string, []Item]("items-matching")
//
// A query that takes no argument is a Query0 (NewQuery0).
type Query[A, R any] struct {
	name string
}

// NewQuery defines the query name, taking an A and answering an R.
func NewQuery[A, R any](name string) Query[A, R] { return Query[A, R]{name: name} }

// Name returns the query's name (its query type), the one the untyped
// calls take.
func (q Query[A, R]) Name() string { return q.name }

// Query0 is the definition of a query that takes no argument (NewQuery0):
// its name and the type of its answer.
//
//	var OrderStatus = typed.NewQuery0[Status]("status")
type Query0[R any] struct {
	name string
}

// NewQuery0 defines the query name, taking no argument and answering an
// R.
func NewQuery0[R any](name string) Query0[R] { return Query0[R]{name: name} }

// Name returns the query's name (its query type).
func (q Query0[R]) Name() string { return q.name }

// SetQueryHandler makes handler answer the query, as
// workflow.SetQueryHandler(ctx, query.Name(), handler) does; the compiler
// checks handler's signature against the definition. A handler must not
// change the workflow's state or block.
func SetQueryHandler[A, R any](ctx workflow.Context, query Query[A, R], handler func(A) (R, error)) error {
	return workflow.SetQueryHandler(ctx, query.name, handler)
}

// SetQueryHandlerWithOptions is SetQueryHandler with the options of
// workflow.SetQueryHandlerWithOptions (a description for the workflow's
// metadata).
func SetQueryHandlerWithOptions[A, R any](ctx workflow.Context, query Query[A, R], handler func(A) (R, error), options workflow.QueryHandlerOptions) error {
	return workflow.SetQueryHandlerWithOptions(ctx, query.name, handler, options)
}

// SetQueryHandler0 is SetQueryHandler for a query that takes no argument.
//
//	err := typed.SetQueryHandler0(ctx, OrderStatus, func() (Status, error) { return status, nil })
func SetQueryHandler0[R any](ctx workflow.Context, query Query0[R], handler func() (R, error)) error {
	return workflow.SetQueryHandler(ctx, query.name, handler)
}

// SetQueryHandler0WithOptions is SetQueryHandler0 with the options of
// workflow.SetQueryHandlerWithOptions.
func SetQueryHandler0WithOptions[R any](ctx workflow.Context, query Query0[R], handler func() (R, error), options workflow.QueryHandlerOptions) error {
	return workflow.SetQueryHandlerWithOptions(ctx, query.name, handler, options)
}
