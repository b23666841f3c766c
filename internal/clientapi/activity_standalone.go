package clientapi

import (
	"context"
	"iter"
	"time"

	activitypb "go.temporal.io/api/activity/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/searchattr"
)

// Standalone activities: activities a client starts by itself, outside any
// workflow, which the server schedules, retries and times out as it does a
// workflow's (Client.ExecuteActivity). They need a server with standalone
// activities (1.31 and later, activity.enableStandalone); pausing,
// unpausing and updating their options also needs
// history.enableStandaloneActivityOperatorCommands.

type (
	// StartActivityOptions are the options of Client.ExecuteActivity.
	StartActivityOptions struct {
		// ID identifies the activity in the namespace. Required.
		ID string
		// TaskQueue is where the activity's tasks go. Required.
		TaskQueue string
		// ScheduleToCloseTimeout bounds the activity from its schedule to
		// its end, retries included. It or StartToCloseTimeout is required.
		ScheduleToCloseTimeout time.Duration
		// ScheduleToStartTimeout bounds the wait of a task in the queue;
		// none when zero.
		ScheduleToStartTimeout time.Duration
		// StartToCloseTimeout bounds one attempt. It or
		// ScheduleToCloseTimeout is required.
		StartToCloseTimeout time.Duration
		// HeartbeatTimeout is the longest time between two heartbeats of an
		// attempt; none when zero.
		HeartbeatTimeout time.Duration
		// ActivityIDConflictPolicy says what a start does when an activity
		// with ID is running; the server fails it when unspecified.
		ActivityIDConflictPolicy enumspb.ActivityIdConflictPolicy
		// ActivityIDReusePolicy says whether ID may be used again once an
		// activity with it closed; the server allows it when unspecified.
		ActivityIDReusePolicy enumspb.ActivityIdReusePolicy
		// RetryPolicy says how failed attempts are retried; the server's
		// default policy when nil.
		RetryPolicy *policy.RetryPolicy
		// TypedSearchAttributes are attached to the activity, for
		// ListActivities and CountActivities queries.
		TypedSearchAttributes searchattr.SearchAttributes
		// Summary is a one-line summary shown in the UI and the CLI.
		Summary string
		// StaticDetails are longer details shown in the UI; they cannot
		// change after the start.
		StaticDetails string
		// Priority orders the activity's tasks relative to others.
		Priority policy.Priority
		// StartDelay postpones the first attempt (not the retries).
		StartDelay time.Duration
	}

	// GetActivityHandleOptions are the arguments of
	// Client.GetActivityHandle.
	GetActivityHandleOptions struct {
		// ActivityID is the activity's ID. Required.
		ActivityID string
		// RunID selects one run of it; its latest when empty.
		RunID string
	}

	// ListActivitiesOptions are the arguments of Client.ListActivities.
	ListActivitiesOptions struct {
		// Query is a visibility query (https://docs.temporal.io/list-filter);
		// every standalone activity of the namespace when empty.
		Query string
	}

	// ListActivitiesResult is the answer of Client.ListActivities.
	ListActivitiesResult struct {
		// Results yields the matching activities, page after page, as it
		// is iterated; an error ends it.
		Results iter.Seq2[*ClientActivityExecutionInfo, error]
	}

	// CountActivitiesOptions are the arguments of Client.CountActivities.
	CountActivitiesOptions struct {
		// Query is a visibility query, which may group by a field
		// (GROUP BY).
		Query string
	}

	// CountActivitiesResult is the answer of Client.CountActivities.
	CountActivitiesResult struct {
		// Count is the approximate number of matching activities.
		Count int64
		// Groups are the counts by group of a query with GROUP BY.
		Groups []CountActivitiesAggregationGroup
	}

	// CountActivitiesAggregationGroup is one group of a
	// CountActivitiesResult.
	CountActivitiesAggregationGroup struct {
		// GroupValues are the values of the grouped-by fields.
		GroupValues []any
		// Count is the approximate number of activities in the group.
		Count int64
	}

	// ActivityHandle acts on one standalone activity (Client.ExecuteActivity,
	// Client.GetActivityHandle).
	ActivityHandle interface {
		// GetID returns the activity's ID.
		GetID() string
		// GetRunID returns the run ID the handle was made with: the started
		// run's for a handle from ExecuteActivity, the one given (maybe
		// empty, for the latest run) for one from GetActivityHandle.
		GetRunID() string
		// Get waits for the activity to close and decodes its result into
		// valuePtr (nil ignores it), or returns its failure as an error.
		Get(ctx context.Context, valuePtr any) error
		// Describe returns the activity's current state; options choose
		// which payloads come with it.
		Describe(ctx context.Context, options DescribeActivityOptions) (*ActivityExecutionDescription, error)
		// Cancel asks for the activity's cancellation: its running attempt
		// learns it at its next heartbeat.
		Cancel(ctx context.Context, options CancelActivityOptions) error
		// Terminate ends the activity at once.
		Terminate(ctx context.Context, options TerminateActivityOptions) error
		// Pause stops the activity's retries; a running attempt learns it
		// at its next heartbeat. Pausing a paused activity does nothing.
		Pause(ctx context.Context, options PauseActivityOptions) error
		// Unpause lets a paused activity run again. Unpausing one that is
		// not paused does nothing.
		Unpause(ctx context.Context, options UnpauseActivityOptions) error
		// UpdateOptions changes the options that update names (at least
		// one) and returns the activity's options after the change.
		UpdateOptions(ctx context.Context, update ActivityOptionsUpdate) (*ActivityExecutionOptions, error)
		// RestoreOriginalOptions undoes every UpdateOptions and returns the
		// options the activity was started with.
		RestoreOriginalOptions(ctx context.Context) (*ActivityExecutionOptions, error)
	}

	// DescribeActivityOptions are the options of ActivityHandle.Describe:
	// which payloads, large as they may be, come with the description.
	DescribeActivityOptions struct {
		// IncludeInput asks for the activity's arguments (GetInput).
		IncludeInput bool
		// IncludeOutcome asks for its result or failure once closed
		// (GetResult, GetOutcomeFailure).
		IncludeOutcome bool
		// IncludeHeartbeatDetails asks for its last heartbeat's details
		// (GetHeartbeatDetails).
		IncludeHeartbeatDetails bool
		// IncludeLastFailure asks for the failure of its last failed
		// attempt (GetLastFailure).
		IncludeLastFailure bool
	}

	// CancelActivityOptions are the options of ActivityHandle.Cancel.
	CancelActivityOptions struct {
		// Reason says why, for people reading the activity's description.
		Reason string
	}

	// TerminateActivityOptions are the options of ActivityHandle.Terminate.
	TerminateActivityOptions struct {
		// Reason says why; it is the message of the activity's failure.
		Reason string
	}

	// PauseActivityOptions are the options of ActivityHandle.Pause.
	PauseActivityOptions struct {
		// Reason says why.
		Reason string
	}

	// UnpauseActivityOptions are the options of ActivityHandle.Unpause.
	UnpauseActivityOptions struct {
		// Reason says why.
		Reason string
		// Jitter, when positive, delays the next attempt by a random time
		// below it, to spread the load of many activities unpaused at once.
		Jitter time.Duration
	}

	// ActivityExecutionOptions are the options an activity runs with, as
	// ActivityHandle.UpdateOptions and RestoreOriginalOptions return them.
	ActivityExecutionOptions struct {
		TaskQueue              string
		ScheduleToCloseTimeout time.Duration
		ScheduleToStartTimeout time.Duration
		StartToCloseTimeout    time.Duration
		HeartbeatTimeout       time.Duration
		StartDelay             time.Duration
		RetryPolicy            *policy.RetryPolicy
		Priority               policy.Priority
	}

	// ActivityOptionsUpdate names the options ActivityHandle.UpdateOptions
	// changes: a nil field leaves its option as it is.
	ActivityOptionsUpdate struct {
		TaskQueue              *ActivityOptionChange[string]
		ScheduleToCloseTimeout *ActivityOptionChange[time.Duration]
		ScheduleToStartTimeout *ActivityOptionChange[time.Duration]
		StartToCloseTimeout    *ActivityOptionChange[time.Duration]
		HeartbeatTimeout       *ActivityOptionChange[time.Duration]
		StartDelay             *ActivityOptionChange[time.Duration]
		RetryPolicy            *ActivityOptionChange[policy.RetryPolicy]
		Priority               *ActivityOptionChange[policy.Priority]
	}

	// ActivityOptionChange is the change of one option in an
	// ActivityOptionsUpdate.
	ActivityOptionChange[T any] struct {
		// Value is the option's new value; nil clears the option, so that
		// the server's default applies.
		Value *T
	}

	// ClientActivityExecutionInfo is what visibility knows of a standalone
	// activity: an element of ListActivities, and the common part of an
	// ActivityExecutionDescription. Its name is go.temporal.io/sdk's, for
	// the embedded field of a description to be named as there
	// (client.ActivityExecutionInfo is its public name).
	ClientActivityExecutionInfo struct {
		// RawExecutionListInfo is the server's entry this was read from;
		// nil in a description (see its RawResponse).
		RawExecutionListInfo *activitypb.ActivityExecutionListInfo
		// ActivityID and ActivityRunID identify the activity's run.
		ActivityID    string
		ActivityRunID string
		// ActivityType is the activity's registered name.
		ActivityType string
		// ScheduleTime is when it was scheduled; CloseTime when it closed.
		ScheduleTime time.Time
		CloseTime    time.Time
		// Status says whether it runs or how it closed.
		Status enumspb.ActivityExecutionStatus
		// TypedSearchAttributes are its search attributes that carry their
		// type.
		TypedSearchAttributes searchattr.SearchAttributes
		// TaskQueue is where its tasks go.
		TaskQueue string
		// ExecutionDuration is from scheduled to closed, once closed.
		ExecutionDuration time.Duration
		// ExecutionTime is when its first attempt was due (the schedule
		// time plus any start delay).
		ExecutionTime time.Time
	}

	// ActivityExecutionDescription is the answer of
	// ActivityHandle.Describe.
	ActivityExecutionDescription struct {
		ClientActivityExecutionInfo
		// RawResponse is the server's answer this was read from.
		RawResponse *workflowservice.DescribeActivityExecutionResponse
		// The activity's timeouts and start delay.
		ScheduleToCloseTimeout time.Duration
		ScheduleToStartTimeout time.Duration
		StartToCloseTimeout    time.Duration
		HeartbeatTimeout       time.Duration
		StartDelay             time.Duration
		// RunState details a running activity's state (scheduled, started,
		// cancel requested, paused...).
		RunState enumspb.PendingActivityState
		// LastHeartbeatTime and LastStartedTime time the last heartbeat
		// and the last attempt's start.
		LastHeartbeatTime time.Time
		LastStartedTime   time.Time
		// Attempt is the current attempt, from 1.
		Attempt int32
		// TotalHeartbeatCount counts the heartbeats of all attempts.
		TotalHeartbeatCount int64
		// RetryPolicy is the policy in force.
		RetryPolicy *policy.RetryPolicy
		// ExpirationTime is when the schedule-to-close timeout ends it.
		ExpirationTime time.Time
		// LastWorkerIdentity is the identity of the last worker that ran it.
		LastWorkerIdentity string
		// CurrentRetryInterval is the wait before the next attempt.
		CurrentRetryInterval time.Duration
		// LastAttemptCompleteTime and NextAttemptScheduleTime time the
		// attempts.
		LastAttemptCompleteTime time.Time
		NextAttemptScheduleTime time.Time
		// LastDeploymentVersion is the worker deployment version of the
		// last worker that ran it, if versioned.
		LastDeploymentVersion *WorkerDeploymentVersion
		// Priority is its priority.
		Priority policy.Priority
		// CanceledReason is the reason given with its cancellation.
		CanceledReason string

		// input, heartbeat details, result, failures: their converters.
		inputDC, resultDC converter.DataConverter
		fc                converter.FailureConverter
	}
)

