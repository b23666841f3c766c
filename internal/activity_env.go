package internal

import (
	"context"
	"errors"
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// ActivityType names an activity type (activity.Type).
type ActivityType struct {
	Name string
}

// ActivityInfo describes the running activity (activity.Info).
type ActivityInfo struct {
	TaskToken              []byte
	WorkflowType           *clientapi.WorkflowType
	WorkflowNamespace      string
	WorkflowExecution      clientapi.WorkflowExecution
	ActivityID             string
	ActivityRunID          string
	ActivityType           ActivityType
	TaskQueue              string
	Namespace              string
	HeartbeatTimeout       time.Duration
	ScheduleToCloseTimeout time.Duration
	StartToCloseTimeout    time.Duration
	ScheduledTime          time.Time
	StartedTime            time.Time
	Deadline               time.Time
	Attempt                int32
	IsLocalActivity        bool
	Priority               policy.Priority
	RetryPolicy            *policy.RetryPolicy
	// NexusSerializationContext is that of the Nexus operation whose
	// handler started this standalone activity (temporalnexus.StartActivity),
	// nil otherwise: the activity's result, failure and heartbeat details
	// are converted with it. Pass it to the client's CompleteActivity and
	// RecordActivityHeartbeat options when completing or heartbeating the
	// activity outside the worker. (Experimental.)
	NexusSerializationContext *converter.NexusSerializationContext
}

// IsWorkflowActivity reports that a workflow scheduled the activity.
func (i *ActivityInfo) IsWorkflowActivity() bool { return i.WorkflowExecution.ID != "" }

// ErrResultPending, returned by an activity, means it will be completed
// later with Client.CompleteActivity and its task token.
var ErrResultPending = workerrt.ErrResultPending

// activityEnv is what activity code reaches through its context.
type activityEnv struct {
	info             ActivityInfo
	heartbeat        func(*commonpb.Payloads)
	heartbeatDetails *commonpb.Payloads // from the previous attempt
	dc               converter.DataConverter
	logger           log.Logger
	workerStop       <-chan struct{}
	client           Client
	metrics          sdkmetrics.Handler

	// outbound is where the activity package's calls go: the interceptors'
	// chain, which ends at the activity's activityRoot.
	outbound ActivityOutboundInterceptor
}

type activityEnvKey struct{}

func activityEnvOf(ctx context.Context) *activityEnv {
	if env, ok := ctx.Value(activityEnvKey{}).(*activityEnv); ok {
		return env
	}
	panic("activity: this call needs the context an activity function received; it is not an activity context")
}

// GetActivityClient returns the client of the worker running the
// activity, to start or signal workflows from it.
func GetActivityClient(ctx context.Context) Client { return activityEnvOf(ctx).outbound.GetClient(ctx) }

// GetActivityMetricsHandler returns the metrics handler of the worker's
// client, tagged with the activity's identity.
func GetActivityMetricsHandler(ctx context.Context) sdkmetrics.Handler {
	return activityEnvOf(ctx).outbound.GetMetricsHandler(ctx)
}

// IsActivity reports whether ctx is an activity's context.
func IsActivity(ctx context.Context) bool {
	_, ok := ctx.Value(activityEnvKey{}).(*activityEnv)
	return ok
}

// GetActivityInfo returns information about the running activity.
func GetActivityInfo(ctx context.Context) ActivityInfo {
	return activityEnvOf(ctx).outbound.GetInfo(ctx)
}

// GetActivityLogger returns a logger tagged with the activity's identity.
func GetActivityLogger(ctx context.Context) log.Logger {
	return activityEnvOf(ctx).outbound.GetLogger(ctx)
}

// GetWorkerStopChannel returns a channel closed when the worker running
// the activity begins to stop.
func GetWorkerStopChannel(ctx context.Context) <-chan struct{} {
	return activityEnvOf(ctx).outbound.GetWorkerStopChannel(ctx)
}

// RecordActivityHeartbeat reports progress, with details a retry can read
// back (GetHeartbeatDetails). Heartbeats are throttled; cancellation of the
// activity arrives through them, canceling ctx.
func RecordActivityHeartbeat(ctx context.Context, details ...any) {
	activityEnvOf(ctx).outbound.RecordHeartbeat(ctx, details...)
}

// HasHeartbeatDetails reports whether an earlier attempt recorded
// heartbeat details.
func HasHeartbeatDetails(ctx context.Context) bool {
	return activityEnvOf(ctx).outbound.HasHeartbeatDetails(ctx)
}

// GetHeartbeatDetails decodes the details of the previous attempt's last
// heartbeat.
func GetHeartbeatDetails(ctx context.Context, d ...any) error {
	return activityEnvOf(ctx).outbound.GetHeartbeatDetails(ctx, d...)
}

var errNoHeartbeatDetails = errors.New("no heartbeat details: the previous attempt recorded none (check HasHeartbeatDetails first)")

func activityInfoOf(t *workerrt.ActivityTask, namespace string) ActivityInfo {
	task := t.Task
	info := ActivityInfo{
		TaskToken:              task.GetTaskToken(),
		WorkflowNamespace:      task.GetWorkflowNamespace(),
		WorkflowExecution:      clientapi.WorkflowExecution{ID: task.GetWorkflowExecution().GetWorkflowId(), RunID: task.GetWorkflowExecution().GetRunId()},
		ActivityID:             task.GetActivityId(),
		ActivityRunID:          task.GetActivityRunId(),
		ActivityType:           ActivityType{Name: task.GetActivityType().GetName()},
		Namespace:              namespace,
		HeartbeatTimeout:       task.GetHeartbeatTimeout().AsDuration(),
		ScheduleToCloseTimeout: task.GetScheduleToCloseTimeout().AsDuration(),
		StartToCloseTimeout:    task.GetStartToCloseTimeout().AsDuration(),
		ScheduledTime:          task.GetScheduledTime().AsTime(),
		StartedTime:            task.GetStartedTime().AsTime(),
		Attempt:                task.GetAttempt(),
		Priority:               policy.PriorityFromProto(task.GetPriority()),
	}
	if task.GetWorkflowType() != nil {
		info.WorkflowType = &clientapi.WorkflowType{Name: task.GetWorkflowType().GetName()}
	}
	if rp := task.GetRetryPolicy(); rp != nil {
		info.RetryPolicy = policy.RetryPolicyFromProto(rp)
	}
	return info
}

func describeActivity(info ActivityInfo) string {
	return fmt.Sprintf("activity %q (ID %s, workflow %s)", info.ActivityType.Name, info.ActivityID, info.WorkflowExecution.ID)
}
