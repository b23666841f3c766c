package base

import (
	"fmt"
	"strings"
	"time"
)

// A negative duration, size or rate in options is a mistake (a sign flipped,
// a subtraction gone wrong), never a setting: it is refused with the
// option's name, rather than read as "unset" or as a zero that means the
// default. These helpers name every negative one at once.
//
// Workflow code checks the options of every activity, local activity and
// child it starts, so the check allocates nothing unless an option is
// negative: a NamedValue holds its value unboxed, and the error's text is
// built only when there is an error.

// NamedValue is an option's name and its value, a duration or a number.
type NamedValue struct {
	name     string
	duration time.Duration
	number   float64
	isNumber bool
}

// Duration is a duration option, for NegativeOptions.
func Duration(name string, d time.Duration) NamedValue { return NamedValue{name: name, duration: d} }

// Number is a numeric option (a size, a count, a rate), for
// NegativeOptions.
func Number(name string, n float64) NamedValue {
	return NamedValue{name: name, number: n, isNumber: true}
}

func (v NamedValue) negative() bool {
	if v.isNumber {
		return v.number < 0
	}
	return v.duration < 0
}

func (v NamedValue) String() string {
	if v.isNumber {
		return fmt.Sprintf("%s is %v", v.name, v.number)
	}
	return fmt.Sprintf("%s is %v", v.name, v.duration)
}

// NegativeOptions returns an error naming the options of values that are
// negative, in the words of what (e.g. "client.Options"); nil when there
// are none.
func NegativeOptions(what string, values ...NamedValue) error {
	if !anyNegative(values) {
		return nil
	}
	return negativeError(what, values)
}

// NegativeCallOptions is NegativeOptions for the options of a workflow
// call: the error reads "call(name): options: ...", e.g.
// "ExecuteActivity(Charge): workflow.ActivityOptions: ...".
func NegativeCallOptions(call, name, options string, values ...NamedValue) error {
	if !anyNegative(values) {
		return nil
	}
	return negativeError(call+"("+name+"): "+options, values)
}

func anyNegative(values []NamedValue) bool {
	for _, v := range values {
		if v.negative() {
			return true
		}
	}
	return false
}

func negativeError(what string, values []NamedValue) error {
	var bad []string
	for _, v := range values {
		if v.negative() {
			bad = append(bad, v.String())
		}
	}
	return fmt.Errorf("%s: %s; options must not be negative (0 means the default)", what, strings.Join(bad, ", "))
}