// NewActivityExecutionDescription is the description read from raw:
// inputDC decodes the input, summary and details, resultDC the result and
// heartbeat details, and fc converts the failures. The client's Describe
// makes it.
func NewActivityExecutionDescription(raw *workflowservice.DescribeActivityExecutionResponse, info ClientActivityExecutionInfo,
	inputDC, resultDC converter.DataConverter, fc converter.FailureConverter,
) *ActivityExecutionDescription {
	i := raw.GetInfo()
	d := &ActivityExecutionDescription{
		ClientActivityExecutionInfo: info,
		RawResponse:                 raw,
		ScheduleToCloseTimeout:      i.GetScheduleToCloseTimeout().AsDuration(),
		ScheduleToStartTimeout:      i.GetScheduleToStartTimeout().AsDuration(),
		StartToCloseTimeout:         i.GetStartToCloseTimeout().AsDuration(),
		HeartbeatTimeout:            i.GetHeartbeatTimeout().AsDuration(),
		StartDelay:                  i.GetStartDelay().AsDuration(),
		RunState:                    i.GetRunState(),
		LastHeartbeatTime:           i.GetLastHeartbeatTime().AsTime(),
		LastStartedTime:             i.GetLastStartedTime().AsTime(),
		Attempt:                     i.GetAttempt(),
		TotalHeartbeatCount:         i.GetTotalHeartbeatCount(),
		RetryPolicy:                 policy.RetryPolicyFromProto(i.GetRetryPolicy()),
		ExpirationTime:              i.GetExpirationTime().AsTime(),
		LastWorkerIdentity:          i.GetLastWorkerIdentity(),
		CurrentRetryInterval:        i.GetCurrentRetryInterval().AsDuration(),
		LastAttemptCompleteTime:     i.GetLastAttemptCompleteTime().AsTime(),
		NextAttemptScheduleTime:     i.GetNextAttemptScheduleTime().AsTime(),
		Priority:                    policy.PriorityFromProto(i.GetPriority()),
		CanceledReason:              i.GetCanceledReason(),
		inputDC:                     inputDC,
		resultDC:                    resultDC,
		fc:                          fc,
	}
	if v := i.GetLastDeploymentVersion(); v != nil {
		d.LastDeploymentVersion = &WorkerDeploymentVersion{DeploymentName: v.GetDeploymentName(), BuildID: v.GetBuildId()}
	}
	return d
}

