package failure

import (
	"errors"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
)

// typicalChain is the failure a workflow sees when an activity fails: an
// activity failure caused by an application failure caused by a Go error.
func typicalChain() *failurepb.Failure {
	return GetDefaultFailureConverter().ErrorToFailure(NewActivityError(5, 6, "worker@host", "Charge", "5",
		enumspb.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED,
		NewApplicationErrorWithCause("declined", "CardDeclined", errors.New("bank said no"))))
}

func BenchmarkFailureToErrorTypical(b *testing.B) {
	fc := GetDefaultFailureConverter()
	f := typicalChain()
	b.ReportAllocs()
	for b.Loop() {
		if fc.FailureToError(f) == nil {
			b.Fatal("nil error")
		}
	}
}

func BenchmarkErrorStringTypical(b *testing.B) {
	err := GetDefaultFailureConverter().FailureToError(typicalChain())
	b.ReportAllocs()
	for b.Loop() {
		if err.Error() == "" {
			b.Fatal("empty message")
		}
	}
}

// BenchmarkDeepChainDecodeAndError is a hostile failure: a cause chain as
// deep as protobuf allows, decoded and rendered as workflow code would.
func BenchmarkDeepChainDecodeAndError(b *testing.B) {
	fc := GetDefaultFailureConverter()
	f := deepFailure(9900)
	b.ReportAllocs()
	for b.Loop() {
		if fc.FailureToError(f).Error() == "" {
			b.Fatal("empty message")
		}
	}
}
