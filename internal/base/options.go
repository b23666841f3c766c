package base

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// A negative duration, size or rate in options is a mistake (a sign flipped,
// a subtraction gone wrong), never a setting, and so is a number that is
// NaN (a division by zero): it is refused with the option's name, rather
// than read as "unset" or as a zero that means the default. These helpers
// name every such one at once.
//
// Workflow code checks the options of every activity, local activity and
// child it starts, so the check allocates nothing unless an option is
// refused: a NamedValue holds its value unboxed, and the error's text is
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

// NegativeOptions returns an error naming the options of values that are
// negative (or NaN), in the words of what (e.g. "client.Options"); nil
// when there are none.
func NegativeOptions(what string, values ...NamedValue) error {
	if !anyInvalid(values) {
		return nil
	}
	return invalidError(what, values)
}

// NegativeCallOptions is NegativeOptions for the options of a workflow
// call: the error reads "call(name): options: ...", e.g.
// "ExecuteActivity(Charge): workflow.ActivityOptions: ...".
func NegativeCallOptions(call, name, options string, values ...NamedValue) error {
	if !anyInvalid(values) {
		return nil
	}
	return CallOptionsError(call, name, options, invalidError("", values))
}

// CallOptionsError says that err is about the options of a workflow
// call, as NegativeCallOptions words it; nil when err is nil. The text is
// built only when there is an error.
func CallOptionsError(call, name, options string, err error) error {
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
