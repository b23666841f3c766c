package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// ScheduleClient creates and finds the schedules of the client's
// namespace (Client.ScheduleClient). A schedule starts a workflow at the
// times its spec describes; it replaces cron workflows.
//
//   - Create(ctx, options) creates a schedule and returns its handle, or
//     temporal.ErrScheduleAlreadyRunning when one with options.ID exists.
//   - List(ctx, options) iterates over the namespace's schedules,
//     filtered by options.Query; the list comes from visibility, which can
//     lag behind recent changes.
//   - GetHandle(ctx, scheduleID) returns a handle on a schedule, checked
//     only when used.
//
// For example, a report every weekday at 9:00 New York time:
//
//	handle, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
//		ID: "daily-report",
//		Spec: client.ScheduleSpec{
//			CronExpressions: []string{"0 9 * * MON-FRI"},
//			TimeZoneName:    "America/New_York",
//		},
//		Action: &client.ScheduleWorkflowAction{
//			Workflow:  ReportWorkflow,
//			TaskQueue: "reports",
//		},
//	})
type ScheduleClient = clientapi.ScheduleClient

// ScheduleHandle acts on one schedule.
//
//   - GetID returns the schedule's ID.
//   - Describe(ctx) returns its definition and what it has done.
//   - Update(ctx, options) reads the schedule, passes it to
//     options.DoUpdate, and writes back what DoUpdate returns.
//   - Trigger(ctx, options) takes the schedule's action now, once.
//   - Backfill(ctx, options) takes the actions the spec would have taken in
//     the given time ranges, as if the schedule had run then.
//   - Pause(ctx, options) stops the schedule from acting until Unpause;
//     Unpause(ctx, options) lets it act again.
//   - Delete(ctx) deletes the schedule; the workflows it started run on.
type ScheduleHandle = clientapi.ScheduleHandle

// ScheduleOptions configure a new schedule (ScheduleClient.Create). ID and
// Action are required.
//
//   - ID: the schedule's name in its namespace. Required.
//   - Spec: when the schedule acts (see ScheduleSpec).
//   - Action: what it does each time: a *ScheduleWorkflowAction. Required.
//   - Overlap: what to do when an action is due while the workflow of an
//     earlier one still runs: skip it (the default), buffer one or all,
//     cancel or terminate the running one, or allow all.
//   - CatchupWindow: how late an action may still be taken after the
//     server was unavailable. Default: the server's (a year).
//   - PauseOnFailure: pause the schedule when a workflow it started fails
//     or times out.
//   - Note: free text about the schedule's state.
//   - Paused: create the schedule paused.
//   - RemainingActions: when positive, the schedule takes that many
//     actions from its spec, then no more (Trigger and Backfill still
//     act).
//   - TriggerImmediately: take the action once as soon as the schedule is
//     created.
//   - ScheduleBackfill: time ranges to backfill on creation.
//   - Memo: the schedule's own memo (not its workflows').
//   - SearchAttributes: untyped search attributes of the schedule.
//     Deprecated: use TypedSearchAttributes.
//   - TypedSearchAttributes: the schedule's search attributes, to list
//     schedules by.
type ScheduleOptions = clientapi.ScheduleOptions

// ScheduleAction is what a schedule does each time: a
// *ScheduleWorkflowAction.
type ScheduleAction = clientapi.ScheduleAction

