// Package codecfail carries a payload codec's request to fail the workflow
// task (converter.WorkflowTaskFailureError) from the codec boundary, where
// package converter marks it, to the engine, which fails the task instead
// of the workflow. Only a marked error counts: workflow code that returns a
// WorkflowTaskFailureError of its own has not been through a codec. The
// mark is a type of this package, which the converter and the engine
// share, so no error made elsewhere can pass for one.
package codecfail

import "errors"

// marked is an error a payload codec returned that asks for a workflow
// task failure.
type marked struct{ err error }

func (m *marked) Error() string { return m.err.Error() }
func (m *marked) Unwrap() error { return m.err }

// Mark marks err, which a codec returned and which holds a
// converter.WorkflowTaskFailureError. Package converter alone calls it.
func Mark(err error) error { return &marked{err: err} }

// Has reports whether err's chain holds a marked error.
func Has(err error) bool {
	if err == nil {
		return false
	}
	var m *marked
	return errors.As(err, &m)
}

// FailTask panics with err when it is marked, so that workflow code cannot
// take the failure for an ordinary error: the engine turns the panic into
// a failed workflow task under either panic policy. Conversion sites that
// the failure fails the task for call it with their own error, which says
// what was being converted. Errors that are not marked pass through.
func FailTask(err error) {
	if Has(err) {
		panic(err)
	}
}
