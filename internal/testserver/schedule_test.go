package testserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	schedulepb "go.temporal.io/api/schedule/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// The schedules' tests run a server on a clock that moves only when the
// test moves it (Advance), with no worker: a workflow a schedule starts
// stays open until the test closes it.

var scheduleEpoch = time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC) // a Monday

const scheduleQueue = "scheduled"

// scheduleServer is a server whose schedules start workflows as a
// frontend would, with their start attributes, minus its checks.
func scheduleServer(t *testing.T) (*Server, *Clock) {
	t.Helper()
	clock := NewClock(scheduleEpoch)
	var s *Server
	s = New(Options{Clock: clock, ChainTopLevelRuns: true, StartScheduledWorkflow: func(req *workflowservice.StartWorkflowExecutionRequest) (*workflowservice.StartWorkflowExecutionResponse, error) {
		if prev, err := s.Describe(&commonpb.WorkflowExecution{WorkflowId: req.GetWorkflowId()}); err == nil &&
			req.GetWorkflowIdReusePolicy() == enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE {
			return nil, serviceerror.NewWorkflowExecutionAlreadyStarted("ran before", "", prev.Execution.GetRunId())
		}
		execution, err := s.StartWorkflow(req.GetWorkflowId(), "", &historypb.WorkflowExecutionStartedEventAttributes{
			WorkflowType: req.GetWorkflowType(), TaskQueue: req.GetTaskQueue(), Input: req.GetInput(), Identity: req.GetIdentity(),
			SearchAttributes: req.GetSearchAttributes(), Memo: req.GetMemo(), Header: req.GetHeader(),
			LastCompletionResult: req.GetLastCompletionResult(), ContinuedFailure: req.GetContinuedFailure(),
			WorkflowRunTimeout: req.GetWorkflowRunTimeout(),
		})
		if err != nil {
			return nil, err
		}
		return &workflowservice.StartWorkflowExecutionResponse{RunId: execution.GetRunId(), Started: true}, nil
	}})
	return s, clock
}

func workflowAction(id string) *schedulepb.ScheduleAction {
	return &schedulepb.ScheduleAction{Action: &schedulepb.ScheduleAction_StartWorkflow{StartWorkflow: &workflowpb.NewWorkflowExecutionInfo{
		WorkflowId: id, WorkflowType: &commonpb.WorkflowType{Name: "Report"}, TaskQueue: &taskqueuepb.TaskQueue{Name: scheduleQueue},
	}}}
}

func hourly(policy enumspb.ScheduleOverlapPolicy) *schedulepb.Schedule {
	return &schedulepb.Schedule{
		Spec:     &schedulepb.ScheduleSpec{Interval: []*schedulepb.IntervalSpec{{Interval: durationpb.New(time.Hour)}}},
		Action:   workflowAction("report"),
		Policies: &schedulepb.SchedulePolicies{OverlapPolicy: policy},
	}
}

func createSchedule(t *testing.T, s *Server, id string, def *schedulepb.Schedule, patch *schedulepb.SchedulePatch) {
	t.Helper()
	if _, err := s.CreateSchedule(&workflowservice.CreateScheduleRequest{ScheduleId: id, Schedule: def, InitialPatch: patch, RequestId: "create-" + id}); err != nil {
		t.Fatal(err)
	}
}

func describeSchedule(t *testing.T, s *Server, id string) *workflowservice.DescribeScheduleResponse {
	t.Helper()
	d, err := s.DescribeSchedule(id)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// started lists the workflows the server ran, in the order they started,
// as "ID (status)".
func started(s *Server) string {
	var out []string
	for _, r := range s.Runs() {
		status := "running"
		if r.Closed {
			status = strings.ToLower(closeStatus(r.Events[len(r.Events)-1].GetEventType()).String())
		}
		out = append(out, fmt.Sprintf("%s (%s)", r.Execution.GetWorkflowId(), status))
	}
	return strings.Join(out, ", ")
}

func terminate(t *testing.T, s *Server, workflowID string) {
	t.Helper()
	if err := s.Terminate(&commonpb.WorkflowExecution{WorkflowId: workflowID}, "test", nil, "test"); err != nil {
		t.Fatal(err)
	}
}

// answerTask completes the next workflow task with command, and returns
// its workflow's ID.
func answerTask(t *testing.T, s *Server, command *commandpb.Command) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	task, err := s.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: &taskqueuepb.TaskQueue{Name: scheduleQueue}})
	if err != nil || task.GetTaskToken() == nil {
		t.Fatalf("no workflow task: %v", err)
	}
	if _, err := s.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{TaskToken: task.GetTaskToken(), Commands: []*commandpb.Command{command}}); err != nil {
		t.Fatal(err)
	}
	return task.GetWorkflowExecution().GetWorkflowId()
}

