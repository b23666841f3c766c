package failure

import (
	"errors"
	"fmt"
	"testing"
)

// typicalError is what a failing activity or workflow returns: an
// application error that wraps a Go error that wraps a sentinel.
func typicalError() error {
	return NewApplicationErrorWithCause("charge failed", "CardDeclined", fmt.Errorf("bank: %w", errors.New("insufficient funds")))
}

func BenchmarkErrorToFailureTypical(b *testing.B) {
	fc := GetDefaultFailureConverter()
	err := typicalError()
	b.ReportAllocs()
	for b.Loop() {
		if fc.ErrorToFailure(err) == nil {
			b.Fatal("nil failure")
		}
	}
}

// BenchmarkSafeChainTypical is what the SDK adds to a failed activity's or
// workflow's completion: the walk of a typical chain.
func BenchmarkSafeChainTypical(b *testing.B) {
	err := typicalError()
	b.ReportAllocs()
	for b.Loop() {
		if SafeChain(err) != err {
			b.Fatal("a typical error replaced")
		}
	}
}
