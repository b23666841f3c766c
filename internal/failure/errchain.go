package failure

import (
	"fmt"
	"reflect"
	"strings"
)

// An error's chain is what its Unwrap methods give, down to the errors
// that wrap nothing: errors.Is and errors.As walk it, and so does the
// conversion of an error to a failure. User code can make a chain that
// never ends (an error whose Unwrap returns itself, or a cycle through
// several errors), or one too long to send: walked as it is, it spins a
// core for ever. The SDK therefore checks every error that user code
// hands it (what an activity, a workflow, an update handler or validator
// or a query handler returns, what an interceptor returns instead, an
// error passed to panic) with SafeChain before anything walks it, and
// ErrorToFailure checks the errors it is given.

// MaxErrorChainDepth is the longest chain of wrapped errors the SDK walks:
// real chains are a few errors long, and a failure nested deeper than
// protobuf's limit (10,000) cannot be sent at all.
const MaxErrorChainDepth = 1000

// maxErrorChainSize bounds the errors of a tree of joined errors (Unwrap()
// []error), whose walk could otherwise grow exponentially with its depth
// when errors repeat in it: errors.Join of 100,000 errors is still
// walked.
const maxErrorChainSize = 100_000

// SafeChain returns err when its chain can be walked: every Unwrap
// returns, and the chain ends within MaxErrorChainDepth errors. Otherwise
// it returns an ApplicationError that says what is wrong (the chain is
// cyclic, too deep, or an Unwrap panicked) and names the error's type,
// which it takes as its own type (so that a retry policy that lists the
// type as non-retryable still applies); it does not wrap err, whose
// chain nothing can walk, nor call its Error method, which may recurse
// through the cycle. It costs a type switch per error of the chain and
// allocates nothing for a chain that can be walked.
func SafeChain(err error) error {
	if err == nil {
		return nil
	}
	if walkable(err) {
		return err
	}
	return unwalkableError(err)
}

// walkable reports whether err's chain ends, within the bounds, without an
// Unwrap that panics.
func walkable(err error) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	budget := maxErrorChainSize
	return walkFrom(err, 0, &budget)
}

// walkFrom walks err's chain, err being at depth, taking one from budget
// per error.
func walkFrom(err error, depth int, budget *int) bool {
	for ; err != nil; depth++ {
		if depth == MaxErrorChainDepth || *budget == 0 {
			return false
		}
		*budget--
		switch e := err.(type) {
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				if !walkFrom(inner, depth+1, budget) {
					return false
				}
			}
			return true
		default:
			return true
		}
	}
	return true
}

// unwalkableError is the error that stands in for err, whose chain cannot
// be walked: it walks the chain again, slowly, to say why.
func unwalkableError(err error) error {
	d := chainDiagnosis{budget: maxErrorChainSize}
	d.walk(err)
	typeName := errTypeName(err)
	if typeName == "" {
		typeName = "UnwalkableErrorChain"
	}
	return NewApplicationError(fmt.Sprintf("the error (%T) cannot be reported: %s; "+
		"errors.Is and errors.As on it would never return, so the SDK reports this error in its place", err, d.reason()), typeName)
}

// chainDiagnosis walks a chain that cannot be walked, keeping the path
// from the top, to find where and why it goes wrong.
type chainDiagnosis struct {
	budget int
	path   []error
	cycle  []error // the errors of a cycle, from the one that comes back
	// panicked is the error whose Unwrap panicked, and the panic value.
	panicked      error
	panicValue    any
	tooDeep, full bool
}

// walk walks err's chain, depth first, and reports whether it ended
// well; when not, d says why.
func (d *chainDiagnosis) walk(err error) bool {
	for err != nil {
		for i, seen := range d.path {
			if sameError(seen, err) {
				d.cycle = append([]error(nil), d.path[i:]...)
				return false
			}
		}
		if len(d.path) == MaxErrorChainDepth {
			d.tooDeep = true
			return false
		}
		if d.budget == 0 {
			d.full = true
			return false
		}
		d.budget--
		d.path = append(d.path, err)
		inner, next := d.unwrap(err)
		if d.panicked != nil {
			return false
		}
		if inner != nil {
			mark := len(d.path)
			for _, e := range inner {
				if !d.walk(e) {
					return false
				}
				d.path = d.path[:mark]
			}
			return true
		}
		err = next
	}
	return true
}

// unwrap calls err's Unwrap, whichever it has, and notes a panic of it.
func (d *chainDiagnosis) unwrap(err error) (inner []error, next error) {
	defer func() {
		if p := recover(); p != nil {
			d.panicked, d.panicValue = err, p
		}
	}()
	switch e := err.(type) {
	case interface{ Unwrap() error }:
		return nil, e.Unwrap()
	case interface{ Unwrap() []error }:
		return e.Unwrap(), nil
	}
	return nil, nil
}

// reason says what is wrong with the chain, naming its errors by type.
func (d *chainDiagnosis) reason() string {
	switch {
	case d.cycle != nil:
		if len(d.cycle) == 1 {
			return fmt.Sprintf("its chain of wrapped errors is cyclic: the Unwrap method of %T returns that very error", d.cycle[0])
		}
		return fmt.Sprintf("its chain of wrapped errors is cyclic: %s → back to the first", typeNames(d.cycle))
	case d.panicked != nil:
		return fmt.Sprintf("the Unwrap method of %T in its chain of wrapped errors panicked: %v", d.panicked, d.panicValue)
	case d.full:
		return fmt.Sprintf("its tree of wrapped errors holds more than %d errors, the most the SDK walks", maxErrorChainSize)
	default:
		// tooDeep, or a chain that grows as it is walked, where the second
		// walk stopped at the depth too.
		return fmt.Sprintf("its chain of wrapped errors is deeper than %d errors, the most the SDK walks (it begins %s)",
			MaxErrorChainDepth, typeNames(d.path[:min(len(d.path), 5)]))
	}
}

// typeNames lists the types of errs, "*a.T → b.U".
func typeNames(errs []error) string {
	names := make([]string, len(errs))
	for i, e := range errs {
		names[i] = fmt.Sprintf("%T", e)
	}
	return strings.Join(names, " → ")
}

// sameError reports whether a and b are the same error: equal values of
// one comparable type (the same pointer, for pointer types).
func sameError(a, b error) bool {
	t := reflect.TypeOf(a)
	if t != reflect.TypeOf(b) || !t.Comparable() {
		return false
	}
	if t.Kind() == reflect.Pointer {
		return a == b
	}
	return equalValues(a, b)
}

// equalValues is a == b for values of a comparable type, which panics when
// the type holds an uncomparable value in an interface: different, then.
func equalValues(a, b error) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}
