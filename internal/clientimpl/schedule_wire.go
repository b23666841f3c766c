package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	schedulepb "go.temporal.io/api/schedule/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/memo"
	"github.com/durable-go/sdk/internal/optcheck"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/internal/uuid"
	"github.com/durable-go/sdk/log"
)

// Conversions between the schedule types (internal/clientapi/schedule.go)
// and the protos of go.temporal.io/api/schedule/v1. Encoding needs the
// client (its converter, namespace and propagators); decoding does not,
// and leaves payloads encoded so that a description can be written back
// by Update without decoding and re-encoding what the caller did not
// touch.

// scheduleToProto converts a schedule definition for CreateSchedule or
// UpdateSchedule.
func (c *workflowClient) scheduleToProto(ctx context.Context, s *clientapi.Schedule) (*schedulepb.Schedule, error) {
	if s == nil {
		return nil, errors.New("the schedule is nil")
	}
	if s.Action == nil {
		return nil, errors.New("the schedule has no action: set Action to a *ScheduleWorkflowAction")
	}
	action, err := c.scheduleActionToProto(ctx, s.Action)
	if err != nil {
		return nil, err
	}
	var policies clientapi.SchedulePolicies
	if s.Policy != nil {
		policies = *s.Policy
	}
	var state clientapi.ScheduleState
	if s.State != nil {
		state = *s.State
	}
	return &schedulepb.Schedule{
		Spec:     scheduleSpecToProto(s.Spec),
		Action:   action,
		Policies: schedulePoliciesToProto(policies),
		State: &schedulepb.ScheduleState{
			Notes:            state.Note,
			Paused:           state.Paused,
			LimitedActions:   state.LimitedActions,
			RemainingActions: int64(state.RemainingActions),
		},
	}, nil
}

func schedulePoliciesToProto(p clientapi.SchedulePolicies) *schedulepb.SchedulePolicies {
	return &schedulepb.SchedulePolicies{
		OverlapPolicy: p.Overlap,
		// Zero is sent as unset so that the server applies its default.
		CatchupWindow:  clientOptionalDuration(p.CatchupWindow),
		PauseOnFailure: p.PauseOnFailure,
	}
}

// scheduleActionToProto encodes an action: the workflow's arguments and
// memo with the client's data converter (values that already are
// payloads pass as they are), its header from the context propagators.
func (c *workflowClient) scheduleActionToProto(ctx context.Context, action clientapi.ScheduleAction) (*schedulepb.ScheduleAction, error) {
	a, ok := action.(*clientapi.ScheduleWorkflowAction)
	if !ok || a == nil {
		return nil, fmt.Errorf("unsupported schedule action %T: use *ScheduleWorkflowAction", action)
	}
	if a.TaskQueue == "" {
		return nil, errors.New("the schedule's workflow action has no TaskQueue: set it to the task queue your worker polls")
	}
	if err := optcheck.Negative("the schedule's workflow action (client.ScheduleWorkflowAction)",
		optcheck.Duration("WorkflowExecutionTimeout", a.WorkflowExecutionTimeout), optcheck.Duration("WorkflowRunTimeout", a.WorkflowRunTimeout),
		optcheck.Duration("WorkflowTaskTimeout", a.WorkflowTaskTimeout)); err != nil {
		return nil, err
	}
	if err := policy.CheckRetryPolicy(a.RetryPolicy); err != nil {
		return nil, fmt.Errorf("the schedule's workflow action (client.ScheduleWorkflowAction): %w", err)
	}
	workflowType, err := WorkflowTypeName(a.Workflow)
	if err != nil {
		return nil, fmt.Errorf("the schedule's workflow action: %w", err)
	}
	if !anyEncoded(a.Args) {
		if err := registry.CheckArgs(a.Workflow, a.Args, "workflow"); err != nil {
			return nil, fmt.Errorf("the schedule's workflow action: %w", err)
		}
	}
	id := a.ID
	if id == "" {
		id = uuid.New()
	}
	dc := c.workflowDataConverter(ctx, id)
	input, err := encodeScheduleArgs(dc, a.Args)
	if err != nil {
		return nil, fmt.Errorf("workflow %q: %w", workflowType, err)
	}
	memo, err := encodeScheduleMemo(dc, a.Memo)
	if err != nil {
		return nil, err
	}
	searchAttributes, err := searchattr.EncodeForStart(nil, a.TypedSearchAttributes)
	if err != nil {
		return nil, err
	}
	for name, payload := range a.UntypedSearchAttributes {
		if searchAttributes == nil {
			searchAttributes = &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{}}
		}
		if _, typed := searchAttributes.IndexedFields[name]; !typed {
			searchAttributes.IndexedFields[name] = payload
		}
	}
	header, err := c.outgoingHeader(ctx, id)
	if err != nil {
		return nil, err
	}
	userMetadata, err := encodeStartUserMetadata(dc, a.StaticSummary, a.StaticDetails)
	if err != nil {
		return nil, err
	}
	return &schedulepb.ScheduleAction{Action: &schedulepb.ScheduleAction_StartWorkflow{
		StartWorkflow: &workflowpb.NewWorkflowExecutionInfo{
			WorkflowId:               id,
			WorkflowType:             &commonpb.WorkflowType{Name: workflowType},
			TaskQueue:                &taskqueuepb.TaskQueue{Name: a.TaskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
			Input:                    input,
			WorkflowExecutionTimeout: clientOptionalDuration(a.WorkflowExecutionTimeout),
			WorkflowRunTimeout:       clientOptionalDuration(a.WorkflowRunTimeout),
			WorkflowTaskTimeout:      clientOptionalDuration(a.WorkflowTaskTimeout),
			RetryPolicy:              policy.RetryPolicyToProto(a.RetryPolicy),
			Memo:                     memo,
			SearchAttributes:         searchAttributes,
			Header:                   header,
			UserMetadata:             userMetadata,
			Priority:                 policy.PriorityToProto(a.Priority),
			VersioningOverride:       clientapi.VersioningOverrideToProto(a.VersioningOverride),
		},
	}}, nil
}

