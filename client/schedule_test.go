package client_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// reversingCodec stands for a user's codec (encryption, compression): it
// reverses the bytes and says so in the encoding, so a payload shows
// whether it went through the client's data converter.
type reversingCodec struct{}

const reversedEncoding = "binary/reversed"

func (reversingCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		data, err := p.Marshal()
		if err != nil {
			return nil, err
		}
		slices.Reverse(data)
		out[i] = &commonpb.Payload{Metadata: map[string][]byte{converter.MetadataEncoding: []byte(reversedEncoding)}, Data: data}
	}
	return out, nil
}

func (reversingCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != reversedEncoding {
			out[i] = p
			continue
		}
		data := slices.Clone(p.GetData())
		slices.Reverse(data)
		out[i] = &commonpb.Payload{}
		if err := out[i].Unmarshal(data); err != nil {
			return nil, err
		}
	}
	return out, nil
}

var reversingConverter = converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), reversingCodec{})

// ScheduledGreeting is the workflow the schedules of these tests start.
func ScheduledGreeting(_ workflow.Context, name string, times int) (string, error) {
	return strings.Repeat(name, times), nil
}

// createSchedule creates a schedule with an ID unique to the test and
// deletes it when the test ends.
func createSchedule(t *testing.T, c client.Client, options client.ScheduleOptions) client.ScheduleHandle {
	t.Helper()
	if options.ID == "" {
		options.ID = workflowID(t)
	}
	h, err := c.ScheduleClient().Create(ctxFor(t), options)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = h.Delete(ctx)
	})
	return h
}

// idleAction starts ScheduledGreeting on a task queue no worker polls, so
// the workflows stay running.
func idleAction(t *testing.T) *client.ScheduleWorkflowAction {
	return &client.ScheduleWorkflowAction{
		ID:        workflowID(t) + "-wf",
		Workflow:  ScheduledGreeting,
		Args:      []any{"x", 1},
		TaskQueue: "schedule-tests-idle",
	}
}

