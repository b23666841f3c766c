package commands

import (
	"fmt"
	"strings"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
)

// answers maps each command type to the event type that records it.
var answers = map[enumspb.CommandType]enumspb.EventType{
	enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK:                     enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
	enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK:               enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
	enumspb.COMMAND_TYPE_START_TIMER:                                enumspb.EVENT_TYPE_TIMER_STARTED,
	enumspb.COMMAND_TYPE_CANCEL_TIMER:                               enumspb.EVENT_TYPE_TIMER_CANCELED,
	enumspb.COMMAND_TYPE_RECORD_MARKER:                              enumspb.EVENT_TYPE_MARKER_RECORDED,
	enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION:                enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
	enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION:                    enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
	enumspb.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION:                  enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
	enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION:         enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
	enumspb.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:          enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
	enumspb.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES:                 enumspb.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED,
	enumspb.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION:             enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
	enumspb.COMMAND_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION:         enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
	enumspb.COMMAND_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION: enumspb.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
}

// mismatch returns why ev cannot be the event of cmd, or "" when it is.
// Like the official Go SDK, it compares identity (kind, ID, type name), not
// every argument, so that changing an activity's input or options does not
// break replay of histories that recorded the old ones.
func mismatch(cmd *commandpb.Command, ev *historypb.HistoryEvent) string {
	want, known := answers[cmd.GetCommandType()]
	if !known || ev.GetEventType() != want {
		return fmt.Sprintf("history has %s, but the workflow code produced %s at that point",
			DescribeEvent(ev), DescribeCommand(cmd))
	}
	differs := func(what, inHistory, inCode string) string {
		return fmt.Sprintf("history has %s, but the workflow code produced %s: the %s differs (%q in history, %q in code)",
			DescribeEvent(ev), DescribeCommand(cmd), what, inHistory, inCode)
	}
	switch cmd.GetCommandType() {
	case enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK:
		c, e := cmd.GetScheduleActivityTaskCommandAttributes(), ev.GetActivityTaskScheduledEventAttributes()
		if c.GetActivityId() != e.GetActivityId() {
			return differs("activity ID", e.GetActivityId(), c.GetActivityId())
		}
		if lastPart(c.GetActivityType().GetName()) != lastPart(e.GetActivityType().GetName()) {
			return differs("activity type", e.GetActivityType().GetName(), c.GetActivityType().GetName())
		}
	case enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK:
		c, e := cmd.GetRequestCancelActivityTaskCommandAttributes(), ev.GetActivityTaskCancelRequestedEventAttributes()
		if c.GetScheduledEventId() != e.GetScheduledEventId() {
			return differs("scheduled event ID", fmt.Sprint(e.GetScheduledEventId()), fmt.Sprint(c.GetScheduledEventId()))
		}
	case enumspb.COMMAND_TYPE_START_TIMER:
		c, e := cmd.GetStartTimerCommandAttributes(), ev.GetTimerStartedEventAttributes()
		if c.GetTimerId() != e.GetTimerId() {
			return differs("timer ID", e.GetTimerId(), c.GetTimerId())
		}
	case enumspb.COMMAND_TYPE_CANCEL_TIMER:
		c, e := cmd.GetCancelTimerCommandAttributes(), ev.GetTimerCanceledEventAttributes()
		if c.GetTimerId() != e.GetTimerId() {
			return differs("timer ID", e.GetTimerId(), c.GetTimerId())
		}
	case enumspb.COMMAND_TYPE_RECORD_MARKER:
		c, e := cmd.GetRecordMarkerCommandAttributes(), ev.GetMarkerRecordedEventAttributes()
		if c.GetMarkerName() != e.GetMarkerName() {
			return differs("marker name", e.GetMarkerName(), c.GetMarkerName())
		}
	case enumspb.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION:
		c, e := cmd.GetStartChildWorkflowExecutionCommandAttributes(), ev.GetStartChildWorkflowExecutionInitiatedEventAttributes()
		if lastPart(c.GetWorkflowType().GetName()) != lastPart(e.GetWorkflowType().GetName()) {
			return differs("child workflow type", e.GetWorkflowType().GetName(), c.GetWorkflowType().GetName())
		}
	case enumspb.COMMAND_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION:
		c, e := cmd.GetSignalExternalWorkflowExecutionCommandAttributes(), ev.GetSignalExternalWorkflowExecutionInitiatedEventAttributes()
		if c.GetSignalName() != e.GetSignalName() {
			return differs("signal name", e.GetSignalName(), c.GetSignalName())
		}
		if c.GetExecution().GetWorkflowId() != e.GetWorkflowExecution().GetWorkflowId() {
			return differs("target workflow ID", e.GetWorkflowExecution().GetWorkflowId(), c.GetExecution().GetWorkflowId())
		}
	case enumspb.COMMAND_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION:
		c, e := cmd.GetRequestCancelExternalWorkflowExecutionCommandAttributes(), ev.GetRequestCancelExternalWorkflowExecutionInitiatedEventAttributes()
		if c.GetWorkflowId() != e.GetWorkflowExecution().GetWorkflowId() {
			return differs("target workflow ID", e.GetWorkflowExecution().GetWorkflowId(), c.GetWorkflowId())
		}
	}
	return ""
}

