package registry

import (
	"reflect"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/wfctx"
)

// A workflow function is called on its root coroutine's goroutine, and its
// caller's frames stay on that goroutine's stack for as long as the
// workflow waits. reflect.Value.Call alone keeps about 1.6 KiB there, which
// is enough to keep the stack of a waiting workflow at 8 KiB where 4 KiB
// would do. So the common signatures below are called as plain Go calls;
// every other signature goes through reflect.

// directCall is a plain Go call of a function of one known signature.
type directCall struct {
	// fits reports whether args (the arguments after the context) can be
	// passed as they are; when they cannot, the reflective call reports
	// the mismatch as it does for any other function.
	fits func(args []any) bool
	call func(ctx wfctx.Context, args []any) (any, error)
}

// directCallOf returns the direct call of fn, or nil when its signature is
// not one of those listed.
func directCallOf(fn any) *directCall {
	switch f := fn.(type) {
	case func(wfctx.Context) error:
		return errorOnly0(f)
	case func(wfctx.Context) (string, error):
		return returns0(f)
	case func(wfctx.Context) (int, error):
		return returns0(f)
	case func(wfctx.Context) (any, error):
		return returns0(f)
	case func(wfctx.Context, string) error:
		return errorOnly1(f)
	case func(wfctx.Context, string) (string, error):
		return returns1(f)
	case func(wfctx.Context, int) error:
		return errorOnly1(f)
	case func(wfctx.Context, int) (int, error):
		return returns1(f)
	case func(wfctx.Context, converter.EncodedValues) error:
		return errorOnly1(f)
	case func(wfctx.Context, converter.EncodedValues) (any, error):
		return returns1(f)
	}
	return nil
}

func noArgs(args []any) bool { return len(args) == 0 }

func errorOnly0(f func(wfctx.Context) error) *directCall {
	return &directCall{fits: noArgs, call: func(ctx wfctx.Context, _ []any) (any, error) { return nil, f(ctx) }}
}

func returns0[R any](f func(wfctx.Context) (R, error)) *directCall {
	return &directCall{fits: noArgs, call: func(ctx wfctx.Context, _ []any) (any, error) { return f(ctx) }}
}

// oneArg reports whether args is one argument of type A, or nil (which
// stands for A's zero value, as in a reflective call).
func oneArg[A any](args []any) bool {
	if len(args) != 1 {
		return false
	}
	if args[0] == nil {
		return true
	}
	_, ok := args[0].(A)
	return ok
}

func errorOnly1[A any](f func(wfctx.Context, A) error) *directCall {
	return &directCall{fits: oneArg[A], call: func(ctx wfctx.Context, args []any) (any, error) {
		a, _ := args[0].(A)
		return nil, f(ctx, a)
	}}
}

func returns1[A, R any](f func(wfctx.Context, A) (R, error)) *directCall {
	return &directCall{fits: oneArg[A], call: func(ctx wfctx.Context, args []any) (any, error) {
		a, _ := args[0].(A)
		return f(ctx, a)
	}}
}

// CallWithContext calls a workflow function or an update handler with ctx
// and args (the arguments after the context), returning its result (nil
// when it returns only an error) and its error.
func (f *Func) CallWithContext(ctx wfctx.Context, args []any) (any, error) {
	if d := f.direct; d != nil && d.fits(args) {
		return d.call(ctx, args)
	}
	return f.callReflect(ctx, args)
}

// CallFor returns CallWithContext's call of f with args, the arguments
// after the context: its direct call when they fit it, else a call
// through reflect. A workflow's root coroutine calls what it returns
// itself, so that no frame of CallWithContext stays under the workflow
// function for as long as it waits.
func (f *Func) CallFor(args []any) func(ctx wfctx.Context, args []any) (any, error) {
	if d := f.direct; d != nil && d.fits(args) {
		return d.call
	}
	return f.callReflect
}

// callReflect is CallWithContext through reflect. It stays a function of
// its own so that its frame is not part of CallWithContext's, which stays
// under a direct call while the workflow waits.
//
//go:noinline
func (f *Func) callReflect(ctx wfctx.Context, args []any) (any, error) {
	in := append([]reflect.Value{reflect.ValueOf(ctx)}, f.ArgValues(args)...)
	result, _, err := Results(f.Fn.Call(in))
	return result, err
}