// describeUntil polls the schedule until done accepts its description;
// the scheduler acts asynchronously.
func describeUntil(t *testing.T, h client.ScheduleHandle, what string, done func(*client.ScheduleDescription) bool) *client.ScheduleDescription {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		d, err := h.Describe(ctxFor(t))
		if err != nil {
			t.Fatal(err)
		}
		if done(d) {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("schedule %s: %s not reached within 30s; last info: %+v", h.GetID(), what, d.Info)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestScheduleIntervalStartsWorkflows(t *testing.T) {
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), DataConverter: reversingConverter})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	taskQueue := workflowID(t) + "-tq"
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(ScheduledGreeting)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)

	keyword := temporal.NewSearchAttributeKeyKeyword(keywordAttribute)
	actionID := workflowID(t) + "-wf"
	h := createSchedule(t, c, client.ScheduleOptions{
		Spec: client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: 2 * time.Second}}, Jitter: 500 * time.Millisecond},
		Action: &client.ScheduleWorkflowAction{
			ID:                    actionID,
			Workflow:              ScheduledGreeting,
			Args:                  []any{"hi", 3},
			TaskQueue:             taskQueue,
			Memo:                  map[string]any{"owner": "ops"},
			TypedSearchAttributes: temporal.NewSearchAttributes(keyword.ValueSet("from-schedule")),
			StaticSummary:         "greets",
		},
		Memo:                  map[string]any{"team": "platform"},
		TypedSearchAttributes: temporal.NewSearchAttributes(keyword.ValueSet("the-schedule")),
	})

	d := describeUntil(t, h, "two workflows completed", func(d *client.ScheduleDescription) bool {
		return d.Info.NumActions >= 2 && len(d.Info.RecentActions) >= 2
	})
	ctx := ctxFor(t)
	for _, action := range d.Info.RecentActions[:2] {
		started := action.StartWorkflowResult
		if started == nil || !strings.HasPrefix(started.WorkflowID, actionID+"-") {
			t.Fatalf("recent action %+v: want a workflow whose ID starts with %q", action, actionID+"-")
		}
		var greeting string
		if err := c.GetWorkflow(ctx, started.WorkflowID, started.FirstExecutionRunID).Get(ctx, &greeting); err != nil {
			t.Fatal(err)
		}
		if greeting != "hihihi" {
			t.Errorf("workflow %s returned %q, want the arguments given to the schedule (\"hihihi\")", started.WorkflowID, greeting)
		}
		wd, err := c.DescribeWorkflow(ctx, started.WorkflowID, started.FirstExecutionRunID)
		if err != nil {
			t.Fatal(err)
		}
		var owner string
		if err := wd.GetMemoValue("owner", &owner); err != nil || owner != "ops" {
			t.Errorf("workflow memo owner = %q, %v; want ops", owner, err)
		}
		if v, _ := wd.TypedSearchAttributes.GetKeyword(keyword); v != "from-schedule" {
			t.Errorf("workflow search attribute = %q, want from-schedule", v)
		}
		if summary, _ := wd.GetStaticSummary(); summary != "greets" {
			t.Errorf("workflow summary = %q", summary)
		}
		if action.ActualTime.Before(action.ScheduleTime) {
			t.Errorf("action taken at %v, before its time %v", action.ActualTime, action.ScheduleTime)
		}
	}

	// The description gives the arguments and memo as the client's
	// converter encoded them; they decode with it.
	action := d.Schedule.Action.(*client.ScheduleWorkflowAction)
	if action.Workflow != "ScheduledGreeting" || action.TaskQueue != taskQueue || action.ID != actionID {
		t.Errorf("action read back as %+v", action)
	}
	var name string
	var times int
	arg0, _ := action.Args[0].(*commonpb.Payload)
	arg1, _ := action.Args[1].(*commonpb.Payload)
	if string(arg0.GetMetadata()[converter.MetadataEncoding]) != reversedEncoding {
		t.Errorf("argument not encoded by the client's converter: %v", arg0)
	}
	if err := reversingConverter.FromPayload(arg0, &name); err != nil || name != "hi" {
		t.Errorf("argument 1 decodes to %q, %v", name, err)
	}
	if err := reversingConverter.FromPayload(arg1, &times); err != nil || times != 3 {
		t.Errorf("argument 2 decodes to %d, %v", times, err)
	}
	var owner, team string
	if err := reversingConverter.FromPayload(action.Memo["owner"].(*commonpb.Payload), &owner); err != nil || owner != "ops" {
		t.Errorf("action memo owner decodes to %q, %v", owner, err)
	}
	if err := reversingConverter.FromPayload(d.Memo.GetFields()["team"], &team); err != nil || team != "platform" {
		t.Errorf("schedule memo team decodes to %q, %v", team, err)
	}
	if v, _ := action.TypedSearchAttributes.GetKeyword(keyword); v != "from-schedule" {
		t.Errorf("action search attribute read back as %q", v)
	}
	if v, _ := d.TypedSearchAttributes.GetKeyword(keyword); v != "the-schedule" {
		t.Errorf("schedule search attribute read back as %q", v)
	}
	if action.StaticSummary != "greets" {
		t.Errorf("summary read back as %q", action.StaticSummary)
	}
	if got := d.Schedule.Spec; len(got.Intervals) != 1 || got.Intervals[0].Every != 2*time.Second || got.Jitter != 500*time.Millisecond {
		t.Errorf("spec read back as %+v", got)
	}
	if d.Info.CreatedAt.IsZero() || len(d.Info.NextActionTimes) == 0 {
		t.Errorf("info: created %v, next actions %v", d.Info.CreatedAt, d.Info.NextActionTimes)
	}
}