// anyEncoded reports arguments already encoded (read back from a
// description), which the argument check of a workflow function cannot
// judge.
func anyEncoded(args []any) bool {
	for _, arg := range args {
		if _, ok := arg.(*commonpb.Payload); ok {
			return true
		}
	}
	return false
}

func encodeScheduleArgs(dc converter.DataConverter, args []any) (*commonpb.Payloads, error) {
	if len(args) == 0 {
		return nil, nil
	}
	payloads := make([]*commonpb.Payload, len(args))
	for i, arg := range args {
		if payload, ok := arg.(*commonpb.Payload); ok {
			payloads[i] = payload
			continue
		}
		payload, err := dc.ToPayload(arg)
		if err != nil {
			return nil, fmt.Errorf("argument %d (%T) cannot be encoded: %w", i+1, arg, err)
		}
		payloads[i] = payload
	}
	return &commonpb.Payloads{Payloads: payloads}, nil
}

func encodeScheduleMemo(dc converter.DataConverter, values map[string]any) (*commonpb.Memo, error) {
	if values == nil {
		return nil, nil
	}
	encoded, plain := map[string]*commonpb.Payload{}, map[string]any{}
	for key, value := range values {
		if payload, ok := value.(*commonpb.Payload); ok {
			encoded[key] = payload
		} else {
			plain[key] = value
		}
	}
	fields, err := memo.Encode(dc, plain)
	if err != nil || len(encoded) == 0 {
		return fields, err
	}
	if fields == nil {
		fields = &commonpb.Memo{Fields: map[string]*commonpb.Payload{}}
	}
	for key, payload := range encoded {
		fields.Fields[key] = payload
	}
	return fields, nil
}

// scheduleSpecToProto converts a spec; calendar fields left nil take
// their defaults here, as the server expects every field but the year.
func scheduleSpecToProto(spec *clientapi.ScheduleSpec) *schedulepb.ScheduleSpec {
	if spec == nil {
		return nil
	}
	intervals := make([]*schedulepb.IntervalSpec, len(spec.Intervals))
	for i, interval := range spec.Intervals {
		intervals[i] = &schedulepb.IntervalSpec{
			Interval: durationpb.New(interval.Every),
			Phase:    durationpb.New(interval.Offset),
		}
	}
	return &schedulepb.ScheduleSpec{
		StructuredCalendar:        calendarsToProto(spec.Calendars),
		Interval:                  intervals,
		CronString:                spec.CronExpressions,
		ExcludeStructuredCalendar: calendarsToProto(spec.Skip),
		StartTime:                 optionalTimestamp(spec.StartAt),
		EndTime:                   optionalTimestamp(spec.EndAt),
		Jitter:                    clientOptionalDuration(spec.Jitter),
		TimezoneName:              spec.TimeZoneName,
	}
}

