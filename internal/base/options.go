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

// NamedValue is an option's name and its value, a duration or a number.
type NamedValue struct {
	name  string
	value any
}

// Duration is a duration option, for NegativeOptions.
func Duration(name string, d time.Duration) NamedValue { return NamedValue{name, d} }

// Number is a numeric option (a size, a count, a rate), for
// NegativeOptions.
func Number(name string, n float64) NamedValue { return NamedValue{name, n} }

// NegativeOptions returns an error naming the options of values that are
// negative, in the words of what (e.g. "ExecuteActivity(Charge)"); nil
// when there are none.
func NegativeOptions(what string, values ...NamedValue) error {
	var bad []string
	for _, v := range values {
		switch x := v.value.(type) {
		case time.Duration:
			if x < 0 {
				bad = append(bad, fmt.Sprintf("%s is %v", v.name, x))
			}
		case float64:
			if x < 0 {
				bad = append(bad, fmt.Sprintf("%s is %v", v.name, x))
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s; options must not be negative (0 means the default)", what, strings.Join(bad, ", "))
}
