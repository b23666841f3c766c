package registry

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/wfctx"
)

// ctxStub is a workflow context for calls that never use it.
type ctxStub struct{}

func (ctxStub) Deadline() (time.Time, bool) { return time.Time{}, false }
func (ctxStub) Done() wfctx.Channel         { return nil }
func (ctxStub) Err() error                  { return nil }
func (ctxStub) Value(any) any               { return nil }

type order struct{ ID string }

// Each signature CallWithContext calls directly gives the same results
// as the reflective call: the function's result and error, nil for a
// function that returns only an error, the zero value for a nil argument.
func TestCallWithContextCallsCommonSignaturesDirectly(t *testing.T) {
	errBoom := errors.New("boom")
	encoded := converter.EncodedValues(nil)
	cases := []struct {
		name   string
		fn     any
		args   []any
		result any
		err    error
	}{
		{"no argument, error only", func(wfctx.Context) error { return errBoom }, nil, nil, errBoom},
		{"no argument, string", func(wfctx.Context) (string, error) { return "s", nil }, nil, "s", nil},
		{"no argument, int", func(wfctx.Context) (int, error) { return 7, nil }, nil, 7, nil},
		{"no argument, any", func(wfctx.Context) (any, error) { return nil, nil }, nil, nil, nil},
		{"string, error only", func(_ wfctx.Context, s string) error { return errors.New(s) }, []any{"x"}, nil, errors.New("x")},
		{"string to string", func(_ wfctx.Context, s string) (string, error) { return s + "!", nil }, []any{"hi"}, "hi!", nil},
		{"nil string", func(_ wfctx.Context, s string) (string, error) { return "<" + s + ">", nil }, []any{nil}, "<>", nil},
		{"int, error only", func(_ wfctx.Context, n int) error { return fmt.Errorf("%d", n) }, []any{3}, nil, errors.New("3")},
		{"int to int", func(_ wfctx.Context, n int) (int, error) { return n + 1, nil }, []any{41}, 42, nil},
		{"encoded values, error only", func(_ wfctx.Context, v converter.EncodedValues) error { return nil }, []any{encoded}, nil, nil},
		{"encoded values to any", func(_ wfctx.Context, v converter.EncodedValues) (any, error) { return v == nil, nil }, []any{nil}, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := WorkflowFunc(c.name, c.fn)
			if f.direct == nil {
				t.Fatalf("%T is not called directly", c.fn)
			}
			result, err := f.CallWithContext(ctxStub{}, c.args)
			if result != c.result || fmt.Sprint(err) != fmt.Sprint(c.err) {
				t.Errorf("direct call: (%v, %v), want (%v, %v)", result, err, c.result, c.err)
			}
			f.direct = nil
			result, err = f.CallWithContext(ctxStub{}, c.args)
			if result != c.result || fmt.Sprint(err) != fmt.Sprint(c.err) {
				t.Errorf("reflective call: (%v, %v), want (%v, %v)", result, err, c.result, c.err)
			}
		})
	}
}

// Other signatures, and arguments that do not fit a direct call, go
// through reflect, which reports a mismatch as it always has.
func TestCallWithContextFallsBackToReflect(t *testing.T) {
	f := WorkflowFunc("struct", func(_ wfctx.Context, o order, n int) (*order, error) {
		return &order{ID: o.ID + "-" + fmt.Sprint(n)}, nil
	})
	if f.direct != nil {
		t.Fatal("a struct argument is called directly")
	}
	result, err := f.CallWithContext(ctxStub{}, []any{order{ID: "a"}, 2})
	if err != nil || result.(*order).ID != "a-2" {
		t.Fatalf("(%v, %v)", result, err)
	}

	g := WorkflowFunc("string", func(_ wfctx.Context, s string) (string, error) { return s, nil })
	for _, args := range [][]any{{5}, {"a", "b"}} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "reflect") {
					t.Errorf("arguments %v: panic %v, want reflect's", args, p)
				}
			}()
			_, _ = g.CallWithContext(ctxStub{}, args)
		}()
	}
}

func TestDynamicWorkflowIsCalledDirectly(t *testing.T) {
	r := New()
	if err := r.RegisterDynamicWorkflow(func(_ wfctx.Context, v converter.EncodedValues) (any, error) { return "dynamic", nil }); err != nil {
		t.Fatal(err)
	}
	f, err := r.Workflow("Anything")
	if err != nil {
		t.Fatal(err)
	}
	if f.direct == nil {
		t.Fatal("the dynamic workflow is not called directly")
	}
	if result, err := f.CallWithContext(ctxStub{}, []any{converter.EncodedValues(nil)}); result != "dynamic" || err != nil {
		t.Fatalf("(%v, %v)", result, err)
	}
}
