package clientapi

import (
	"context"
	"errors"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/searchattr"
)

// The schedule API: a schedule is a server-side object that takes an
// action (start a workflow) at the times its spec describes. The types
// here are what callers fill in and read back; internal/clientimpl sends
// the requests (schedule.go) and converts to and from the protos of
// go.temporal.io/api/schedule/v1 (schedule_wire.go).

var (
	// ErrScheduleAlreadyRunning is returned by ScheduleClient.Create when
	// a schedule with the same ID exists.
	ErrScheduleAlreadyRunning = errors.New("schedule with this ID is already registered")

	// ErrSkipScheduleUpdate, returned by a ScheduleUpdateOptions.DoUpdate
	// function, makes ScheduleHandle.Update return nil without changing
	// the schedule.
	ErrSkipScheduleUpdate = errors.New("skip schedule update")
)

// ScheduleClient creates, lists and finds schedules.
type ScheduleClient interface {
	// Create creates a schedule, or returns ErrScheduleAlreadyRunning if
	// one with options.ID exists.
	Create(ctx context.Context, options ScheduleOptions) (ScheduleHandle, error)
	// List iterates over the namespace's schedules, filtered by
	// options.Query. The list comes from visibility, which can lag
	// behind recent changes.
	List(ctx context.Context, options ScheduleListOptions) (ScheduleListIterator, error)
	// GetHandle returns a handle on the schedule with this ID. Nothing is
	// checked until the handle is used.
	GetHandle(ctx context.Context, scheduleID string) ScheduleHandle
}

// ScheduleHandle acts on one schedule.
type ScheduleHandle interface {
	// GetID returns the schedule's ID.
	GetID() string
	// Delete deletes the schedule. Workflows it started keep running.
	Delete(ctx context.Context) error
	// Backfill takes the actions the spec would have taken in each of
	// the given time ranges, as if the schedule had run then.
	Backfill(ctx context.Context, options ScheduleBackfillOptions) error
	// Update reads the schedule, passes it to options.DoUpdate, and
	// writes back what DoUpdate returns.
	Update(ctx context.Context, options ScheduleUpdateOptions) error
	// Describe returns the schedule and what it has done.
	Describe(ctx context.Context) (*ScheduleDescription, error)
	// Trigger takes the schedule's action now, once.
	Trigger(ctx context.Context, options ScheduleTriggerOptions) error
	// Pause stops the schedule from taking actions until Unpause.
	Pause(ctx context.Context, options SchedulePauseOptions) error
	// Unpause lets a paused schedule take actions again.
	Unpause(ctx context.Context, options ScheduleUnpauseOptions) error
}

// ScheduleListIterator iterates over the entries of ScheduleClient.List,
// fetching pages as needed.
type ScheduleListIterator interface {
	// HasNext reports whether Next has an entry, or an error, to return.
	HasNext() bool
	// Next returns the next entry. Call it only after HasNext returned
	// true.
	Next() (*ScheduleListEntry, error)
}

// ScheduleAction is what a schedule does each time: today only
// *ScheduleWorkflowAction.
type ScheduleAction interface {
	isScheduleAction()
}

