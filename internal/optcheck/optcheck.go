// Package optcheck refuses options whose values cannot be meant: a
// negative duration, size or rate is a mistake (a sign flipped, a
// subtraction gone wrong), never a setting, and so is a number that is
// NaN (a division by zero). Such a value is refused with the option's
// name, rather than read as "unset" or as a zero that means the default,
// and every such one is named at once. The client, the worker and
// workflow code (the options of each activity, local activity and child)
// check their options with it.
//
// Workflow code checks options on every call, so the check allocates
// nothing unless an option is refused: a NamedValue holds its value
// unboxed, and the error's text is built only when there is an error.
package optcheck

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// NamedValue is an option's name and its value, a duration or a number.
type NamedValue struct {
	name     string
	duration time.Duration
	number   float64
	isNumber bool
}

// Duration is a duration option, for Negative.
func Duration(name string, d time.Duration) NamedValue { return NamedValue{name: name, duration: d} }

// Number is a numeric option (a size, a count, a rate), for
// Negative.
func Number(name string, n float64) NamedValue {
	return NamedValue{name: name, number: n, isNumber: true}
}

func (v NamedValue) invalid() bool {
	if v.isNumber {
		return v.number < 0 || math.IsNaN(v.number)
	}
	return v.duration < 0
}

func (v NamedValue) String() string {
	if v.isNumber {
		return fmt.Sprintf("%s is %v", v.name, v.number)
	}
	return fmt.Sprintf("%s is %v", v.name, v.duration)
}

// Negative returns an error naming the options of values that are
// negative (or NaN), in the words of what (e.g. "client.Options"); nil
// when there are none.
func Negative(what string, values ...NamedValue) error {
	if !anyInvalid(values) {
		return nil
	}
	return invalidError(what, values)
}

// NegativeInCall is Negative for the options of a workflow
// call: the error reads "call(name): options: ...", e.g.
// "ExecuteActivity(Charge): workflow.ActivityOptions: ...".
func NegativeInCall(call, name, options string, values ...NamedValue) error {
	if !anyInvalid(values) {
		return nil
	}
	return CallError(call, name, options, invalidError("", values))
}

// CallError says that err is about the options of a workflow
// call, as NegativeInCall words it; nil when err is nil. The text is
// built only when there is an error.
func CallError(call, name, options string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s(%s): %s: %w", call, name, options, err)
}

func anyInvalid(values []NamedValue) bool {
	for _, v := range values {
		if v.invalid() {
			return true
		}
	}
	return false
}

// invalidError names the invalid values, after what unless it is empty.
func invalidError(what string, values []NamedValue) error {
	var bad []string
	rule := "must not be negative"
	for _, v := range values {
		if v.invalid() {
			bad = append(bad, v.String())
			if v.isNumber && math.IsNaN(v.number) {
				rule = "must be numbers, not NaN, and not negative"
			}
		}
	}
	if what != "" {
		what += ": "
	}
	return fmt.Errorf("%s%s; options %s (0 means the default)", what, strings.Join(bad, ", "), rule)
}