func completeCommand(result string) *commandpb.Command {
	return &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION,
		Attributes: &commandpb.Command_CompleteWorkflowExecutionCommandAttributes{CompleteWorkflowExecutionCommandAttributes: &commandpb.CompleteWorkflowExecutionCommandAttributes{
			Result: &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: []byte(result)}}}}}}
}

func failCommand(message string) *commandpb.Command {
	return &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION,
		Attributes: &commandpb.Command_FailWorkflowExecutionCommandAttributes{FailWorkflowExecutionCommandAttributes: &commandpb.FailWorkflowExecutionCommandAttributes{
			Failure: &failurepb.Failure{Message: message}}}}
}

func TestAScheduleStartsItsWorkflowsWhenTheClockReachesTheirTimes(t *testing.T) {
	s, clock := scheduleServer(t)
	def := hourly(enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL)
	def.GetAction().GetStartWorkflow().SearchAttributes = &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{"Team": typedJSONString("platform", "Keyword")}}
	createSchedule(t, s, "hourly", def, nil)
	if got := started(s); got != "" {
		t.Fatalf("started before its first time: %s", got)
	}
	clock.Advance(3*time.Hour + 30*time.Minute)
	want := "report-2024-01-01T09:00:00Z (running), report-2024-01-01T10:00:00Z (running), report-2024-01-01T11:00:00Z (running)"
	if got := started(s); got != want {
		t.Fatalf("started %s\nwant %s", got, want)
	}
	for i, r := range s.Runs() {
		attrs := r.Events[0].GetWorkflowExecutionStartedEventAttributes()
		at := scheduleEpoch.Add(time.Duration(i+1) * time.Hour)
		if !r.Events[0].GetEventTime().AsTime().Equal(at) {
			t.Errorf("%s started at %v, want %v", r.Execution.GetWorkflowId(), r.Events[0].GetEventTime().AsTime(), at)
		}
		fields := attrs.GetSearchAttributes().GetIndexedFields()
		if by := string(fields[scheduledByIDAttribute].GetData()); by != `"hourly"` {
			t.Errorf("TemporalScheduledById %s", by)
		}
		if st := string(fields[scheduledStartTimeAttribute].GetData()); st != `"`+at.Format(time.RFC3339)+`"` {
			t.Errorf("TemporalScheduledStartTime %s, want %v", st, at)
		}
		if string(fields["Team"].GetData()) != `"platform"` || attrs.GetIdentity() != "temporal-scheduler-default-hourly" {
			t.Errorf("the action's own search attribute is %v, the identity %q", fields["Team"], attrs.GetIdentity())
		}
	}
	d := describeSchedule(t, s, "hourly")
	info := d.GetInfo()
	if info.GetActionCount() != 3 || len(info.GetRecentActions()) != 3 || len(info.GetRunningWorkflows()) != 0 {
		t.Errorf("actions %d, recent %d, running %v: want 3, 3 and none tracked (ALLOW_ALL)", info.GetActionCount(), len(info.GetRecentActions()), info.GetRunningWorkflows())
	}
	next := info.GetFutureActionTimes()
	if len(next) != futureActionCount || !next[0].AsTime().Equal(scheduleEpoch.Add(4*time.Hour)) {
		t.Errorf("future action times %v: want 10 from 12:00", next)
	}
	if !info.GetCreateTime().AsTime().Equal(scheduleEpoch) || info.GetUpdateTime() != nil {
		t.Errorf("created %v, updated %v", info.GetCreateTime(), info.GetUpdateTime())
	}
}