type (
	// ScheduleRange is the set of values Start, Start+Step, ... up to End
	// inclusive. End below Start means Start alone; Step 0 means 1.
	ScheduleRange struct {
		Start int
		End   int
		Step  int
	}

	// ScheduleCalendarSpec matches the times whose every field is in one
	// of the ranges given for it. A nil field takes its default: second,
	// minute and hour 0, any day of month, month and day of week; any
	// year.
	ScheduleCalendarSpec struct {
		// Second ranges over 0-59.
		Second []ScheduleRange
		// Minute ranges over 0-59.
		Minute []ScheduleRange
		// Hour ranges over 0-23.
		Hour []ScheduleRange
		// DayOfMonth ranges over 1-31.
		DayOfMonth []ScheduleRange
		// Month ranges over 1-12.
		Month []ScheduleRange
		// Year is any year when empty.
		Year []ScheduleRange
		// DayOfWeek ranges over 0-6, Sunday first.
		DayOfWeek []ScheduleRange
		// Comment is free text kept with the spec.
		Comment string
	}

	// ScheduleIntervalSpec matches the times that are Offset past a
	// multiple of Every since the Unix epoch.
	ScheduleIntervalSpec struct {
		// Every is the period; it must be positive.
		Every time.Duration
		// Offset shifts the times; it must be less than Every.
		Offset time.Duration
	}

	// ScheduleSpec says when a schedule acts: at the union of the times
	// its calendars, intervals and cron expressions match, less the times
	// Skip matches, between StartAt and EndAt.
	ScheduleSpec struct {
		// Calendars are calendar-based matches.
		Calendars []ScheduleCalendarSpec
		// Intervals are fixed-period matches.
		Intervals []ScheduleIntervalSpec
		// CronExpressions are cron strings ("0 12 * * MON-FRI", with an
		// optional seconds field and "@every"/"@daily" forms) that the
		// server turns into calendars and intervals; a description shows
		// them in that converted form.
		CronExpressions []string
		// Skip are calendar matches to leave out.
		Skip []ScheduleCalendarSpec
		// StartAt, if set, is the earliest time an action may be taken.
		StartAt time.Time
		// EndAt, if set, is the latest time an action may be taken.
		EndAt time.Time
		// Jitter delays each action by a random amount up to this, to
		// spread load.
		Jitter time.Duration
		// TimeZoneName is the IANA time zone ("America/New_York") that
		// calendars are read in; UTC when empty. Interval specs ignore it.
		TimeZoneName string
	}

	// ScheduleBackfill is one time range to backfill.
	ScheduleBackfill struct {
		// Start and End bound the range, inclusive.
		Start time.Time
		End   time.Time
		// Overlap overrides the schedule's overlap policy for these
		// actions.
		Overlap enumspb.ScheduleOverlapPolicy
	}

	// ScheduleWorkflowAction starts a workflow each time the schedule
	// acts. Its fields mean what they mean in StartWorkflowOptions.
	ScheduleWorkflowAction struct {
		// ID is the workflow ID prefix; the server appends the scheduled
		// time to make each run's ID. A random UUID when empty.
		ID string
		// Workflow is a workflow function or a workflow type name. A
		// description gives the type name.
		Workflow any
		// Args are the workflow's arguments, encoded with the client's
		// data converter. A description gives them as *commonpb.Payload,
		// which Update sends back unchanged.
		Args []any
		// TaskQueue is the task queue the workflows run on. Required.
		TaskQueue string
		// WorkflowExecutionTimeout, WorkflowRunTimeout and
		// WorkflowTaskTimeout are the workflows' timeouts.
		WorkflowExecutionTimeout time.Duration
		WorkflowRunTimeout       time.Duration
		WorkflowTaskTimeout      time.Duration
		// RetryPolicy makes the server retry failed workflows.
		RetryPolicy *policy.RetryPolicy
		// Memo is the workflows' memo, encoded with the client's data
		// converter. A description gives its values as *commonpb.Payload.
		Memo map[string]any
		// TypedSearchAttributes are the workflows' search attributes.
		TypedSearchAttributes searchattr.SearchAttributes
		// UntypedSearchAttributes are attributes given as payloads, which
		// a description fills with the attributes it cannot type. Those in
		// TypedSearchAttributes win.
		UntypedSearchAttributes map[string]*commonpb.Payload
		// StaticSummary and StaticDetails are shown in the UI for each
		// workflow.
		StaticSummary string
		StaticDetails string
		// Priority orders the workflows' tasks.
		Priority policy.Priority
		// VersioningOverride, when set, decides which worker deployment
		// version runs the workflows, whatever their code declares.
		VersioningOverride VersioningOverride
	}

	// ScheduleOptions configure a new schedule.
	ScheduleOptions struct {
		// ID names the schedule in its namespace. Required.
		ID string
		// Spec says when the schedule acts.
		Spec ScheduleSpec
		// Action is what it does. Required.
		Action ScheduleAction
		// Overlap says what to do when an action is due while the
		// workflow of an earlier one is still running: skip it (the
		// default), buffer one or all, cancel or terminate the running
		// one, or allow all.
		Overlap enumspb.ScheduleOverlapPolicy
		// CatchupWindow is how late an action may still be taken after
		// the server was unavailable; the server's default (a year) when
		// zero.
		CatchupWindow time.Duration
		// PauseOnFailure pauses the schedule when a workflow it started
		// fails or times out.
		PauseOnFailure bool
		// Note is free text about the schedule's state.
		Note string
		// Paused creates the schedule paused.
		Paused bool
		// RemainingActions, if positive, limits the schedule to that many
		// actions; once none remain, the spec takes no more, though
		// Trigger and Backfill still act.
		RemainingActions int
		// TriggerImmediately takes the action once as soon as the
		// schedule is created.
		TriggerImmediately bool
		// ScheduleBackfill are time ranges to backfill on creation.
		ScheduleBackfill []ScheduleBackfill
		// Memo is the schedule's own memo (not its workflows').
		Memo map[string]any
		// SearchAttributes are the schedule's search attributes, untyped.
		//
		// Deprecated: use TypedSearchAttributes.
		SearchAttributes map[string]any
		// TypedSearchAttributes are the schedule's search attributes, to
		// list schedules by.
		TypedSearchAttributes searchattr.SearchAttributes
	}

	// SchedulePolicies say how a schedule handles overlaps, lateness and
	// failures.
	SchedulePolicies struct {
		// Overlap is the overlap policy; see ScheduleOptions.Overlap.
		Overlap enumspb.ScheduleOverlapPolicy
		// CatchupWindow; see ScheduleOptions.CatchupWindow.
		CatchupWindow time.Duration
		// PauseOnFailure; see ScheduleOptions.PauseOnFailure.
		PauseOnFailure bool
	}

	// ScheduleState is a schedule's pause state and action limit.
	ScheduleState struct {
		// Note is free text, often why the schedule was paused.
		Note string
		// Paused says whether the schedule is paused.
		Paused bool
		// LimitedActions says whether RemainingActions applies.
		LimitedActions bool
		// RemainingActions is how many actions are left when
		// LimitedActions; zero means none.
		RemainingActions int
	}

	// Schedule is a schedule's definition: what, when, how and its state.
	Schedule struct {
		Action ScheduleAction
		Spec   *ScheduleSpec
		Policy *SchedulePolicies
		State  *ScheduleState
	}

	// ScheduleWorkflowExecution names a workflow a schedule started.
	ScheduleWorkflowExecution struct {
		WorkflowID string
		// FirstExecutionRunID is the run ID the workflow started with.
		FirstExecutionRunID string
	}

	// ScheduleActionResult is one action a schedule took.
	ScheduleActionResult struct {
		// ScheduleTime is when the spec said to act (jitter excluded).
		ScheduleTime time.Time
		// ActualTime is when the action was taken.
		ActualTime time.Time
		// StartWorkflowResult is the workflow started, for workflow
		// actions.
		StartWorkflowResult *ScheduleWorkflowExecution
	}

	// ScheduleInfo is what a schedule has done and will do.
	ScheduleInfo struct {
		// NumActions counts the actions taken, triggers and backfills
		// included.
		NumActions int
		// NumActionsMissedCatchupWindow counts actions dropped for being
		// later than the catch-up window.
		NumActionsMissedCatchupWindow int
		// NumActionsSkippedOverlap counts actions dropped by the overlap
		// policy.
		NumActionsSkippedOverlap int
		// RunningWorkflows are the workflows started by the schedule that
		// are still running.
		RunningWorkflows []ScheduleWorkflowExecution
		// RecentActions are the latest actions, oldest first.
		RecentActions []ScheduleActionResult
		// NextActionTimes are the next times the spec matches.
		NextActionTimes []time.Time
		// CreatedAt is when the schedule was created.
		CreatedAt time.Time
		// LastUpdateAt is when it was last updated; zero if never.
		LastUpdateAt time.Time
	}

	// ScheduleDescription is the answer of ScheduleHandle.Describe.
	ScheduleDescription struct {
		Schedule Schedule
		Info     ScheduleInfo
		// Memo is the schedule's memo, as stored.
		Memo *commonpb.Memo
		// SearchAttributes are the schedule's search attributes, as
		// stored.
		SearchAttributes *commonpb.SearchAttributes
		// TypedSearchAttributes are those of them that carry their type.
		TypedSearchAttributes searchattr.SearchAttributes
	}

	// ScheduleUpdateInput is what a DoUpdate function receives.
	ScheduleUpdateInput struct {
		// Description is the schedule as it is now.
		Description ScheduleDescription
	}

	// ScheduleUpdate is what a DoUpdate function returns: the schedule
	// to write.
	ScheduleUpdate struct {
		// Schedule replaces the schedule's definition whole.
		Schedule *Schedule
		// TypedSearchAttributes, if not nil, replace the schedule's search
		// attributes.
		TypedSearchAttributes *searchattr.SearchAttributes
	}

	// ScheduleUpdateOptions are the arguments of ScheduleHandle.Update.
	ScheduleUpdateOptions struct {
		// DoUpdate turns the current schedule into the new one. Returning
		// ErrSkipScheduleUpdate leaves the schedule as it is. Required.
		DoUpdate func(ScheduleUpdateInput) (*ScheduleUpdate, error)
	}

	// ScheduleTriggerOptions are the arguments of ScheduleHandle.Trigger.
	ScheduleTriggerOptions struct {
		// Overlap overrides the schedule's overlap policy for this action.
		Overlap enumspb.ScheduleOverlapPolicy
	}

	// SchedulePauseOptions are the arguments of ScheduleHandle.Pause.
	SchedulePauseOptions struct {
		// Note says why; "Paused via Go SDK" when empty.
		Note string
	}

	// ScheduleUnpauseOptions are the arguments of ScheduleHandle.Unpause.
	ScheduleUnpauseOptions struct {
		// Note says why; "Unpaused via Go SDK" when empty.
		Note string
	}

	// ScheduleBackfillOptions are the arguments of ScheduleHandle.Backfill.
	ScheduleBackfillOptions struct {
		// Backfill are the time ranges to backfill.
		Backfill []ScheduleBackfill
	}

	// ScheduleListOptions are the arguments of ScheduleClient.List.
	ScheduleListOptions struct {
		// PageSize is how many entries to fetch per request; the server's
		// default when zero.
		PageSize int
		// Query filters schedules with a visibility query over their
		// search attributes (for example `TemporalSchedulePaused = true`).
		Query string
	}

	// ScheduleListEntry is one schedule as List reports it: a summary
	// from visibility.
	ScheduleListEntry struct {
		ID   string
		Spec *ScheduleSpec
		// Note and Paused are the schedule's state.
		Note   string
		Paused bool
		// WorkflowType is the type of workflow its action starts.
		WorkflowType     WorkflowType
		RecentActions    []ScheduleActionResult
		NextActionTimes  []time.Time
		Memo             *commonpb.Memo
		SearchAttributes *commonpb.SearchAttributes
	}
)

func (*ScheduleWorkflowAction) isScheduleAction() {}

// ScheduleClientCreateInput is the input of
// ClientOutboundInterceptor.CreateSchedule.
type ScheduleClientCreateInput struct {
	// Options are the schedule's options; ID is set.
	Options *ScheduleOptions
}
