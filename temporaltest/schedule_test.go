package temporaltest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/workflow"
)

// Report is the workflow the schedules of these tests start.
func Report(ctx workflow.Context, team string) (string, error) {
	return "report for " + team + " at " + workflow.Now(ctx).UTC().Format(time.RFC3339), nil
}

// waitFor polls the schedule's description until done says it has what
// the test waits for: the schedule acts on its own, after the call that
// asks it to returns, on a server as here.
func waitFor(t *testing.T, h client.ScheduleHandle, what string, done func(*client.ScheduleDescription) bool) *client.ScheduleDescription {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		d, err := h.Describe(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if done(d) {
			return d
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the schedule never got to %s: %+v", what, d.Info)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// firstNineAfter is the first 09:00 UTC after t.
func firstNineAfter(t time.Time) time.Time {
	t = t.UTC()
	nine := time.Date(t.Year(), t.Month(), t.Day(), 9, 0, 0, 0, time.UTC)
	if !nine.After(t) {
		nine = nine.AddDate(0, 0, 1)
	}
	return nine
}

func dailyAtNine(id, queue string) client.ScheduleOptions {
	return client.ScheduleOptions{
		ID:   id,
		Spec: client.ScheduleSpec{Calendars: []client.ScheduleCalendarSpec{{Hour: []client.ScheduleRange{{Start: 9}}}}},
		Action: &client.ScheduleWorkflowAction{
			ID: id + "-report", Workflow: Report, Args: []any{"platform"}, TaskQueue: queue,
			Memo: map[string]any{"owner": "platform team"},
		},
	}
}

// TestAScheduleIsManagedWithTheScheduleClient: create, describe,
// trigger, pause, unpause, update, backfill, list and delete, with this
// SDK's client, over gRPC, on the embedded server in wall time.
func TestAScheduleIsManagedWithTheScheduleClient(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{})
	startWorker(t, c, "reports", []any{Report}, nil)
	ctx := context.Background()
	// The schedule's times begin in a month, at half past an hour: in wall
	// time, only the actions the test asks for are taken.
	startAt := srv.Now().Add(30 * 24 * time.Hour).Truncate(time.Hour).Add(30 * time.Minute)
	options := dailyAtNine("daily", "reports")
	options.Spec.StartAt = startAt
	h, err := c.ScheduleClient().Create(ctx, options)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ScheduleClient().Create(ctx, dailyAtNine("daily", "reports")); !errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		t.Errorf("a second create answered %v, want ErrScheduleAlreadyRunning", err)
	}

	d, err := h.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cal := d.Schedule.Spec.Calendars
	if len(cal) != 1 || fmt.Sprint(cal[0].Hour, cal[0].Minute, cal[0].DayOfWeek) != "[{9 9 1}] [{0 0 1}] [{0 6 1}]" {
		t.Errorf("described calendars %+v: want the ranges filled in as a server fills them", cal)
	}
	if d.Schedule.Policy.Overlap != enumspb.SCHEDULE_OVERLAP_POLICY_SKIP || d.Schedule.Policy.CatchupWindow != 365*24*time.Hour {
		t.Errorf("policies %+v: want the server's defaults", d.Schedule.Policy)
	}
	next := d.Info.NextActionTimes
	firstNine := firstNineAfter(startAt)
	if len(next) != 10 || !next[0].Equal(firstNine) || !next[1].Equal(firstNine.AddDate(0, 0, 1)) {
		t.Errorf("next action times %v: want ten days at 09:00 UTC from %v", next, firstNine)
	}
	if d.Info.CreatedAt.IsZero() || d.Info.CreatedAt.After(srv.Now()) {
		t.Errorf("created at %v", d.Info.CreatedAt)
	}

	// Trigger: the workflow's ID is the action's and the time, to the second.
	if err := h.Trigger(ctx, client.ScheduleTriggerOptions{}); err != nil {
		t.Fatal(err)
	}
	d = waitFor(t, h, "the triggered action", func(d *client.ScheduleDescription) bool { return len(d.Info.RecentActions) == 1 })
	action := d.Info.RecentActions[0]
	if want := "daily-report-" + action.ScheduleTime.UTC().Truncate(time.Second).Format(time.RFC3339); action.StartWorkflowResult.WorkflowID != want {
		t.Errorf("the triggered workflow's ID is %s, want %s", action.StartWorkflowResult.WorkflowID, want)
	}
	var report string
	if err := c.GetWorkflow(ctx, action.StartWorkflowResult.WorkflowID, action.StartWorkflowResult.FirstExecutionRunID).Get(ctx, &report); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(report, "report for platform") {
		t.Errorf("report %q", report)
	}
	described, err := c.DescribeWorkflowExecution(ctx, action.StartWorkflowResult.WorkflowID, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := described.GetWorkflowExecutionInfo().GetMemo().GetFields()["owner"]; !ok {
		t.Errorf("the scheduled workflow's memo %v lacks the action's", described.GetWorkflowExecutionInfo().GetMemo())
	}

	// Pause and unpause, with notes.
	if err := h.Pause(ctx, client.SchedulePauseOptions{Note: "holidays"}); err != nil {
		t.Fatal(err)
	}
	if d, _ = h.Describe(ctx); !d.Schedule.State.Paused || d.Schedule.State.Note != "holidays" {
		t.Errorf("paused: %+v", d.Schedule.State)
	}
	if err := h.Unpause(ctx, client.ScheduleUnpauseOptions{}); err != nil {
		t.Fatal(err)
	}
	if d, _ = h.Describe(ctx); d.Schedule.State.Paused || d.Schedule.State.Note != "Unpaused via Go SDK" {
		t.Errorf("unpaused: %+v", d.Schedule.State)
	}

	// Update: every hour, paused (in wall time, only the backfill below
	// acts).
	before := srv.Now()
	err = h.Update(ctx, client.ScheduleUpdateOptions{DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
		s := in.Description.Schedule
		s.Spec = &client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}}
		s.State = &client.ScheduleState{Paused: true, Note: "backfills only"}
		return &client.ScheduleUpdate{Schedule: &s}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	d, _ = h.Describe(ctx)
	after := srv.Now()
	if next := d.Info.NextActionTimes[0]; d.Info.LastUpdateAt.Before(before) || d.Info.LastUpdateAt.After(after) ||
		len(d.Schedule.Spec.Calendars) != 0 || len(d.Schedule.Spec.Intervals) != 1 || !d.Schedule.State.Paused ||
		!next.Equal(before.Truncate(time.Hour).Add(time.Hour)) && !next.Equal(after.Truncate(time.Hour).Add(time.Hour)) {
		t.Errorf("updated at %v to %+v, %+v, next %v", d.Info.LastUpdateAt, d.Schedule.Spec, d.Schedule.State, d.Info.NextActionTimes)
	}

	// Backfill three past hours, paused as it is: three workflows of past
	// times.
	end := srv.Now().Add(-24 * time.Hour).Truncate(time.Hour)
	err = h.Backfill(ctx, client.ScheduleBackfillOptions{Backfill: []client.ScheduleBackfill{{
		Start: end.Add(-2 * time.Hour), End: end, Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	d = waitFor(t, h, "the backfill", func(d *client.ScheduleDescription) bool { return len(d.Info.RecentActions) == 4 })
	for i, a := range d.Info.RecentActions[1:] {
		at := end.Add(time.Duration(i-2) * time.Hour)
		if want := "daily-report-" + at.UTC().Format(time.RFC3339); a.StartWorkflowResult.WorkflowID != want {
			t.Errorf("backfilled %s, want %s", a.StartWorkflowResult.WorkflowID, want)
		}
	}

	// List, then delete.
	iter, err := c.ScheduleClient().List(ctx, client.ScheduleListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for iter.HasNext() {
		entry, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, entry.ID+" "+entry.WorkflowType.Name)
	}
	if fmt.Sprint(listed) != "[daily Report]" {
		t.Errorf("listed %v", listed)
	}
	if err := h.Delete(ctx); err != nil {
		t.Fatal(err)
	}
	var notFound *serviceerror.NotFound
	if _, err := h.Describe(ctx); !errors.As(err, &notFound) {
		t.Errorf("describing the deleted schedule answered %v, want NotFound", err)
	}
}

// TestADailyScheduleFiresWhenTheClockSkipsToIt: with time skipping, the
// schedule's next action is a wake-up the clock skips to, as it skips to
// a timer. The schedule takes its two actions on two days, at 09:00 UTC,
// in milliseconds, and, with nothing left to do, ends a week later.
func TestADailyScheduleFiresWhenTheClockSkipsToIt(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{TimeSkipping: true})
	startWorker(t, c, "reports", []any{Report}, nil)
	ctx := context.Background()
	nine := firstNineAfter(srv.Now())
	options := dailyAtNine("skipping", "reports")
	options.RemainingActions = 2
	h, err := c.ScheduleClient().Create(ctx, options)
	if err != nil {
		t.Fatal(err)
	}
	for day := range 2 {
		at := nine.AddDate(0, 0, day)
		id := "skipping-report-" + at.Format(time.RFC3339)
		var report string
		if err := c.GetWorkflow(ctx, id, "").Get(ctx, &report); err != nil {
			t.Fatalf("day %d: %v", day, err)
		}
		if want := "report for platform at " + at.Format(time.RFC3339); report != want {
			t.Errorf("day %d: %q, want %q", day, report, want)
		}
		described, err := c.DescribeWorkflow(ctx, id, "")
		if err != nil {
			t.Fatal(err)
		}
		attrs := described.TypedSearchAttributes
		by, _ := attrs.GetKeyword(temporal.NewSearchAttributeKeyKeyword("TemporalScheduledById"))
		scheduled, _ := attrs.GetTime(temporal.NewSearchAttributeKeyTime("TemporalScheduledStartTime"))
		if by != "skipping" || !scheduled.Equal(at) {
			t.Errorf("day %d: TemporalScheduledById %q, TemporalScheduledStartTime %v", day, by, scheduled)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var notFound *serviceerror.NotFound
	for {
		_, err := h.Describe(ctx)
		if errors.As(err, &notFound) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
			t.Fatal("the schedule, out of actions, did not end a week after its last")
		case <-time.After(5 * time.Millisecond):
		}
	}
	if got, want := srv.Now(), nine.AddDate(0, 0, 8); got.Before(want) {
		t.Errorf("the schedule ended at %v, before a week after its last action (%v)", got, want)
	}
}