// converters are d's converters, the default ones for a description made
// by hand rather than by Describe.
func (d *ActivityExecutionDescription) converters() (inputDC, resultDC converter.DataConverter, fc converter.FailureConverter) {
	inputDC, resultDC, fc = d.inputDC, d.resultDC, d.fc
	if inputDC == nil {
		inputDC = converter.GetDefaultDataConverter()
	}
	if resultDC == nil {
		resultDC = inputDC
	}
	if fc == nil {
		fc = failure.GetDefaultFailureConverter()
	}
	return inputDC, resultDC, fc
}

// HasHeartbeatDetails reports whether the description has heartbeat
// details (asked for with IncludeHeartbeatDetails).
func (d *ActivityExecutionDescription) HasHeartbeatDetails() bool {
	return len(d.RawResponse.GetInfo().GetHeartbeatDetails().GetPayloads()) > 0
}

// GetHeartbeatDetails decodes the last heartbeat's details into
// valuePtrs; temporal.ErrNoData when there are none.
func (d *ActivityExecutionDescription) GetHeartbeatDetails(valuePtrs ...any) error {
	details := d.RawResponse.GetInfo().GetHeartbeatDetails()
	if details == nil {
		return failure.ErrNoData
	}
	_, resultDC, _ := d.converters()
	return resultDC.FromPayloads(details, valuePtrs...)
}

