// Package activity is the API of activity code: information about the
// running activity, heartbeats, and its logger.
package activity

import (
	"context"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/log"
)

type (
	// Info describes the running activity.
	Info = internal.ActivityInfo
	// Type names an activity type.
	Type = internal.ActivityType
	// RegisterOptions configure an activity registration.
	RegisterOptions = internal.RegisterActivityOptions

	// DynamicRegisterOptions configure a dynamic activity's registration
	// (worker.Worker.RegisterDynamicActivity).
	DynamicRegisterOptions = internal.DynamicRegisterActivityOptions
)

// ErrResultPending, returned by an activity, means it will be completed
// later through Client.CompleteActivity with its task token.
var ErrResultPending = internal.ErrResultPending

// GetInfo returns information about the running activity.
func GetInfo(ctx context.Context) Info { return internal.GetActivityInfo(ctx) }

// GetLogger returns a logger tagged with the activity's identity.
func GetLogger(ctx context.Context) log.Logger { return internal.GetActivityLogger(ctx) }

// ErrActivityPaused is the cause (context.Cause) of an activity's context
// canceled because the activity was paused on the server; ErrActivityReset,
// because it was reset. Both arrive with a heartbeat's answer.
var (
	ErrActivityPaused = internal.ErrActivityPaused
	ErrActivityReset  = internal.ErrActivityReset
)

// RecordHeartbeat reports progress with details a retry can read back.
// Cancellation of the activity arrives through heartbeats: the activity's
// context is canceled, and context.Cause says why (the workflow asked, the
// activity was paused or reset, the worker is stopping).
func RecordHeartbeat(ctx context.Context, details ...any) {
	internal.RecordActivityHeartbeat(ctx, details...)
}

// HasHeartbeatDetails reports whether an earlier attempt recorded details.
func HasHeartbeatDetails(ctx context.Context) bool { return internal.HasHeartbeatDetails(ctx) }

// GetHeartbeatDetails decodes the previous attempt's last heartbeat details.
func GetHeartbeatDetails(ctx context.Context, d ...any) error {
	return internal.GetHeartbeatDetails(ctx, d...)
}

// GetWorkerStopChannel returns a channel closed when the worker begins to
// stop, so long activities can wrap up.
func GetWorkerStopChannel(ctx context.Context) <-chan struct{} {
	return internal.GetWorkerStopChannel(ctx)
}

// IsActivity reports whether ctx is an activity's context.
func IsActivity(ctx context.Context) bool { return internal.IsActivity(ctx) }

// GetClient returns the client of the worker running the activity.
func GetClient(ctx context.Context) client.Client { return internal.GetActivityClient(ctx) }

// GetMetricsHandler returns the worker client's metrics handler, tagged
// with the activity's type, task queue and namespace.
func GetMetricsHandler(ctx context.Context) client.MetricsHandler {
	return internal.GetActivityMetricsHandler(ctx)
}
