package client

import "github.com/durable-go/sdk/internal"

// Schedules: Client.ScheduleClient creates and finds schedules, each of
// which starts a workflow at the times its spec describes.
type (
	// ScheduleClient creates, lists and finds schedules.
	ScheduleClient = internal.ScheduleClient

	// ScheduleHandle describes, updates, pauses, unpauses, triggers,
	// backfills and deletes one schedule.
	ScheduleHandle = internal.ScheduleHandle

	// ScheduleListIterator iterates over the entries of
	// ScheduleClient.List.
	ScheduleListIterator = internal.ScheduleListIterator

	// ScheduleListEntry is one schedule as ScheduleClient.List reports it.
	ScheduleListEntry = internal.ScheduleListEntry

	// ScheduleListOptions are the arguments of ScheduleClient.List.
	ScheduleListOptions = internal.ScheduleListOptions

	// ScheduleOptions configure a new schedule.
	ScheduleOptions = internal.ScheduleOptions

	// ScheduleAction is what a schedule does: a *ScheduleWorkflowAction.
	ScheduleAction = internal.ScheduleAction

	// ScheduleWorkflowAction starts a workflow each time the schedule acts.
	ScheduleWorkflowAction = internal.ScheduleWorkflowAction

	// ScheduleSpec says when a schedule acts.
	ScheduleSpec = internal.ScheduleSpec

	// ScheduleCalendarSpec matches times field by field.
	ScheduleCalendarSpec = internal.ScheduleCalendarSpec

	// ScheduleIntervalSpec matches times at a fixed period.
	ScheduleIntervalSpec = internal.ScheduleIntervalSpec

	// ScheduleRange is a range of values in a ScheduleCalendarSpec.
	ScheduleRange = internal.ScheduleRange

	// ScheduleBackfill is a time range to backfill.
	ScheduleBackfill = internal.ScheduleBackfill

	// ScheduleBackfillOptions are the arguments of ScheduleHandle.Backfill.
	ScheduleBackfillOptions = internal.ScheduleBackfillOptions

	// Schedule is a schedule's definition: action, spec, policies, state.
	Schedule = internal.Schedule

	// SchedulePolicies say how a schedule handles overlaps, lateness and
	// failures.
	SchedulePolicies = internal.SchedulePolicies

	// ScheduleState is a schedule's pause state and action limit.
	ScheduleState = internal.ScheduleState

	// ScheduleDescription is the answer of ScheduleHandle.Describe.
	ScheduleDescription = internal.ScheduleDescription

	// ScheduleInfo is what a schedule has done and will do.
	ScheduleInfo = internal.ScheduleInfo

	// ScheduleActionResult is one action a schedule took.
	ScheduleActionResult = internal.ScheduleActionResult

	// ScheduleWorkflowExecution names a workflow a schedule started.
	ScheduleWorkflowExecution = internal.ScheduleWorkflowExecution

	// ScheduleUpdateOptions are the arguments of ScheduleHandle.Update.
	ScheduleUpdateOptions = internal.ScheduleUpdateOptions

	// ScheduleUpdateInput is what a DoUpdate function receives.
	ScheduleUpdateInput = internal.ScheduleUpdateInput

	// ScheduleUpdate is what a DoUpdate function returns.
	ScheduleUpdate = internal.ScheduleUpdate

	// ScheduleTriggerOptions are the arguments of ScheduleHandle.Trigger.
	ScheduleTriggerOptions = internal.ScheduleTriggerOptions

	// SchedulePauseOptions are the arguments of ScheduleHandle.Pause.
	SchedulePauseOptions = internal.SchedulePauseOptions

	// ScheduleUnpauseOptions are the arguments of ScheduleHandle.Unpause.
	ScheduleUnpauseOptions = internal.ScheduleUnpauseOptions
)
