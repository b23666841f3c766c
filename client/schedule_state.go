package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// Schedule is a schedule's definition, as ScheduleHandle.Describe returns
// it and ScheduleUpdate replaces it: its Action, its Spec, its Policy
// (overlaps, lateness, failures) and its State (paused, action limit).
type Schedule = clientapi.Schedule

// SchedulePolicies say how a schedule handles overlaps, lateness and
// failures: Overlap, CatchupWindow and PauseOnFailure, as in
// ScheduleOptions.
type SchedulePolicies = clientapi.SchedulePolicies

// ScheduleState is a schedule's pause state and action limit.
//
//   - Note: free text, often why the schedule was paused.
//   - Paused: whether the schedule is paused.
//   - LimitedActions: whether RemainingActions applies.
//   - RemainingActions: how many actions are left, when LimitedActions.
type ScheduleState = clientapi.ScheduleState

// ScheduleDescription is the answer of ScheduleHandle.Describe.
//
//   - Schedule: the schedule's definition.
//   - Info: what the schedule has done and will do.
//   - Memo: the schedule's memo, as stored.
//   - SearchAttributes: the schedule's search attributes, as stored.
//   - TypedSearchAttributes: those of them that carry their type.
type ScheduleDescription = clientapi.ScheduleDescription

// ScheduleInfo is what a schedule has done and will do.
//
//   - NumActions: the actions taken, triggers and backfills included.
//   - NumActionsMissedCatchupWindow: actions dropped for being later than
//     the catch-up window.
//   - NumActionsSkippedOverlap: actions dropped by the overlap policy.
//   - RunningWorkflows: the workflows it started that still run.
//   - RecentActions: the latest actions, oldest first.
//   - NextActionTimes: the next times the spec matches.
//   - CreatedAt: when the schedule was created.
//   - LastUpdateAt: when it was last updated; zero if never.
type ScheduleInfo = clientapi.ScheduleInfo

// ScheduleActionResult is one action a schedule took.
//
//   - ScheduleTime: when the spec said to act (jitter excluded).
//   - ActualTime: when the action was taken.
//   - StartWorkflowResult: the workflow it started.
type ScheduleActionResult = clientapi.ScheduleActionResult

// ScheduleWorkflowExecution names a workflow a schedule started: its
// WorkflowID, and FirstExecutionRunID, the run ID it started with.
type ScheduleWorkflowExecution = clientapi.ScheduleWorkflowExecution

// ScheduleUpdateOptions are the arguments of ScheduleHandle.Update.
//
//   - DoUpdate: given the schedule as it is (ScheduleUpdateInput), returns
//     the new one (*ScheduleUpdate); returning
//     temporal.ErrSkipScheduleUpdate leaves it unchanged. Required.
//
// For example, to pause on failure from now on:
//
//	err := handle.Update(ctx, client.ScheduleUpdateOptions{
//		DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
//			schedule := in.Description.Schedule
//			schedule.Policy.PauseOnFailure = true
//			return &client.ScheduleUpdate{Schedule: &schedule}, nil
//		},
//	})
type ScheduleUpdateOptions = clientapi.ScheduleUpdateOptions

// ScheduleUpdateInput is what a DoUpdate function receives: Description,
// the schedule as it is now.
type ScheduleUpdateInput = clientapi.ScheduleUpdateInput

// ScheduleUpdate is what a DoUpdate function returns.
//
//   - Schedule: replaces the schedule's definition whole.
//   - TypedSearchAttributes: when not nil, replace the schedule's search
//     attributes.
type ScheduleUpdate = clientapi.ScheduleUpdate

// ScheduleListOptions are the arguments of ScheduleClient.List.
//
//   - PageSize: entries fetched per request. Default: the server's.
//   - Query: a visibility query over the schedules' search attributes
//     ("TemporalSchedulePaused = true"). Default: all schedules.
type ScheduleListOptions = clientapi.ScheduleListOptions

// ScheduleListIterator iterates over the entries of ScheduleClient.List:
// HasNext reports whether Next has an entry or an error to return, and
// Next returns it (call it only after HasNext returned true).
type ScheduleListIterator = clientapi.ScheduleListIterator

// ScheduleListEntry is one schedule as ScheduleClient.List reports it:
// its ID and Spec; its Note and Paused state; the WorkflowType its action
// starts; its RecentActions and NextActionTimes; and its Memo and
// SearchAttributes, as stored. Describe the schedule for more.
type ScheduleListEntry = clientapi.ScheduleListEntry
