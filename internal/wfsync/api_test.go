package wfsync

// The tests are written against the API of package internal, which wraps
// the types of this package; these give them its shape.

// Settable is what internal.NewFuture returns beside the Future.
type Settable = *SettableFuture

// newFuture is internal.NewFuture.
func newFuture(ctx Context) (Future, Settable) {
	f := NewFuture(ctx)
	return f, f
}

// NewSelector is internal.NewSelector.
func NewSelector(ctx Context) *Selector[Future] {
	s := MakeSelector[Future](ctx)
	return &s
}

// NewNamedSelector is internal.NewNamedSelector.
func NewNamedSelector(ctx Context, name string) *Selector[Future] {
	s := MakeNamedSelector[Future](ctx, name)
	return &s
}