func optionalTimestamp(t time.Time) *timestamppb.Timestamp {
	if t.IsZero() {
		return nil
	}
	return timestamppb.New(t)
}

// optionalTime is the inverse of optionalTimestamp: unset is the zero
// time, not the Unix epoch.
func optionalTime(t *timestamppb.Timestamp) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.AsTime()
}

// The defaults of a calendar field left nil: midnight, every day.
var (
	calendarDefaultZero       = []clientapi.ScheduleRange{{Start: 0}}
	calendarDefaultDayOfMonth = []clientapi.ScheduleRange{{Start: 1, End: 31}}
	calendarDefaultMonth      = []clientapi.ScheduleRange{{Start: 1, End: 12}}
	calendarDefaultDayOfWeek  = []clientapi.ScheduleRange{{Start: 0, End: 6}}
)

func calendarsToProto(calendars []clientapi.ScheduleCalendarSpec) []*schedulepb.StructuredCalendarSpec {
	out := make([]*schedulepb.StructuredCalendarSpec, len(calendars))
	for i, cal := range calendars {
		out[i] = &schedulepb.StructuredCalendarSpec{
			Second:     rangesToProto(cal.Second, calendarDefaultZero),
			Minute:     rangesToProto(cal.Minute, calendarDefaultZero),
			Hour:       rangesToProto(cal.Hour, calendarDefaultZero),
			DayOfMonth: rangesToProto(cal.DayOfMonth, calendarDefaultDayOfMonth),
			Month:      rangesToProto(cal.Month, calendarDefaultMonth),
			Year:       rangesToProto(cal.Year, nil),
			DayOfWeek:  rangesToProto(cal.DayOfWeek, calendarDefaultDayOfWeek),
			Comment:    cal.Comment,
		}
	}
	return out
}

func rangesToProto(ranges, whenNil []clientapi.ScheduleRange) []*schedulepb.Range {
	if ranges == nil {
		ranges = whenNil
	}
	out := make([]*schedulepb.Range, len(ranges))
	for i, r := range ranges {
		out[i] = &schedulepb.Range{Start: int32(r.Start), End: int32(r.End), Step: int32(r.Step)}
	}
	return out
}

func backfillsToProto(backfills []clientapi.ScheduleBackfill) []*schedulepb.BackfillRequest {
	out := make([]*schedulepb.BackfillRequest, len(backfills))
	for i, b := range backfills {
		out[i] = &schedulepb.BackfillRequest{
			StartTime:     timestamppb.New(b.Start),
			EndTime:       timestamppb.New(b.End),
			OverlapPolicy: b.Overlap,
		}
	}
	return out
}

// scheduleSpecFromProto reads a spec back. Cron strings come back as the
// calendars and intervals the server made of them.
func scheduleSpecFromProto(spec *schedulepb.ScheduleSpec) *clientapi.ScheduleSpec {
	if spec == nil {
		return nil
	}
	intervals := make([]clientapi.ScheduleIntervalSpec, len(spec.GetInterval()))
	for i, interval := range spec.GetInterval() {
		intervals[i] = clientapi.ScheduleIntervalSpec{Every: interval.GetInterval().AsDuration(), Offset: interval.GetPhase().AsDuration()}
	}
	return &clientapi.ScheduleSpec{
		Calendars:    calendarsFromProto(spec.GetStructuredCalendar()),
		Intervals:    intervals,
		Skip:         calendarsFromProto(spec.GetExcludeStructuredCalendar()),
		StartAt:      optionalTime(spec.GetStartTime()),
		EndAt:        optionalTime(spec.GetEndTime()),
		Jitter:       spec.GetJitter().AsDuration(),
		TimeZoneName: spec.GetTimezoneName(),
	}
}