// HasInput reports whether the description has the activity's arguments
// (asked for with IncludeInput).
func (d *ActivityExecutionDescription) HasInput() bool {
	return len(d.RawResponse.GetInput().GetPayloads()) > 0
}

// GetInput decodes the activity's arguments into valuePtrs, one each;
// temporal.ErrNoData when the description has none.
func (d *ActivityExecutionDescription) GetInput(valuePtrs ...any) error {
	input := d.RawResponse.GetInput()
	if input == nil {
		return failure.ErrNoData
	}
	inputDC, _, _ := d.converters()
	return inputDC.FromPayloads(input, valuePtrs...)
}

// HasResult reports whether the description has the result of an
// activity that completed (asked for with IncludeOutcome).
func (d *ActivityExecutionDescription) HasResult() bool {
	_, ok := d.RawResponse.GetOutcome().GetValue().(*activitypb.ActivityExecutionOutcome_Result)
	return ok
}

// GetResult decodes the result of an activity that completed into
// valuePtr; temporal.ErrNoData when the description has none (running,
// failed, or the outcome not asked for).
func (d *ActivityExecutionDescription) GetResult(valuePtr any) error {
	outcome, ok := d.RawResponse.GetOutcome().GetValue().(*activitypb.ActivityExecutionOutcome_Result)
	if !ok {
		return failure.ErrNoData
	}
	_, resultDC, _ := d.converters()
	return resultDC.FromPayloads(outcome.Result, valuePtr)
}

