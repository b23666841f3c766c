// Package workflow stands in for the SDK's workflow package in the
// analyzer's tests.
package workflow

import (
	"cmp"
	"slices"
	"time"

	"go.temporal.io/sdk/internal"
)

type (
	Context         = internal.Context
	Future          = internal.Future
	Channel         = internal.Channel
	Selector        = internal.Selector
	RegisterOptions = internal.RegisterWorkflowOptions
)

func Go(ctx Context, f func(ctx Context))                                { go f(ctx) }
func Sleep(ctx Context, d time.Duration) error                           { return internal.Sleep(ctx, d) }
func Now(ctx Context) time.Time                                          { return time.Now() }
func NewTimer(ctx Context, d time.Duration) Future                       { return nil }
func NewChannel(ctx Context) Channel                                     { return nil }
func NewSelector(ctx Context) Selector                                   { return nil }
func Await(ctx Context, condition func() bool) error                     { return nil }
func ExecuteActivity(ctx Context, activity any, args ...any) Future      { return nil }
func ExecuteLocalActivity(ctx Context, activity any, args ...any) Future { return nil }
func GetSignalChannel(ctx Context, name string) Channel                  { return nil }

func AwaitWithTimeout(ctx Context, timeout time.Duration, condition func() bool) (bool, error) {
	return condition(), nil
}

func SideEffect(ctx Context, f func(ctx Context) any) internal.EncodedValue { return nil }

func MutableSideEffect(ctx Context, id string, f func(ctx Context) any, equals func(a, b any) bool) internal.EncodedValue {
	return nil
}

func DeterministicKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