// TestEachOverlapPolicyActsAsAServersDoes runs an hourly schedule whose
// first workflow stays open through the next two times, then closes it.
func TestEachOverlapPolicyActsAsAServersDoes(t *testing.T) {
	for _, tc := range []struct {
		policy                 enumspb.ScheduleOverlapPolicy
		whileOpen, afterClosed string
		skipped                int64
	}{
		{enumspb.SCHEDULE_OVERLAP_POLICY_SKIP, "09 (running)", "09 (terminated)", 2},
		{enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE, "09 (running)", "09 (terminated), 10 (running)", 1},
		{enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL, "09 (running)", "09 (terminated), 10 (running)", 0},
		{enumspb.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER, "09 (running)", "09 (terminated), 11 (running)", 0},
		{enumspb.SCHEDULE_OVERLAP_POLICY_TERMINATE_OTHER, "09 (terminated), 10 (terminated), 11 (running)", "", 0},
		{enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL, "09 (running), 10 (running), 11 (running)", "", 0},
	} {
		t.Run(tc.policy.String(), func(t *testing.T) {
			s, clock := scheduleServer(t)
			createSchedule(t, s, "overlap", hourly(tc.policy), nil)
			clock.Advance(3 * time.Hour)
			short := func() string {
				return strings.ReplaceAll(strings.ReplaceAll(started(s), "report-2024-01-01T", ""), ":00:00Z", "")
			}
			if got := short(); got != tc.whileOpen {
				t.Fatalf("while the first is open: %s, want %s", got, tc.whileOpen)
			}
			if tc.policy == enumspb.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER {
				history, _ := s.History(&commonpb.WorkflowExecution{WorkflowId: "report-2024-01-01T09:00:00Z"})
				if !slices.ContainsFunc(history.GetEvents(), func(ev *historypb.HistoryEvent) bool {
					return ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED
				}) {
					t.Error("CANCEL_OTHER asked the open workflow to cancel: no WorkflowExecutionCancelRequested")
				}
			}
			if tc.afterClosed != "" {
				terminate(t, s, "report-2024-01-01T09:00:00Z")
				clock.Advance(0) // the schedule hears of the close
				if got := short(); got != tc.afterClosed {
					t.Fatalf("after the first closed: %s, want %s", got, tc.afterClosed)
				}
			}
			if got := describeSchedule(t, s, "overlap").GetInfo().GetOverlapSkipped(); got != tc.skipped {
				t.Errorf("overlap skipped %d, want %d", got, tc.skipped)
			}
		})
	}
}

func TestBufferAllStartsEachBufferedActionAsThePreviousCloses(t *testing.T) {
	s, clock := scheduleServer(t)
	createSchedule(t, s, "all", hourly(enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL), nil)
	clock.Advance(3 * time.Hour)
	for _, id := range []string{"09", "10", "11"} {
		if got := describeSchedule(t, s, "all").GetInfo().GetRunningWorkflows(); len(got) != 1 || !strings.Contains(got[0].GetWorkflowId(), "T"+id) {
			t.Fatalf("running %v, want the %s:00 workflow", got, id)
		}
		terminate(t, s, "report-2024-01-01T"+id+":00:00Z")
		clock.Advance(0)
	}
	if got := describeSchedule(t, s, "all").GetInfo(); got.GetActionCount() != 3 || got.GetBufferSize() != 0 {
		t.Errorf("%d actions, %d buffered", got.GetActionCount(), got.GetBufferSize())
	}
}