func TestScheduleCalendarAcrossDaylightSavingChange(t *testing.T) {
	c := dial(t)
	// New York moves its clocks forward on Sunday 10 March 2030, so noon
	// there is 17:00 UTC before and 16:00 UTC after. The 11th is skipped.
	from := time.Date(2030, 3, 8, 0, 0, 0, 0, time.UTC)
	to := time.Date(2030, 3, 13, 0, 0, 0, 0, time.UTC)
	// A skip calendar matches times like any other: the whole day takes
	// every hour.
	skip := []client.ScheduleCalendarSpec{{
		Year:       []client.ScheduleRange{{Start: 2030}},
		Month:      []client.ScheduleRange{{Start: 3}},
		DayOfMonth: []client.ScheduleRange{{Start: 11}},
		Hour:       []client.ScheduleRange{{Start: 0, End: 23}},
	}}
	want := []time.Time{
		time.Date(2030, 3, 8, 17, 0, 0, 0, time.UTC),
		time.Date(2030, 3, 9, 17, 0, 0, 0, time.UTC),
		time.Date(2030, 3, 10, 16, 0, 0, 0, time.UTC),
		time.Date(2030, 3, 12, 16, 0, 0, 0, time.UTC),
	}
	for _, tc := range []struct {
		name string
		spec client.ScheduleSpec
	}{
		{"calendar", client.ScheduleSpec{Calendars: []client.ScheduleCalendarSpec{{Hour: []client.ScheduleRange{{Start: 12}}, Comment: "noon"}}}},
		{"cron", client.ScheduleSpec{CronExpressions: []string{"0 12 * * *"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec
			spec.StartAt, spec.EndAt, spec.Skip, spec.TimeZoneName = from, to, skip, "America/New_York"
			h := createSchedule(t, c, client.ScheduleOptions{Spec: spec, Action: idleAction(t)})
			d, err := h.Describe(ctxFor(t))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(d.Info.NextActionTimes, want, time.Time.Equal) {
				t.Errorf("next action times %v, want %v", d.Info.NextActionTimes, want)
			}
			got := d.Schedule.Spec
			if got.TimeZoneName != "America/New_York" || !got.StartAt.Equal(from) || !got.EndAt.Equal(to) || len(got.Skip) != 1 || len(got.Calendars) != 1 {
				t.Errorf("spec read back as %+v", got)
			}
			// The server gives ranges back whole: End and Step filled in.
			if cal := got.Calendars[0]; !slices.Equal(cal.Hour, []client.ScheduleRange{{Start: 12, End: 12, Step: 1}}) {
				t.Errorf("calendar read back as %+v", cal)
			}
		})
	}
}

func TestSchedulePauseTriggerUnpause(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	h := createSchedule(t, c, client.ScheduleOptions{
		Spec:   client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Second}}},
		Action: idleAction(t),
		Paused: true,
		Note:   "created paused",
	})
	d, err := h.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Schedule.State.Paused || d.Schedule.State.Note != "created paused" || d.Info.NumActions != 0 {
		t.Fatalf("new paused schedule: state %+v, %d actions", d.Schedule.State, d.Info.NumActions)
	}

	// A trigger acts even on a paused schedule, with its own overlap
	// policy: allowing all, its workflow does not hold back the spec's.
	if err := h.Trigger(ctx, client.ScheduleTriggerOptions{Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL}); err != nil {
		t.Fatal(err)
	}
	describeUntil(t, h, "the triggered action", func(d *client.ScheduleDescription) bool { return d.Info.NumActions == 1 })

	if err := h.Unpause(ctx, client.ScheduleUnpauseOptions{Note: "go"}); err != nil {
		t.Fatal(err)
	}
	d = describeUntil(t, h, "an action of the unpaused spec", func(d *client.ScheduleDescription) bool { return d.Info.NumActions >= 2 })
	if d.Schedule.State.Paused || d.Schedule.State.Note != "go" {
		t.Errorf("unpaused state %+v", d.Schedule.State)
	}

	if err := h.Pause(ctx, client.SchedulePauseOptions{}); err != nil {
		t.Fatal(err)
	}
	if d, err = h.Describe(ctx); err != nil {
		t.Fatal(err)
	}
	if !d.Schedule.State.Paused || d.Schedule.State.Note != "Paused via Go SDK" {
		t.Errorf("paused state %+v", d.Schedule.State)
	}
	if err := h.Unpause(ctx, client.ScheduleUnpauseOptions{}); err != nil {
		t.Fatal(err)
	}
	if d, err = h.Describe(ctx); err != nil {
		t.Fatal(err)
	}
	if d.Schedule.State.Paused || d.Schedule.State.Note != "Unpaused via Go SDK" {
		t.Errorf("state after an unpause without a note: %+v", d.Schedule.State)
	}
}

func TestScheduleTriggerImmediatelyAndBackfillOnCreate(t *testing.T) {
	c := dial(t)
	base := time.Now().Add(-time.Hour).Truncate(time.Minute)
	h := createSchedule(t, c, client.ScheduleOptions{
		Spec:               client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Minute}}},
		Action:             idleAction(t),
		Paused:             true,
		Overlap:            enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL,
		TriggerImmediately: true,
		ScheduleBackfill:   []client.ScheduleBackfill{{Start: base.Add(-time.Second), End: base.Add(time.Minute), Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL}},
	})
	d := describeUntil(t, h, "one triggered and two backfilled actions", func(d *client.ScheduleDescription) bool { return d.Info.NumActions == 3 })
	var backfilled int
	for _, a := range d.Info.RecentActions {
		if !a.ScheduleTime.Before(base) && !a.ScheduleTime.After(base.Add(time.Minute)) {
			backfilled++
		}
	}
	if backfilled != 2 {
		t.Errorf("recent actions %+v: want two at the backfilled times %v and %v", d.Info.RecentActions, base, base.Add(time.Minute))
	}
}
