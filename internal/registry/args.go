package registry

import (
	"fmt"
	"reflect"
	"strings"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
)

// DecodeArgs decodes payloads into values of the function's parameter
// types (after the context), for a call. Like go.temporal.io/sdk, it is
// lenient about the count, so that a caller of an older or newer
// signature still gets through: extra payloads are dropped, and missing
// ones leave their parameters' zero values.
func (f *Func) DecodeArgs(dc converter.DataConverter, input *commonpb.Payloads, kind string) ([]reflect.Value, error) {
	if f.Dynamic {
		// A dynamic function decodes its arguments itself.
		return []reflect.Value{reflect.ValueOf(failure.NewEncodedValues(input, dc))}, nil
	}
	params := f.Params()
	got := len(input.GetPayloads())
	values := make([]reflect.Value, len(params))
	for i, p := range params {
		if i >= got {
			values[i] = reflect.Zero(p)
			continue
		}
		ptr := reflect.New(p)
		if err := dc.FromPayload(input.GetPayloads()[i], ptr.Interface()); err != nil {
			return nil, fmt.Errorf("%s %q: argument %d (%s): %w", kind, f.Name, i+1, p, err)
		}
		values[i] = ptr.Elem()
	}
	return values, nil
}

// Results splits a call's results into the value and the error.
func Results(out []reflect.Value) (result any, hasResult bool, err error) {
	if e := out[len(out)-1].Interface(); e != nil {
		err = e.(error)
	}
	if len(out) == 2 {
		return out[0].Interface(), true, err
	}
	return nil, false, err
}

// EncodeArgs encodes call arguments, naming the one that cannot be.
func EncodeArgs(dc converter.DataConverter, args []any) (*commonpb.Payloads, error) {
	if len(args) == 0 {
		return nil, nil
	}
	var ps *commonpb.Payloads
	if len(args) == 1 {
		// The list and its one element's slot in one allocation: most
		// calls pass one argument.
		one := new(struct {
			ps   commonpb.Payloads
			slot [1]*commonpb.Payload
		})
		ps = &one.ps
		ps.Payloads = one.slot[:]
	} else {
		ps = &commonpb.Payloads{Payloads: make([]*commonpb.Payload, len(args))}
	}
	for i, a := range args {
		p, err := dc.ToPayload(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d (%T) cannot be encoded: %w", i+1, a, err)
		}
		ps.Payloads[i] = p
	}
	return ps, nil
}

// CheckArgs checks call arguments against a function's parameters before
// anything is sent, so that a mismatch is reported to the caller at once.
// kind names what is called ("workflow", "child workflow", "activity",
// "local activity"). As in go.temporal.io/sdk, only the context of that
// kind is skipped (workflow.Context for a workflow, context.Context for an
// activity): any other first parameter takes an argument, so that an
// activity function given as a workflow, or a workflow as an activity,
// fails here unless the arguments happen to fit its parameters.
func CheckArgs(fn any, args []any, kind string) error {
	t := reflect.TypeOf(fn)
	if t == nil || t.Kind() != reflect.Func {
		return nil // called by name: nothing to check against
	}
	isWorkflow := strings.HasSuffix(kind, "workflow")
	ownContext, otherContext := contextType, workflowContextType
	if isWorkflow {
		ownContext, otherContext = workflowContextType, contextType
	}
	first := 0 // the first parameter that takes an argument
	if t.NumIn() > 0 && t.In(0) == ownContext {
		first = 1
	}
	nParams := t.NumIn() - first
	// The checks read t alone: the function's name, its parameter list and
	// the hint are made only for the error, as a check runs for every call.
	mismatch := func(format string, a ...any) error {
		f := &Func{Name: FunctionName(fn), Fn: reflect.ValueOf(fn), HasContext: first == 1}
		var hint string
		if t.NumIn() > 0 && t.In(0) == otherContext {
			hint = fmt.Sprintf(" (its first parameter is %s: is it an activity? A workflow function's first parameter is workflow.Context)", otherContext)
			if !isWorkflow {
				hint = fmt.Sprintf(" (its first parameter is %s: is it a workflow? An activity function's first parameter, if any, is context.Context)", otherContext)
			}
		}
		return fmt.Errorf("%s %q"+format+"%s", append(append([]any{kind, f.Name}, a...), hint)...)
	}
	if !t.IsVariadic() && len(args) != nParams {
		params := (&Func{Fn: reflect.ValueOf(fn), HasContext: first == 1}).Params()
		return mismatch(" takes %d argument(s) %s, but %d were given", nParams, typeList(params), len(args))
	}
	for i, a := range args {
		if i >= nParams || (t.IsVariadic() && i >= nParams-1) {
			break
		}
		if a == nil {
			continue
		}
		if at, pt := reflect.TypeOf(a), t.In(first+i); !at.AssignableTo(pt) {
			return mismatch(": argument %d is %s, but the parameter is %s", i+1, at, pt)
		}
	}
	return nil
}

func typeList(ts []reflect.Type) string {
	s := "("
	for i, t := range ts {
		if i > 0 {
			s += ", "
		}
		s += t.String()
	}
	return s + ")"
}

// Interfaces turns decoded arguments into the values interceptors see.
func Interfaces(values []reflect.Value) []any {
	args := make([]any, len(values))
	for i, v := range values {
		args[i] = v.Interface()
	}
	return args
}

// ArgValues turns arguments back into values for a call of the function
// (after its context). A nil argument becomes the zero value of its
// parameter, which reflect cannot infer from nil.
func (f *Func) ArgValues(args []any) []reflect.Value {
	params := f.Params()
	values := make([]reflect.Value, len(args))
	for i, a := range args {
		if a != nil {
			values[i] = reflect.ValueOf(a)
			continue
		}
		switch {
		case i < len(params):
			values[i] = reflect.Zero(params[i])
		case len(params) > 0 && f.Fn.Type().IsVariadic():
			values[i] = reflect.Zero(params[len(params)-1].Elem())
		default:
			values[i] = reflect.Zero(reflect.TypeFor[any]()) // too many arguments: Call reports it
		}
	}
	return values
}
