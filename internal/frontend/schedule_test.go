package frontend

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	schedulepb "go.temporal.io/api/schedule/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/chk"
)

// TestAScheduleStartsItsWorkflowsAsAClientsStart: a schedule's workflow
// gets the defaults of a client's start (its workflow task timeout), and
// its workflow ID policies: a trigger for the time of a workflow still
// open is no action; once it closed, a trigger (manual) starts it again.
func TestAScheduleStartsItsWorkflowsAsAClientsStart(t *testing.T) {
	f := newFrontend(t)
	ctx := context.Background()
	_, err := f.CreateSchedule(ctx, &workflowservice.CreateScheduleRequest{Namespace: "default", ScheduleId: "manual", RequestId: "r",
		Schedule: &schedulepb.Schedule{Action: &schedulepb.ScheduleAction{Action: &schedulepb.ScheduleAction_StartWorkflow{StartWorkflow: &workflowpb.NewWorkflowExecutionInfo{
			WorkflowId: "job", WorkflowType: &commonpb.WorkflowType{Name: "W"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "q"}}}}}})
	chk.NoErr(t, err)
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	trigger := func() {
		_, err := f.PatchSchedule(ctx, &workflowservice.PatchScheduleRequest{Namespace: "default", ScheduleId: "manual", Patch: &schedulepb.SchedulePatch{
			// ALLOW_ALL: the overlap policy lets every trigger try its start.
			TriggerImmediately: &schedulepb.TriggerImmediatelyRequest{ScheduledTime: timestamppb.New(at), OverlapPolicy: enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL}}})
		chk.NoErr(t, err)
	}
	actions := func() int64 {
		d, err := f.DescribeSchedule(ctx, &workflowservice.DescribeScheduleRequest{Namespace: "default", ScheduleId: "manual"})
		chk.NoErr(t, err)
		return d.GetInfo().GetActionCount()
	}
	trigger()
	trigger()
	if got := actions(); got != 1 {
		t.Fatalf("%d actions; want 1: the second start's workflow ID is taken by a running workflow", got)
	}
	srv, err := f.serverOf("default")
	chk.NoErr(t, err)
	info, err := srv.Describe(&commonpb.WorkflowExecution{WorkflowId: "job-2024-05-01T12:00:00Z"})
	chk.NoErr(t, err)
	if got := info.Started.GetWorkflowTaskTimeout().AsDuration(); got != defaultWorkflowTaskTimeout {
		t.Errorf("the scheduled workflow's task timeout is %v, want a start's default %v", got, defaultWorkflowTaskTimeout)
	}
	closeWith(t, f, complete)
	trigger()
	if got := actions(); got != 2 {
		t.Fatalf("%d actions; want 2: a trigger starts a closed workflow's ID again", got)
	}
	_, err = f.DescribeSchedule(ctx, &workflowservice.DescribeScheduleRequest{Namespace: "other", ScheduleId: "manual"})
	var nsNotFound *serviceerror.NamespaceNotFound
	if !errors.As(err, &nsNotFound) {
		t.Errorf("a schedule call for another namespace answered %v, want NamespaceNotFound", err)
	}
	// A list with a query filters the schedules (schedulelist.go).
	for query, want := range map[string]int{"TemporalSchedulePaused = true": 0, "TemporalSchedulePaused = false AND ScheduleId = 'manual'": 1} {
		listed, err := f.ListSchedules(ctx, &workflowservice.ListSchedulesRequest{Namespace: "default", Query: query})
		chk.NoErr(t, err)
		if len(listed.GetSchedules()) != want {
			t.Errorf("%q lists %d schedules, want %d", query, len(listed.GetSchedules()), want)
		}
	}
	_, err = f.ListSchedules(ctx, &workflowservice.ListSchedulesRequest{Namespace: "default", Query: "StartTime > '2024-01-01T00:00:00Z'"})
	var invalid *serviceerror.InvalidArgument
	if !errors.As(err, &invalid) || !strings.Contains(invalid.Message, "filters schedules by ScheduleId, TemporalSchedulePaused and their search attributes") {
		t.Errorf("a schedule filter on StartTime answered %v, want InvalidArgument saying what schedules are filtered by", err)
	}
}