func calendarsFromProto(calendars []*schedulepb.StructuredCalendarSpec) []clientapi.ScheduleCalendarSpec {
	out := make([]clientapi.ScheduleCalendarSpec, len(calendars))
	for i, cal := range calendars {
		out[i] = clientapi.ScheduleCalendarSpec{
			Second:     rangesFromProto(cal.GetSecond()),
			Minute:     rangesFromProto(cal.GetMinute()),
			Hour:       rangesFromProto(cal.GetHour()),
			DayOfMonth: rangesFromProto(cal.GetDayOfMonth()),
			Month:      rangesFromProto(cal.GetMonth()),
			Year:       rangesFromProto(cal.GetYear()),
			DayOfWeek:  rangesFromProto(cal.GetDayOfWeek()),
			Comment:    cal.GetComment(),
		}
	}
	return out
}

func rangesFromProto(ranges []*schedulepb.Range) []clientapi.ScheduleRange {
	out := make([]clientapi.ScheduleRange, len(ranges))
	for i, r := range ranges {
		out[i] = clientapi.ScheduleRange{Start: int(r.GetStart()), End: int(r.GetEnd()), Step: int(r.GetStep())}
	}
	return out
}

// scheduleDescriptionFromProto reads DescribeSchedule's answer.
func scheduleDescriptionFromProto(logger log.Logger, dc converter.DataConverter, namespace string, resp *workflowservice.DescribeScheduleResponse) (*clientapi.ScheduleDescription, error) {
	schedule := resp.GetSchedule()
	action, err := scheduleActionFromProto(logger, dc, namespace, schedule.GetAction())
	if err != nil {
		return nil, err
	}
	info := resp.GetInfo()
	running := make([]clientapi.ScheduleWorkflowExecution, len(info.GetRunningWorkflows()))
	for i, w := range info.GetRunningWorkflows() {
		running[i] = clientapi.ScheduleWorkflowExecution{WorkflowID: w.GetWorkflowId(), FirstExecutionRunID: w.GetRunId()}
	}
	policies, state := schedule.GetPolicies(), schedule.GetState()
	return &clientapi.ScheduleDescription{
		Schedule: clientapi.Schedule{
			Action: action,
			Spec:   scheduleSpecFromProto(schedule.GetSpec()),
			Policy: &clientapi.SchedulePolicies{
				Overlap:        policies.GetOverlapPolicy(),
				CatchupWindow:  policies.GetCatchupWindow().AsDuration(),
				PauseOnFailure: policies.GetPauseOnFailure(),
			},
			State: &clientapi.ScheduleState{
				Note:             state.GetNotes(),
				Paused:           state.GetPaused(),
				LimitedActions:   state.GetLimitedActions(),
				RemainingActions: int(state.GetRemainingActions()),
			},
		},
		Info: clientapi.ScheduleInfo{
			NumActions:                    int(info.GetActionCount()),
			NumActionsMissedCatchupWindow: int(info.GetMissedCatchupWindow()),
			NumActionsSkippedOverlap:      int(info.GetOverlapSkipped()),
			RunningWorkflows:              running,
			RecentActions:                 actionResultsFromProto(info.GetRecentActions()),
			NextActionTimes:               timesFromProto(info.GetFutureActionTimes()),
			CreatedAt:                     optionalTime(info.GetCreateTime()),
			LastUpdateAt:                  optionalTime(info.GetUpdateTime()),
		},
		Memo:                  resp.GetMemo(),
		SearchAttributes:      resp.GetSearchAttributes(),
		TypedSearchAttributes: decodeTypedSearchAttributes(logger, resp.GetSearchAttributes()),
	}, nil
}

// decodeTypedSearchAttributes reads the attributes that carry their type;
// one unreadable attribute is logged rather than hiding the rest.
func decodeTypedSearchAttributes(logger log.Logger, attributes *commonpb.SearchAttributes) searchattr.SearchAttributes {
	typed, err := searchattr.Decode(attributes)
	if err != nil {
		logger.Warn("schedule search attributes cannot be decoded", "Error", err)
	}
	return typed
}

