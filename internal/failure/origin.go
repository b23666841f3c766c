package failure

import failurepb "go.temporal.io/api/failure/v1"

// origin remembers the Failure an error was decoded from. Errors that embed
// it get the Failure method and are re-encoded as that exact proto.
type origin struct {
	failure *failurepb.Failure
}

// Failure returns the failure proto this error was decoded from, or nil for
// an error made in this process. It gives the full structured data (stack
// trace, encoded details, cause chain) to callers that need more than the
// error's methods.
func (o *origin) Failure() *failurepb.Failure { return o.failure }

func (o *origin) setFailure(f *failurepb.Failure) { o.failure = f }

// failureCarrier is implemented by every error type embedding origin.
type failureCarrier interface {
	Failure() *failurepb.Failure
	setFailure(*failurepb.Failure)
}