func TestAPausedScheduleActsOnlyWhenTriggered(t *testing.T) {
	s, clock := scheduleServer(t)
	def := hourly(enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL)
	def.State = &schedulepb.ScheduleState{Paused: true, Notes: "not yet"}
	createSchedule(t, s, "paused", def, nil)
	clock.Advance(2 * time.Hour)
	if got := started(s); got != "" {
		t.Fatalf("a paused schedule started %s", got)
	}
	if err := s.PatchSchedule(&workflowservice.PatchScheduleRequest{ScheduleId: "paused", Patch: &schedulepb.SchedulePatch{
		TriggerImmediately: &schedulepb.TriggerImmediatelyRequest{}}}); err != nil {
		t.Fatal(err)
	}
	if got, want := started(s), "report-2024-01-01T10:00:00Z (running)"; got != want {
		t.Fatalf("triggered: %s, want %s (the trigger's time)", got, want)
	}
	if err := s.PatchSchedule(&workflowservice.PatchScheduleRequest{ScheduleId: "paused", Patch: &schedulepb.SchedulePatch{Unpause: "go"}}); err != nil {
		t.Fatal(err)
	}
	state := describeSchedule(t, s, "paused").GetSchedule().GetState()
	if state.GetPaused() || state.GetNotes() != "go" {
		t.Errorf("unpaused: paused %v, notes %q", state.GetPaused(), state.GetNotes())
	}
	clock.Advance(time.Hour)
	if got, want := started(s), "report-2024-01-01T10:00:00Z (running), report-2024-01-01T11:00:00Z (running)"; got != want {
		t.Errorf("after unpausing: %s, want %s (the hours while paused are not made up)", got, want)
	}
}

func TestLimitedActionsRunOutAndTheScheduleEndsAWeekLater(t *testing.T) {
	s, clock := scheduleServer(t)
	def := hourly(enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL)
	def.State = &schedulepb.ScheduleState{LimitedActions: true, RemainingActions: 2}
	createSchedule(t, s, "limited", def, nil)
	if got := describeSchedule(t, s, "limited").GetInfo().GetFutureActionTimes(); len(got) != 2 {
		t.Errorf("future action times %v: want the 2 remaining", got)
	}
	clock.Advance(5 * time.Hour)
	d := describeSchedule(t, s, "limited")
	if d.GetInfo().GetActionCount() != 2 || d.GetSchedule().GetState().GetRemainingActions() != 0 || len(d.GetInfo().GetFutureActionTimes()) != 0 {
		t.Fatalf("after 5 hours: %d actions, %d remaining, next %v", d.GetInfo().GetActionCount(), d.GetSchedule().GetState().GetRemainingActions(), d.GetInfo().GetFutureActionTimes())
	}
	clock.Advance(7*24*time.Hour - 3*time.Hour - time.Second)
	if _, err := s.DescribeSchedule("limited"); err != nil {
		t.Fatalf("gone before a week after its last action: %v", err)
	}
	clock.Advance(time.Second)
	var notFound *serviceerror.NotFound
	if _, err := s.DescribeSchedule("limited"); !errors.As(err, &notFound) {
		t.Errorf("a week after its last action: %v, want NotFound", err)
	}
}

func TestPauseOnFailurePausesWithTheFailureAndPassesOnResults(t *testing.T) {
	s, clock := scheduleServer(t)
	def := hourly(enumspb.SCHEDULE_OVERLAP_POLICY_SKIP)
	def.Policies.PauseOnFailure = true
	createSchedule(t, s, "fragile", def, nil)
	clock.Advance(time.Hour)
	answerTask(t, s, completeCommand("first"))
	clock.Advance(time.Hour)
	second, _ := s.History(&commonpb.WorkflowExecution{WorkflowId: "report-2024-01-01T10:00:00Z"})
	if got := second.GetEvents()[0].GetWorkflowExecutionStartedEventAttributes().GetLastCompletionResult(); string(got.GetPayloads()[0].GetData()) != "first" {
		t.Errorf("the second workflow's last completion result: %v, want the first's", got)
	}
	if id := answerTask(t, s, failCommand("disk full")); id != "report-2024-01-01T10:00:00Z" {
		t.Fatalf("answered %s", id)
	}
	clock.Advance(0)
	d := describeSchedule(t, s, "fragile")
	state := d.GetSchedule().GetState()
	if want := "paused due to workflow failure: report-2024-01-01T10:00:00Z: disk full"; !state.GetPaused() || state.GetNotes() != want {
		t.Errorf("paused %v, notes %q, want %q", state.GetPaused(), state.GetNotes(), want)
	}
	statuses := []enumspb.WorkflowExecutionStatus{}
	for _, a := range d.GetInfo().GetRecentActions() {
		statuses = append(statuses, a.GetStartWorkflowStatus())
	}
	if want := []enumspb.WorkflowExecutionStatus{enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, enumspb.WORKFLOW_EXECUTION_STATUS_FAILED}; !slices.Equal(statuses, want) {
		t.Errorf("recent actions' statuses %v, want %v", statuses, want)
	}
	clock.Advance(2 * time.Hour)
	if got := describeSchedule(t, s, "fragile").GetInfo().GetActionCount(); got != 2 {
		t.Errorf("%d actions after pausing, want 2", got)
	}
}