// lastPart drops a package path from a registered name ("main.Charge" and
// "Charge" name the same function), as names derived from functions do.
func lastPart(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

// DescribeEvent renders an event for people: its ID, type and identity.
func DescribeEvent(ev *historypb.HistoryEvent) string {
	if ev == nil {
		return "the end of history"
	}
	s := fmt.Sprintf("event %d %s", ev.GetEventId(), ev.GetEventType())
	switch ev.GetEventType() {
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
		a := ev.GetActivityTaskScheduledEventAttributes()
		s += fmt.Sprintf(" (activity %q, type %q)", a.GetActivityId(), a.GetActivityType().GetName())
	case enumspb.EVENT_TYPE_TIMER_STARTED:
		a := ev.GetTimerStartedEventAttributes()
		s += fmt.Sprintf(" (timer %q, %v)", a.GetTimerId(), a.GetStartToFireTimeout().AsDuration())
	case enumspb.EVENT_TYPE_TIMER_FIRED:
		s += fmt.Sprintf(" (timer %q)", ev.GetTimerFiredEventAttributes().GetTimerId())
	case enumspb.EVENT_TYPE_TIMER_CANCELED:
		s += fmt.Sprintf(" (timer %q)", ev.GetTimerCanceledEventAttributes().GetTimerId())
	case enumspb.EVENT_TYPE_MARKER_RECORDED:
		s += fmt.Sprintf(" (marker %q)", ev.GetMarkerRecordedEventAttributes().GetMarkerName())
	case enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
		a := ev.GetStartChildWorkflowExecutionInitiatedEventAttributes()
		s += fmt.Sprintf(" (workflow %q, type %q)", a.GetWorkflowId(), a.GetWorkflowType().GetName())
	case enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
		a := ev.GetSignalExternalWorkflowExecutionInitiatedEventAttributes()
		s += fmt.Sprintf(" (signal %q to workflow %q)", a.GetSignalName(), a.GetWorkflowExecution().GetWorkflowId())
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED:
		s += fmt.Sprintf(" (of the activity scheduled at event %d)", scheduledEventID(ev))
	}
	return s
}

func scheduledEventID(ev *historypb.HistoryEvent) int64 {
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_ActivityTaskStartedEventAttributes:
		return a.ActivityTaskStartedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskCompletedEventAttributes:
		return a.ActivityTaskCompletedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskFailedEventAttributes:
		return a.ActivityTaskFailedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskTimedOutEventAttributes:
		return a.ActivityTaskTimedOutEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskCanceledEventAttributes:
		return a.ActivityTaskCanceledEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskCancelRequestedEventAttributes:
		return a.ActivityTaskCancelRequestedEventAttributes.GetScheduledEventId()
	}
	return 0
}

// DescribeCommand renders a command for people: its type and identity.
func DescribeCommand(cmd *commandpb.Command) string {
	if cmd == nil {
		return "no command"
	}
	name := cmd.GetCommandType().String() // the API renders it as "ScheduleActivityTask"
	switch cmd.GetCommandType() {
	case enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK:
		a := cmd.GetScheduleActivityTaskCommandAttributes()
		return fmt.Sprintf("%s (activity %q, type %q)", name, a.GetActivityId(), a.GetActivityType().GetName())
	case enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK:
		return fmt.Sprintf("%s (of the activity scheduled at event %d)", name, cmd.GetRequestCancelActivityTaskCommandAttributes().GetScheduledEventId())
	case enumspb.COMMAND_TYPE_START_TIMER:
		a := cmd.GetStartTimerCommandAttributes()
		return fmt.Sprintf("%s (timer %q, %v)", name, a.GetTimerId(), a.GetStartToFireTimeout().AsDuration())
	case enumspb.COMMAND_TYPE_CANCEL_TIMER:
		return fmt.Sprintf("%s (timer %q)", name, cmd.GetCancelTimerCommandAttributes().GetTimerId())
	case enumspb.COMMAND_TYPE_RECORD_MARKER:
		return fmt.Sprintf("%s (marker %q)", name, cmd.GetRecordMarkerCommandAttributes().GetMarkerName())
	case enumspb.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION:
		a := cmd.GetStartChildWorkflowExecutionCommandAttributes()
		return fmt.Sprintf("%s (workflow %q, type %q)", name, a.GetWorkflowId(), a.GetWorkflowType().GetName())
	case enumspb.COMMAND_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION:
		a := cmd.GetSignalExternalWorkflowExecutionCommandAttributes()
		return fmt.Sprintf("%s (signal %q to workflow %q)", name, a.GetSignalName(), a.GetExecution().GetWorkflowId())
	}
	return name
}
