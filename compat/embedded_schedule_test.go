package compat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// ScheduledReport is the workflow the schedules of
// TestEmbeddedSchedulesMatchTheDevServer start.
func ScheduledReport(ctx workflow.Context) (string, error) {
	return "reported", nil
}

// scheduleStart is where the specs' times begin: far enough ahead that
// none acts during the test, and fixed, so that the times each server
// lists are the same.
var scheduleStart = time.Date(2031, 3, 1, 0, 0, 0, 0, time.UTC)

// observedSchedules are what a client reads back of the same schedules on
// one server: each value written with the schedule's unique ID replaced
// by "<id>".
type observedSchedules map[string]string

// observeSchedules creates, describes, triggers and deletes schedules on
// the server c reaches, with a worker of its own, and writes down what
// the client reads back.
func observeSchedules(t *testing.T, c client.Client, suffix string) observedSchedules {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	queue := "schedules-" + suffix
	w := worker.New(c, queue, worker.Options{})
	w.RegisterWorkflowWithOptions(ScheduledReport, workflow.RegisterOptions{Name: "ScheduledReport"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	out := observedSchedules{}
	note := func(key string, format string, args ...any) {
		out[key] = strings.ReplaceAll(fmt.Sprintf(format, args...), suffix, "<id>")
	}
	action := func(id string) *client.ScheduleWorkflowAction {
		return &client.ScheduleWorkflowAction{ID: id + "-wf", Workflow: "ScheduledReport", TaskQueue: queue, Memo: map[string]any{"team": "platform"}}
	}
	create := func(options client.ScheduleOptions) client.ScheduleHandle {
		t.Helper()
		h, err := c.ScheduleClient().Create(ctx, options)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = h.Delete(context.Background()) })
		return h
	}
	describe := func(h client.ScheduleHandle) *client.ScheduleDescription {
		t.Helper()
		d, err := h.Describe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	// Specs, as each server normalizes them, and the times they name.
	specs := map[string]client.ScheduleSpec{
		"calendars": {
			Calendars: []client.ScheduleCalendarSpec{
				{Hour: []client.ScheduleRange{{Start: 9}, {Start: 17}}, DayOfWeek: []client.ScheduleRange{{Start: 1, End: 5}}, Comment: "twice a weekday"},
				{Second: []client.ScheduleRange{{Start: 30}}, Minute: []client.ScheduleRange{{Start: 0, End: 59, Step: 15}}, Hour: []client.ScheduleRange{{Start: 12}},
					DayOfMonth: []client.ScheduleRange{{Start: 1}}, Month: []client.ScheduleRange{{Start: 3, End: 12, Step: 3}}, Year: []client.ScheduleRange{{Start: 2031}}},
			},
			Skip:    []client.ScheduleCalendarSpec{{Hour: []client.ScheduleRange{{Start: 17}}, DayOfWeek: []client.ScheduleRange{{Start: 5}}}},
			StartAt: scheduleStart, EndAt: scheduleStart.AddDate(1, 0, 0),
		},
		"cron strings": {
			CronExpressions: []string{"0 9 * * MON-FRI", "*/20 8-18/2 1,15 jan-mar,jul *", "0 0 * * 3-7", "5 4 * * sun # early", "@every 90m/15m", "@hourly"},
			StartAt:         scheduleStart,
		},
		"a cron string's zone": {CronExpressions: []string{"CRON_TZ=Europe/Paris 30 6 * * *"}, StartAt: scheduleStart},
		"a time zone and its daylight saving change": {
			CronExpressions: []string{"30 1,2 * * *"}, TimeZoneName: "America/New_York", StartAt: time.Date(2031, 3, 8, 0, 0, 0, 0, time.UTC),
		},
		"a repeated hour": {
			CronExpressions: []string{"30 1 * * *"}, TimeZoneName: "America/New_York", StartAt: time.Date(2031, 11, 1, 0, 0, 0, 0, time.UTC),
		},
		"intervals": {Intervals: []client.ScheduleIntervalSpec{{Every: 36 * time.Hour, Offset: 5 * time.Hour}, {Every: 7 * 24 * time.Hour}}, StartAt: scheduleStart},
	}
	for name, spec := range specs {
		id := "spec-" + strings.ReplaceAll(name, " ", "-") + "-" + suffix
		h := create(client.ScheduleOptions{ID: id, Spec: spec, Action: action(id), Paused: true, Note: "paused to look at"})
		d := describe(h)
		note("spec: "+name, "%+v", *d.Schedule.Spec)
		note("next times: "+name, "%v", d.Info.NextActionTimes)
		note("policy and state: "+name, "%+v %+v", *d.Schedule.Policy, *d.Schedule.State)
	}

	// Policies and a limited, jittered schedule.
	limited := create(client.ScheduleOptions{
		ID: "limited-" + suffix, Spec: client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}, Jitter: time.Minute, StartAt: scheduleStart},
		Action: action("limited-" + suffix), Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE, CatchupWindow: 5 * time.Second,
		PauseOnFailure: true, RemainingActions: 3,
	})
	d := describe(limited)
	note("limited: policy and state", "%+v %+v", *d.Schedule.Policy, *d.Schedule.State)
	note("limited: spec", "%+v", *d.Schedule.Spec)
	var jittered []string
	for _, at := range d.Info.NextActionTimes {
		jittered = append(jittered, fmt.Sprint(at.Sub(at.Truncate(time.Hour)) < time.Minute))
	}
	note("limited: next times, each within its hour's jitter", "%v", jittered)

	// Bad specs and actions, refused with the same errors.
	for name, spec := range map[string]client.ScheduleSpec{
		"bad cron":     {CronExpressions: []string{"0 25 * * *"}},
		"bad calendar": {Calendars: []client.ScheduleCalendarSpec{{Hour: []client.ScheduleRange{{Start: 30}}}}},
		"bad interval": {Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour, Offset: 2 * time.Hour}}},
		"bad zone":     {CronExpressions: []string{"0 0 * * *"}, TimeZoneName: "Mars/Olympus_Mons"},
	} {
		_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{ID: "bad-" + suffix, Spec: spec, Action: action("bad")})
		var invalid *serviceerror.InvalidArgument
		note("refused: "+name, "%v %v", errors.As(err, &invalid), err)
	}
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{ID: "limited-" + suffix, Action: action("again")})
	note("created twice", "%v", errors.Is(err, temporal.ErrScheduleAlreadyRunning))

	// A triggered action: the workflow's ID and search attributes.
	triggered := create(client.ScheduleOptions{ID: "triggered-" + suffix, Action: action("triggered-" + suffix), Paused: true})
	if err := triggered.Trigger(ctx, client.ScheduleTriggerOptions{}); err != nil {
		t.Fatal(err)
	}
	for d = describe(triggered); len(d.Info.RecentActions) == 0 || len(d.Info.RunningWorkflows) > 0; d = describe(triggered) {
		select {
		case <-ctx.Done():
			t.Fatalf("the triggered action was not taken, or its workflow did not end: %+v", d.Info)
		case <-time.After(20 * time.Millisecond):
		}
	}
	recent := d.Info.RecentActions[0]
	started := recent.StartWorkflowResult
	nominal := recent.ScheduleTime.UTC().Truncate(time.Second)
	note("triggered: action count and workflow ID", "%d %v", d.Info.NumActions,
		started.WorkflowID == "triggered-"+suffix+"-wf-"+nominal.Format(time.RFC3339))
	var result string
	if err := c.GetWorkflow(ctx, started.WorkflowID, started.FirstExecutionRunID).Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	note("triggered: result", "%s", result)
	described, err := c.DescribeWorkflow(ctx, started.WorkflowID, started.FirstExecutionRunID)
	if err != nil {
		t.Fatal(err)
	}
	by, _ := described.TypedSearchAttributes.GetKeyword(temporal.NewSearchAttributeKeyKeyword("TemporalScheduledById"))
	at, _ := described.TypedSearchAttributes.GetTime(temporal.NewSearchAttributeKeyTime("TemporalScheduledStartTime"))
	note("triggered: search attributes", "by %s, at the nominal time %v", by, at.Equal(nominal))
	// The schedule's own: a dev server adds BuildIds to any workflow that
	// ran a task, which is not the schedule's doing.
	var names []string
	for key := range described.TypedSearchAttributes.GetUntypedValues() {
		if strings.HasPrefix(key.GetName(), "TemporalSchedule") {
			names = append(names, key.GetName())
		}
	}
	slices.Sort(names)
	note("triggered: search attribute names", "%v", names)
	note("triggered: memo", "%v", slices.Sorted(mapKeys(described.Memo.GetFields())))
	history := c.GetWorkflowHistory(ctx, started.WorkflowID, started.FirstExecutionRunID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	first, err := history.Next()
	if err != nil {
		t.Fatal(err)
	}
	note("triggered: started by", "%s", first.GetWorkflowExecutionStartedEventAttributes().GetIdentity())

	// A backfill of three past hours, each workflow after the last.
	backfilled := create(client.ScheduleOptions{ID: "backfilled-" + suffix, Spec: client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}},
		Action: action("backfilled-" + suffix), Paused: true})
	end := time.Now().Add(-24 * time.Hour).Truncate(time.Hour)
	err = backfilled.Backfill(ctx, client.ScheduleBackfillOptions{Backfill: []client.ScheduleBackfill{{
		Start: end.Add(-2 * time.Hour), End: end, Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL}}})
	if err != nil {
		t.Fatal(err)
	}
	for d = describe(backfilled); len(d.Info.RecentActions) < 3 || len(d.Info.RunningWorkflows) > 0; d = describe(backfilled) {
		select {
		case <-ctx.Done():
			t.Fatalf("the backfill did not end: %+v", d.Info)
		case <-time.After(20 * time.Millisecond):
		}
	}
	var backfilledIDs []string
	for _, a := range d.Info.RecentActions {
		backfilledIDs = append(backfilledIDs, strings.Replace(a.StartWorkflowResult.WorkflowID, end.Format("2006-01-02T15"), "<end>", 1))
	}
	note("backfilled: workflows", "%v", backfilledIDs)

	// Listed (a dev server lists what its visibility store has caught up on).
	for listed := false; !listed; {
		iter, err := c.ScheduleClient().List(ctx, client.ScheduleListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for iter.HasNext() {
			entry, err := iter.Next()
			if err != nil {
				t.Fatal(err)
			}
			if entry.ID == "limited-"+suffix {
				listed = true
				note("limited: listed", "%s %+v %q %v %d", entry.WorkflowType.Name, *entry.Spec, entry.Note, entry.Paused, len(entry.NextActionTimes))
			}
		}
		select {
		case <-ctx.Done():
			t.Fatal("the schedule was never listed")
		case <-time.After(20 * time.Millisecond):
		}
	}

	// Deleted: gone.
	if err := triggered.Delete(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = triggered.Describe(ctx)
	var notFound *serviceerror.NotFound
	note("deleted: described", "%v", errors.As(err, &notFound))
	return out
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestEmbeddedSchedulesMatchTheDevServer: the same schedules, created,
// described, triggered and deleted with this SDK's client on the dev
// server and on the embedded server, read back the same: the specs as
// the server normalizes them (cron strings and calendars made ranges),
// the times they name, the policies' defaults, the errors of bad specs,
// the started workflow's ID and the search attributes the server gives
// it.
func TestEmbeddedSchedulesMatchTheDevServer(t *testing.T) {
	dev, _ := dialBoth(t)
	srv := startEmbedded(t)
	embedded, err := client.Dial(srv.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer embedded.Close()
	suffix := fmt.Sprint(time.Now().UnixNano())
	onDev, onEmbedded := observeSchedules(t, dev, suffix), observeSchedules(t, embedded, suffix)
	for _, key := range slices.Sorted(mapKeys(onDev)) {
		if onDev[key] != onEmbedded[key] {
			t.Errorf("%s:\n dev server: %s\n embedded:   %s", key, onDev[key], onEmbedded[key])
		}
	}
}

// OfficialScheduledReport is ScheduledReport for go.temporal.io/sdk's
// worker.
func OfficialScheduledReport(ctx officialworkflow.Context) (string, error) {
	return "reported", nil
}

// TestTheOfficialSDKManagesSchedulesOnTheEmbeddedServer: go.temporal.io/sdk's
// own ScheduleClient creates, describes, triggers and deletes a schedule
// on the embedded server, whose workflow its own worker runs.
func TestTheOfficialSDKManagesSchedulesOnTheEmbeddedServer(t *testing.T) {
	srv := startEmbedded(t)
	oc, err := officialclient.Dial(officialclient.Options{HostPort: srv.HostPort(), Namespace: srv.Namespace(), Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()
	ow := officialworker.New(oc, "official-schedules", officialworker.Options{})
	ow.RegisterWorkflowWithOptions(OfficialScheduledReport, officialworkflow.RegisterOptions{Name: "ScheduledReport"})
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h, err := oc.ScheduleClient().Create(ctx, officialclient.ScheduleOptions{
		ID:     "official",
		Spec:   officialclient.ScheduleSpec{CronExpressions: []string{"0 9 * * MON-FRI"}, StartAt: scheduleStart},
		Action: &officialclient.ScheduleWorkflowAction{ID: "official-wf", Workflow: "ScheduledReport", TaskQueue: "official-schedules"},
	})
	if err != nil {
		t.Fatal(err)
	}
	d, err := h.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cal := d.Schedule.Spec.Calendars; len(cal) != 1 || fmt.Sprint(cal[0].Hour, cal[0].DayOfWeek) != "[{9 9 1}] [{1 5 1}]" {
		t.Errorf("described calendars %+v", cal)
	}
	if next := d.Info.NextActionTimes; len(next) == 0 || !next[0].Equal(time.Date(2031, 3, 3, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("next action times %v, want from Monday 2031-03-03 09:00", next)
	}
	if err := h.Trigger(ctx, officialclient.ScheduleTriggerOptions{}); err != nil {
		t.Fatal(err)
	}
	for len(d.Info.RecentActions) == 0 { // Describe fails once ctx ends
		time.Sleep(5 * time.Millisecond)
		if d, err = h.Describe(ctx); err != nil {
			t.Fatal(err)
		}
	}
	started := d.Info.RecentActions[0].StartWorkflowResult
	var result string
	if err := oc.GetWorkflow(ctx, started.WorkflowID, started.FirstExecutionRunID).Get(ctx, &result); err != nil || result != "reported" {
		t.Fatalf("the triggered workflow %s returned %q, %v", started.WorkflowID, result, err)
	}
	if err := h.Delete(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Describe(ctx); err == nil {
		t.Error("the deleted schedule is still described")
	}
}