// scheduleActionFromProto reads an action back, leaving its arguments and
// memo as payloads.
func scheduleActionFromProto(logger log.Logger, dc converter.DataConverter, namespace string, action *schedulepb.ScheduleAction) (clientapi.ScheduleAction, error) {
	start := action.GetStartWorkflow()
	if start == nil {
		return nil, fmt.Errorf("the schedule's action is %T, which this SDK does not know", action.GetAction())
	}
	dc = clientSerializationContext(dc, namespace, start.GetWorkflowId())
	args := make([]any, len(start.GetInput().GetPayloads()))
	for i, payload := range start.GetInput().GetPayloads() {
		args[i] = payload
	}
	memo := make(map[string]any, len(start.GetMemo().GetFields()))
	for key, payload := range start.GetMemo().GetFields() {
		memo[key] = payload
	}
	typed := decodeTypedSearchAttributes(logger, start.GetSearchAttributes())
	typedNames := map[string]bool{}
	for key := range typed.GetUntypedValues() {
		typedNames[key.GetName()] = true
	}
	untyped := map[string]*commonpb.Payload{}
	for name, payload := range start.GetSearchAttributes().GetIndexedFields() {
		if !typedNames[name] {
			untyped[name] = payload
		}
	}
	var summary, details string
	if p := start.GetUserMetadata().GetSummary(); p != nil {
		if err := dc.FromPayload(p, &summary); err != nil {
			return nil, fmt.Errorf("the schedule's workflow summary cannot be decoded: %w", err)
		}
	}
	if p := start.GetUserMetadata().GetDetails(); p != nil {
		if err := dc.FromPayload(p, &details); err != nil {
			return nil, fmt.Errorf("the schedule's workflow details cannot be decoded: %w", err)
		}
	}
	return &clientapi.ScheduleWorkflowAction{
		ID:                       start.GetWorkflowId(),
		Workflow:                 start.GetWorkflowType().GetName(),
		Args:                     args,
		TaskQueue:                start.GetTaskQueue().GetName(),
		WorkflowExecutionTimeout: start.GetWorkflowExecutionTimeout().AsDuration(),
		WorkflowRunTimeout:       start.GetWorkflowRunTimeout().AsDuration(),
		WorkflowTaskTimeout:      start.GetWorkflowTaskTimeout().AsDuration(),
		RetryPolicy:              policy.RetryPolicyFromProto(start.GetRetryPolicy()),
		Memo:                     memo,
		TypedSearchAttributes:    typed,
		UntypedSearchAttributes:  untyped,
		StaticSummary:            summary,
		StaticDetails:            details,
		Priority:                 policy.PriorityFromProto(start.GetPriority()),
		VersioningOverride:       versioningOverrideFromProto(start.GetVersioningOverride()),
	}, nil
}

func actionResultsFromProto(results []*schedulepb.ScheduleActionResult) []clientapi.ScheduleActionResult {
	out := make([]clientapi.ScheduleActionResult, len(results))
	for i, r := range results {
		out[i] = clientapi.ScheduleActionResult{
			ScheduleTime: optionalTime(r.GetScheduleTime()),
			ActualTime:   optionalTime(r.GetActualTime()),
		}
		if started := r.GetStartWorkflowResult(); started != nil {
			out[i].StartWorkflowResult = &clientapi.ScheduleWorkflowExecution{WorkflowID: started.GetWorkflowId(), FirstExecutionRunID: started.GetRunId()}
		}
	}
	return out
}

func timesFromProto(times []*timestamppb.Timestamp) []time.Time {
	out := make([]time.Time, len(times))
	for i, t := range times {
		out[i] = t.AsTime()
	}
	return out
}

func scheduleListEntryFromProto(entry *schedulepb.ScheduleListEntry) *clientapi.ScheduleListEntry {
	info := entry.GetInfo()
	return &clientapi.ScheduleListEntry{
		ID:               entry.GetScheduleId(),
		Spec:             scheduleSpecFromProto(info.GetSpec()),
		Note:             info.GetNotes(),
		Paused:           info.GetPaused(),
		WorkflowType:     clientapi.WorkflowType{Name: info.GetWorkflowType().GetName()},
		RecentActions:    actionResultsFromProto(info.GetRecentActions()),
		NextActionTimes:  timesFromProto(info.GetFutureActionTimes()),
		Memo:             entry.GetMemo(),
		SearchAttributes: entry.GetSearchAttributes(),
	}
}