// HasOutcomeFailure reports whether the description has the failure the
// activity closed with (asked for with IncludeOutcome).
func (d *ActivityExecutionDescription) HasOutcomeFailure() bool {
	_, ok := d.RawResponse.GetOutcome().GetValue().(*activitypb.ActivityExecutionOutcome_Failure)
	return ok
}

// GetOutcomeFailure is the failure the activity closed with, as an error;
// nil if it did not fail or the outcome was not asked for. GetLastFailure
// is the last attempt's instead.
func (d *ActivityExecutionDescription) GetOutcomeFailure() error {
	outcome, ok := d.RawResponse.GetOutcome().GetValue().(*activitypb.ActivityExecutionOutcome_Failure)
	if !ok {
		return nil
	}
	_, _, fc := d.converters()
	return fc.FailureToError(outcome.Failure)
}

// HasLastFailure reports whether the description has the failure of the
// last failed attempt (asked for with IncludeLastFailure).
func (d *ActivityExecutionDescription) HasLastFailure() bool {
	return d.RawResponse.GetInfo().GetLastFailure() != nil
}

// GetLastFailure is the failure of the last failed attempt, as an error;
// nil if none or not asked for.
func (d *ActivityExecutionDescription) GetLastFailure() error {
	f := d.RawResponse.GetInfo().GetLastFailure()
	if f == nil {
		return nil
	}
	_, _, fc := d.converters()
	return fc.FailureToError(f)
}

// GetSummary decodes the summary given at the start; "" if none.
func (d *ActivityExecutionDescription) GetSummary() (string, error) {
	inputDC, _, _ := d.converters()
	return decodeOptionalString(inputDC, d.RawResponse.GetInfo().GetUserMetadata().GetSummary())
}

// GetStaticDetails decodes the static details given at the start; "" if
// none.
func (d *ActivityExecutionDescription) GetStaticDetails() (string, error) {
	inputDC, _, _ := d.converters()
	return decodeOptionalString(inputDC, d.RawResponse.GetInfo().GetUserMetadata().GetDetails())
}

// ActivityExecutionOptionsFromProto reads the options the server answers
// an options update with.
func ActivityExecutionOptionsFromProto(o *activitypb.ActivityOptions) *ActivityExecutionOptions {
	return &ActivityExecutionOptions{
		TaskQueue:              o.GetTaskQueue().GetName(),
		ScheduleToCloseTimeout: o.GetScheduleToCloseTimeout().AsDuration(),
		ScheduleToStartTimeout: o.GetScheduleToStartTimeout().AsDuration(),
		StartToCloseTimeout:    o.GetStartToCloseTimeout().AsDuration(),
		HeartbeatTimeout:       o.GetHeartbeatTimeout().AsDuration(),
		StartDelay:             o.GetStartDelay().AsDuration(),
		RetryPolicy:            policy.RetryPolicyFromProto(o.GetRetryPolicy()),
		Priority:               policy.PriorityFromProto(o.GetPriority()),
	}
}

// CompleteActivityByActivityIDOptions are the arguments of
// Client.CompleteActivityByActivityIDWithOptions, which completes a
// standalone activity.
type CompleteActivityByActivityIDOptions struct {
	// Namespace and ActivityID identify the activity. Required.
	Namespace  string
	ActivityID string
	// ActivityRunID selects the activity's run; its latest when empty.
	ActivityRunID string
	// Result is the activity's result when Err is nil.
	Result any
	// Err fails the activity, or cancels it when it is a CanceledError or
	// context.Canceled.
	Err error
	// WorkflowID, ActivityType, WorkflowType and TaskQueue only feed the
	// data converter's serialization context.
	WorkflowID   string
	ActivityType string
	WorkflowType string
	TaskQueue    string
	// NexusSerializationContext, when set, is the serialization context
	// of the result and failure instead: that of the Nexus operation whose
	// handler started the activity, with which its caller decodes them.
	NexusSerializationContext *converter.NexusSerializationContext
}
