package policy

import (
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

// RetryPolicy says how the server retries a failed activity or workflow.
// Zero fields take the server's defaults.
type RetryPolicy struct {
	// InitialInterval is the delay before the first retry; 1s by default.
	// With a BackoffCoefficient of 1 it is the delay before every retry.
	InitialInterval time.Duration
	// BackoffCoefficient multiplies the delay after each retry. It must be
	// 1 or more; 2 by default.
	BackoffCoefficient float64
	// MaximumInterval caps the delay; 100 times InitialInterval by default.
	MaximumInterval time.Duration
	// MaximumAttempts caps the number of attempts; 0 means no cap (then a
	// timeout ends the retries).
	MaximumAttempts int32
	// NonRetryableErrorTypes lists application error types that are never
	// retried. Cancellation is never retried, and of timeouts only
	// start-to-close and heartbeat timeouts are.
	NonRetryableErrorTypes []string
}

// RetryPolicyToProto converts a policy for the wire; nil gives nil. Both
// intervals are always set, zero included, as other Go SDKs send them.
func RetryPolicyToProto(p *RetryPolicy) *commonpb.RetryPolicy {
	if p == nil {
		return nil
	}
	return &commonpb.RetryPolicy{
		InitialInterval:        durationpb.New(p.InitialInterval),
		BackoffCoefficient:     p.BackoffCoefficient,
		MaximumInterval:        durationpb.New(p.MaximumInterval),
		MaximumAttempts:        p.MaximumAttempts,
		NonRetryableErrorTypes: p.NonRetryableErrorTypes,
	}
}

// RetryPolicyFromProto converts a policy from the wire; nil gives nil.
func RetryPolicyFromProto(p *commonpb.RetryPolicy) *RetryPolicy {
	if p == nil {
		return nil
	}
	return &RetryPolicy{
		InitialInterval:        p.GetInitialInterval().AsDuration(),
		BackoffCoefficient:     p.GetBackoffCoefficient(),
		MaximumInterval:        p.GetMaximumInterval().AsDuration(),
		MaximumAttempts:        p.GetMaximumAttempts(),
		NonRetryableErrorTypes: p.GetNonRetryableErrorTypes(),
	}
}