// ScheduleWorkflowAction starts a workflow each time the schedule acts.
// TaskQueue is required.
//
//   - ID: the workflow ID's prefix; the server appends the scheduled time
//     to make each run's ID. Default: a random UUID.
//   - Workflow: the workflow function or type name. A description gives
//     the type name.
//   - Args: the workflow's arguments, encoded with the client's data
//     converter; a description gives them as payloads, which Update sends
//     back unchanged.
//   - TaskQueue: the task queue the workflows run on. Required.
//   - WorkflowExecutionTimeout, WorkflowRunTimeout, WorkflowTaskTimeout:
//     the workflows' timeouts, as in StartWorkflowOptions.
//   - RetryPolicy: retry failed workflows.
//   - Memo: the workflows' memo; a description gives its values as
//     payloads.
//   - TypedSearchAttributes: the workflows' search attributes.
//   - UntypedSearchAttributes: attributes given as payloads, which a
//     description fills with those it cannot type; TypedSearchAttributes
//     win.
//   - StaticSummary, StaticDetails: the summary and details the UI shows
//     for each workflow.
//   - Priority: the workflows' priority.
//   - VersioningOverride: which worker deployment version runs the
//     workflows, whatever their code declares.
type ScheduleWorkflowAction = clientapi.ScheduleWorkflowAction

// ScheduleSpec says when a schedule acts: at the union of the times its
// calendars, intervals and cron expressions match, less those Skip
// matches, between StartAt and EndAt.
//
//   - Calendars: calendar-based matches (ScheduleCalendarSpec).
//   - Intervals: fixed-period matches (ScheduleIntervalSpec).
//   - CronExpressions: cron strings ("0 12 * * MON-FRI", with an optional
//     seconds field, and "@every 1h", "@daily" forms), which the server
//     turns into calendars and intervals; a description shows them so.
//   - Skip: calendar matches to leave out.
//   - StartAt, EndAt: when set, the earliest and latest times an action
//     may be taken.
//   - Jitter: delay each action by a random amount up to this, to spread
//     load.
//   - TimeZoneName: the IANA time zone ("America/New_York") calendars are
//     read in. Default: UTC. Intervals ignore it.
type ScheduleSpec = clientapi.ScheduleSpec

// ScheduleCalendarSpec matches times field by field; each field is a list
// of ScheduleRange, and a nil list matches the field's default.
//
//   - Second: 0-59. Default: 0.
//   - Minute: 0-59. Default: 0.
//   - Hour: 0-23. Default: 0.
//   - DayOfMonth: 1-31. Default: every day.
//   - Month: 1-12. Default: every month.
//   - Year: any year when empty.
//   - DayOfWeek: 0-6, Sunday first. Default: every day.
//   - Comment: free text kept with the spec.
type ScheduleCalendarSpec = clientapi.ScheduleCalendarSpec

// ScheduleIntervalSpec matches times at a fixed period, counted from the
// Unix epoch: Every is the period (positive), and Offset shifts the times
// (less than Every). Every: time.Hour with Offset: 15 * time.Minute acts
// at quarter past each hour.
type ScheduleIntervalSpec = clientapi.ScheduleIntervalSpec

// ScheduleRange is a range of values of a ScheduleCalendarSpec field:
// Start to End inclusive (End below Start: Start alone), every Step
// values (Step zero: 1).
type ScheduleRange = clientapi.ScheduleRange

// ScheduleBackfill is a time range to backfill: Start and End bound it,
// inclusive; Overlap overrides the schedule's overlap policy for these
// actions.
type ScheduleBackfill = clientapi.ScheduleBackfill

// ScheduleBackfillOptions are the arguments of ScheduleHandle.Backfill:
// Backfill lists the time ranges to backfill.
type ScheduleBackfillOptions = clientapi.ScheduleBackfillOptions

// ScheduleTriggerOptions are the arguments of ScheduleHandle.Trigger:
// Overlap overrides the schedule's overlap policy for this action.
type ScheduleTriggerOptions = clientapi.ScheduleTriggerOptions

// SchedulePauseOptions are the arguments of ScheduleHandle.Pause: Note
// says why (default: "Paused via Go SDK").
type SchedulePauseOptions = clientapi.SchedulePauseOptions

// ScheduleUnpauseOptions are the arguments of ScheduleHandle.Unpause: Note
// says why (default: "Unpaused via Go SDK").
type ScheduleUnpauseOptions = clientapi.ScheduleUnpauseOptions
