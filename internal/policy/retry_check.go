package policy

import (
	"fmt"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/optcheck"
)

// serverDefaultInitialInterval is the InitialInterval the server gives a
// retry policy that sets none (its dynamic config's default).
const serverDefaultInitialInterval = time.Second

// timeoutErrorTypePrefix starts the NonRetryableErrorTypes entries that
// name a timeout, such as "TemporalTimeout:StartToClose".
const timeoutErrorTypePrefix = "TemporalTimeout:"

// CheckRetryPolicy returns what is wrong with p (nil is a valid policy),
// naming the field and its value; nil when nothing is. A policy the
// server refuses is not refused by the call that sends it but by the
// workflow task that carries it (an activity's or a child's), which then
// fails and is retried every few seconds, for ever: the workflow is stuck.
// So the SDK refuses here what the server would (its
// common/retrypolicy.Validate, after filling in its defaults), and the
// mistakes it would let through: negative fields and NaN are refused
// always; the rest, as by the server, only when retries are possible at
// all (MaximumAttempts is not 1). It allocates nothing for a valid policy.
func CheckRetryPolicy(p *RetryPolicy) error {
	if p == nil {
		return nil
	}
	if err := optcheck.Negative("RetryPolicy",
		optcheck.Duration("InitialInterval", p.InitialInterval), optcheck.Number("BackoffCoefficient", p.BackoffCoefficient),
		optcheck.Duration("MaximumInterval", p.MaximumInterval), optcheck.Number("MaximumAttempts", float64(p.MaximumAttempts))); err != nil {
		return err
	}
	if p.MaximumAttempts == 1 {
		return nil // one attempt: nothing is retried, and the server checks nothing more
	}
	if p.BackoffCoefficient > 0 && p.BackoffCoefficient < 1 {
		return fmt.Errorf("RetryPolicy: BackoffCoefficient is %v; it must be 1 or more (0 means the default, 2), or the server refuses the policy", p.BackoffCoefficient)
	}
	if p.MaximumInterval > 0 {
		switch {
		case p.InitialInterval == 0 && p.MaximumInterval < serverDefaultInitialInterval:
			return fmt.Errorf("RetryPolicy: MaximumInterval is %v, less than the InitialInterval the server sets by default (%v); set InitialInterval too, or the server refuses the policy",
				p.MaximumInterval, serverDefaultInitialInterval)
		case p.MaximumInterval < p.InitialInterval:
			return fmt.Errorf("RetryPolicy: MaximumInterval is %v, less than InitialInterval (%v); the server refuses such a policy",
				p.MaximumInterval, p.InitialInterval)
		}
	}
	for _, errorType := range p.NonRetryableErrorTypes {
		if !strings.HasPrefix(errorType, timeoutErrorTypePrefix) {
			continue
		}
		timeout, err := enumspb.TimeoutTypeFromString(strings.TrimPrefix(errorType, timeoutErrorTypePrefix))
		if err != nil || timeout == enumspb.TIMEOUT_TYPE_UNSPECIFIED {
			return fmt.Errorf("RetryPolicy: NonRetryableErrorTypes holds %q, which names no timeout type (%sStartToClose, %sScheduleToStart, %sScheduleToClose or %sHeartbeat); the server refuses such a policy",
				errorType, timeoutErrorTypePrefix, timeoutErrorTypePrefix, timeoutErrorTypePrefix, timeoutErrorTypePrefix)
		}
	}
	return nil
}