func TestABackfillStartsTheActionsOfPastTimes(t *testing.T) {
	s, clock := scheduleServer(t)
	clock.Advance(24 * time.Hour)
	def := hourly(enumspb.SCHEDULE_OVERLAP_POLICY_SKIP)
	createSchedule(t, s, "backfilled", def, &schedulepb.SchedulePatch{BackfillRequest: []*schedulepb.BackfillRequest{{
		StartTime: timestamppb.New(scheduleEpoch.Add(time.Hour)), EndTime: timestamppb.New(scheduleEpoch.Add(3 * time.Hour)),
		OverlapPolicy: enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL,
	}}})
	// The start time is included: its time acts.
	want := "report-2024-01-01T09:00:00Z (running), report-2024-01-01T10:00:00Z (running), report-2024-01-01T11:00:00Z (running)"
	if got := started(s); got != want {
		t.Errorf("backfilled %s\nwant %s", got, want)
	}
}

func TestAnUpdateReplacesTheDefinitionButNotWhatTheScheduleDid(t *testing.T) {
	s, clock := scheduleServer(t)
	createSchedule(t, s, "changing", hourly(enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL), nil)
	clock.Advance(time.Hour)
	before := describeSchedule(t, s, "changing")
	def := hourly(enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL)
	def.Spec = &schedulepb.ScheduleSpec{CronString: []string{"0 12 * * *"}}
	// A stale conflict token drops the update.
	if err := s.UpdateSchedule(&workflowservice.UpdateScheduleRequest{ScheduleId: "changing", Schedule: def, ConflictToken: conflictTokenBytes(99)}); err != nil {
		t.Fatal(err)
	}
	if got := describeSchedule(t, s, "changing"); got.GetInfo().GetUpdateTime() != nil {
		t.Fatalf("an update with a stale conflict token was applied")
	}
	clock.Advance(30 * time.Minute)
	if err := s.UpdateSchedule(&workflowservice.UpdateScheduleRequest{ScheduleId: "changing", Schedule: def, ConflictToken: before.GetConflictToken(),
		SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{"Owner": typedJSONString("me", "Keyword")}}}); err != nil {
		t.Fatal(err)
	}
	after := describeSchedule(t, s, "changing")
	if got := after.GetInfo(); !got.GetUpdateTime().AsTime().Equal(scheduleEpoch.Add(90*time.Minute)) || got.GetActionCount() != 1 ||
		!got.GetFutureActionTimes()[0].AsTime().Equal(scheduleEpoch.Add(4*time.Hour)) {
		t.Errorf("updated at %v, %d actions, next %v", got.GetUpdateTime(), got.GetActionCount(), got.GetFutureActionTimes()[0])
	}
	if string(after.GetSearchAttributes().GetIndexedFields()["Owner"].GetData()) != `"me"` {
		t.Errorf("search attributes %v", after.GetSearchAttributes())
	}
	if hours := after.GetSchedule().GetSpec().GetStructuredCalendar()[0].GetHour(); len(hours) != 1 || hours[0].GetStart() != 12 || hours[0].GetEnd() != 12 || hours[0].GetStep() != 1 {
		t.Errorf("described hours %v: want 12-12/1 (a server fills in End and Step)", hours)
	}
	if after.GetSchedule().GetPolicies().GetCatchupWindow().AsDuration() != defaultCatchupWindow {
		t.Errorf("catchup window %v, want the server's default", after.GetSchedule().GetPolicies().GetCatchupWindow())
	}
}

