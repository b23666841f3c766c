package activity

import (
	"context"

	"github.com/durable-go/sdk/internal"
)

// RecordHeartbeat tells the server that the activity is alive and records
// details, its progress so far. Call it regularly in activities that run
// long; an activity with a HeartbeatTimeout
// (workflow.ActivityOptions.HeartbeatTimeout) that does not heartbeat
// within it times out and is retried.
//
// The details are kept by the server: a later attempt reads the last ones
// with GetHeartbeatDetails to resume where this one stopped, and a workflow
// whose activity timed out finds them in the *temporal.TimeoutError.
//
// Heartbeats are cheap to call often: the SDK sends at most one per
// interval (80% of the heartbeat timeout, or the worker's
// DefaultHeartbeatThrottleInterval, 30s by default, without one; never more
// than MaxHeartbeatThrottleInterval, 60s) and keeps the latest details for
// the next send.
//
// Cancellation reaches an activity through heartbeats: when the server
// answers that the workflow asked to cancel the activity, or that it was
// paused or reset, the activity's context is canceled and context.Cause
// tells why (ErrActivityPaused, ErrActivityReset, or an error saying the
// workflow canceled it or the activity no longer exists). An activity that
// never heartbeats is never told.
//
//	for i := start; i < len(files); i++ {
//		if err := process(ctx, files[i]); err != nil {
//			return err
//		}
//		activity.RecordHeartbeat(ctx, i+1)
//		if ctx.Err() != nil {
//			return ctx.Err() // canceled: stop, the next attempt resumes at i+1
//		}
//	}
func RecordHeartbeat(ctx context.Context, details ...any) {
	internal.RecordActivityHeartbeat(ctx, details...)
}

// HasHeartbeatDetails reports whether an earlier attempt of this activity
// recorded heartbeat details that GetHeartbeatDetails can read.
func HasHeartbeatDetails(ctx context.Context) bool { return internal.HasHeartbeatDetails(ctx) }

// GetHeartbeatDetails decodes the details of the last heartbeat an earlier
// attempt recorded into d (pointers, one per detail, as
// converter.EncodedValues.Get takes them), so that a retry resumes where
// the failed attempt stopped:
//
//	start := 0
//	if activity.HasHeartbeatDetails(ctx) {
//		if err := activity.GetHeartbeatDetails(ctx, &start); err != nil {
//			return err
//		}
//	}
//
// It returns an error when there are no details or they do not decode
// into d. Decode into fresh values: decoding on top of existing ones merges
// into them, as json.Unmarshal does. In a unit test,
// testsuite.TestActivityEnvironment.SetHeartbeatDetails provides details.
func GetHeartbeatDetails(ctx context.Context, d ...any) error {
	return internal.GetHeartbeatDetails(ctx, d...)
}

// ErrActivityPaused is the cause (context.Cause) of an activity context
// canceled because the activity was paused on the server; a heartbeat's
// answer brings the news. The server runs the activity again when it is
// unpaused.
//
// NOTE: Experimental
var ErrActivityPaused = internal.ErrActivityPaused

// ErrActivityReset is the cause (context.Cause) of an activity context
// canceled because the activity was reset on the server; a heartbeat's
// answer brings the news. The server runs it again from its first attempt.
//
// NOTE: Experimental
var ErrActivityReset = internal.ErrActivityReset