func TestSchedulesAreListedNewestFirstAPageAtATimeAndDeleted(t *testing.T) {
	s, clock := scheduleServer(t)
	for _, id := range []string{"a", "b", "c"} {
		def := hourly(enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL)
		def.Action = workflowAction(id)
		createSchedule(t, s, id, def, nil)
	}
	var ids []string
	var token []byte
	for pages := 0; ; pages++ {
		page, err := s.ListSchedules(&workflowservice.ListSchedulesRequest{MaximumPageSize: 2, NextPageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.GetSchedules() {
			ids = append(ids, e.GetScheduleId())
			if e.GetInfo().GetWorkflowType().GetName() != "Report" || len(e.GetInfo().GetFutureActionTimes()) != futureActionCountList {
				t.Errorf("%s listed with %v", e.GetScheduleId(), e.GetInfo())
			}
		}
		if token = page.GetNextPageToken(); token == nil {
			break
		}
	}
	if want := []string{"c", "b", "a"}; !slices.Equal(ids, want) {
		t.Errorf("listed %v, want %v", ids, want)
	}
	if _, err := s.CreateSchedule(&workflowservice.CreateScheduleRequest{ScheduleId: "a", Schedule: hourly(0), RequestId: "another"}); err == nil {
		t.Error("a second schedule a was created")
	}
	if err := s.DeleteSchedule("a"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	if got, want := started(s), "b-2024-01-01T09:00:00Z (running), c-2024-01-01T09:00:00Z (running)"; got != want {
		t.Errorf("after deleting a, started %s, want %s", got, want)
	}
	var notFound *serviceerror.NotFound
	if err := s.DeleteSchedule("a"); !errors.As(err, &notFound) {
		t.Errorf("deleting a again: %v, want NotFound", err)
	}
}

func TestMatchingTimesListTheSpecsTimesInARange(t *testing.T) {
	s, _ := scheduleServer(t)
	def := hourly(0)
	def.Spec = &schedulepb.ScheduleSpec{CronString: []string{"0 9 * * MON-FRI"}}
	createSchedule(t, s, "weekdays", def, nil)
	got, err := s.ListScheduleMatchingTimes(&workflowservice.ListScheduleMatchingTimesRequest{ScheduleId: "weekdays",
		StartTime: timestamppb.New(scheduleEpoch), EndTime: timestamppb.New(scheduleEpoch.Add(7 * 24 * time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	var days []string
	for _, at := range got.GetStartTime() {
		days = append(days, at.AsTime().Format("Mon 15:04"))
	}
	if want := "Mon 09:00 Tue 09:00 Wed 09:00 Thu 09:00 Fri 09:00"; strings.Join(days, " ") != want {
		t.Errorf("matching times %v, want %s", days, want)
	}
}

func TestBadSchedulesAreRefused(t *testing.T) {
	s, _ := scheduleServer(t)
	noType := hourly(0)
	noType.GetAction().GetStartWorkflow().WorkflowType = nil
	withCron := hourly(0)
	withCron.GetAction().GetStartWorkflow().CronSchedule = "@daily"
	badSpec := hourly(0)
	badSpec.Spec = &schedulepb.ScheduleSpec{CronString: []string{"0 25 * * *"}}
	for _, tc := range []struct {
		def  *schedulepb.Schedule
		want string
	}{
		{noType, "WorkflowType is not set on request."},
		{withCron, "Scheduled workflow must not contain CronSchedule"},
		{badSpec, "Invalid schedule spec: Hour is not in range [0-23]"},
	} {
		_, err := s.CreateSchedule(&workflowservice.CreateScheduleRequest{ScheduleId: "bad", Schedule: tc.def, RequestId: "r"})
		var invalid *serviceerror.InvalidArgument
		if !errors.As(err, &invalid) || err.Error() != tc.want {
			t.Errorf("error %v, want InvalidArgument %q", err, tc.want)
		}
	}
}
