package client_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
)

// backfilledSchedule creates a paused schedule acting every minute, with
// overlap as its policy, and backfills five of its minutes in the past,
// which it returns. Its workflows run on a task queue no worker polls, so
// each stays running until the schedule or the test closes it.
func backfilledSchedule(t *testing.T, c client.Client, overlap enumspb.ScheduleOverlapPolicy) (client.ScheduleHandle, []time.Time) {
	t.Helper()
	h := createSchedule(t, c, client.ScheduleOptions{
		Spec:    client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Minute}}},
		Action:  idleAction(t),
		Paused:  true,
		Overlap: overlap,
	})
	first := time.Now().Add(-time.Hour).Truncate(time.Minute)
	var times []time.Time
	for i := range 5 {
		times = append(times, first.Add(time.Duration(i)*time.Minute))
	}
	// The range excludes its start and includes its end.
	err := h.Backfill(ctxFor(t), client.ScheduleBackfillOptions{Backfill: []client.ScheduleBackfill{{
		Start:   first.Add(-time.Second),
		End:     times[4],
		Overlap: overlap,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	return h, times
}

// terminateRunning terminates the schedule's running workflows, which
// lets it start what it buffered.
func terminateRunning(t *testing.T, c client.Client, d *client.ScheduleDescription) {
	t.Helper()
	for _, w := range d.Info.RunningWorkflows {
		if err := c.TerminateWorkflow(ctxFor(t), w.WorkflowID, "", "the test moves the schedule on"); err != nil {
			t.Fatal(err)
		}
	}
}

// workflowStatus is the status of the run a schedule started.
func workflowStatus(t *testing.T, c client.Client, w client.ScheduleWorkflowExecution) enumspb.WorkflowExecutionStatus {
	t.Helper()
	d, err := c.DescribeWorkflow(ctxFor(t), w.WorkflowID, w.FirstExecutionRunID)
	if err != nil {
		t.Fatal(err)
	}
	return d.WorkflowExecutionMetadata.Status
}

func TestScheduleBackfillOverlapPolicies(t *testing.T) {
	c := dial(t)
	t.Run("allow all starts every backfilled action", func(t *testing.T) {
		t.Parallel()
		h, _ := backfilledSchedule(t, c, enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL)
		d := describeUntil(t, h, "five actions", func(d *client.ScheduleDescription) bool { return d.Info.NumActions == 5 })
		if d.Info.NumActionsSkippedOverlap != 0 {
			t.Errorf("%d actions skipped", d.Info.NumActionsSkippedOverlap)
		}
	})
	t.Run("skip starts the first and drops the rest", func(t *testing.T) {
		t.Parallel()
		h, _ := backfilledSchedule(t, c, enumspb.SCHEDULE_OVERLAP_POLICY_SKIP)
		d := describeUntil(t, h, "four skipped", func(d *client.ScheduleDescription) bool { return d.Info.NumActionsSkippedOverlap == 4 })
		if d.Info.NumActions != 1 || len(d.Info.RunningWorkflows) != 1 {
			t.Errorf("%d actions, running %v; want one", d.Info.NumActions, d.Info.RunningWorkflows)
		}
	})
	t.Run("buffer one keeps one for later", func(t *testing.T) {
		t.Parallel()
		h, _ := backfilledSchedule(t, c, enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE)
		d := describeUntil(t, h, "three skipped", func(d *client.ScheduleDescription) bool {
			return d.Info.NumActionsSkippedOverlap == 3 && len(d.Info.RunningWorkflows) == 1
		})
		if d.Info.NumActions != 1 {
			t.Errorf("%d actions before the first workflow closed, want 1", d.Info.NumActions)
		}
		terminateRunning(t, c, d)
		d = describeUntil(t, h, "the buffered action", func(d *client.ScheduleDescription) bool {
			return d.Info.NumActions == 2 && len(d.Info.RunningWorkflows) == 1
		})
		terminateRunning(t, c, d)
		d = describeUntil(t, h, "nothing running", func(d *client.ScheduleDescription) bool { return len(d.Info.RunningWorkflows) == 0 })
		if d.Info.NumActions != 2 {
			t.Errorf("%d actions, want 2: only one was buffered", d.Info.NumActions)
		}
	})
	t.Run("buffer all starts each in turn", func(t *testing.T) {
		t.Parallel()
		h, _ := backfilledSchedule(t, c, enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL)
		for n := 1; n <= 5; n++ {
			d := describeUntil(t, h, fmt.Sprintf("action %d running", n), func(d *client.ScheduleDescription) bool {
				return d.Info.NumActions == n && len(d.Info.RunningWorkflows) == 1
			})
			if d.Info.NumActionsSkippedOverlap != 0 {
				t.Fatalf("%d actions skipped", d.Info.NumActionsSkippedOverlap)
			}
			terminateRunning(t, c, d)
		}
	})
	// Cancel-other and terminate-other keep only the latest of the
	// actions due together; an action due while a workflow runs cancels
	// or terminates it, and starts once it has closed.
	t.Run("cancel other asks the running workflow to cancel", func(t *testing.T) {
		t.Parallel()
		h, times := backfilledSchedule(t, c, enumspb.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER)
		d := describeUntil(t, h, "one running", func(d *client.ScheduleDescription) bool { return len(d.Info.RunningWorkflows) == 1 })
		if d.Info.NumActions != 1 || !d.Info.RecentActions[0].ScheduleTime.Equal(times[len(times)-1]) {
			t.Fatalf("recent actions %+v: want only the last backfilled time, %v", d.Info.RecentActions, times[len(times)-1])
		}
		first := d.Info.RunningWorkflows[0]
		if err := h.Trigger(ctxFor(t), client.ScheduleTriggerOptions{}); err != nil {
			t.Fatal(err)
		}
		// No worker runs the workflow, so it stays running with the
		// cancellation requested, and the triggered action waits for it.
		deadline := time.Now().Add(30 * time.Second)
		for findEvent(history(t, c, first.WorkflowID, first.FirstExecutionRunID), enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED) == nil {
			if time.Now().After(deadline) {
				t.Fatal("the running workflow was not asked to cancel within 30s")
			}
			time.Sleep(200 * time.Millisecond)
		}
		if d, _ := h.Describe(ctxFor(t)); d.Info.NumActions != 1 {
			t.Errorf("%d actions while the first is still canceling, want 1", d.Info.NumActions)
		}
		terminateRunning(t, c, d)
		describeUntil(t, h, "the triggered action", func(d *client.ScheduleDescription) bool {
			return d.Info.NumActions == 2 && len(d.Info.RunningWorkflows) == 1 && d.Info.RunningWorkflows[0] != first
		})
	})
	t.Run("terminate other replaces the running workflow", func(t *testing.T) {
		t.Parallel()
		h, times := backfilledSchedule(t, c, enumspb.SCHEDULE_OVERLAP_POLICY_TERMINATE_OTHER)
		d := describeUntil(t, h, "one running", func(d *client.ScheduleDescription) bool { return len(d.Info.RunningWorkflows) == 1 })
		if d.Info.NumActions != 1 || !d.Info.RecentActions[0].ScheduleTime.Equal(times[len(times)-1]) {
			t.Fatalf("recent actions %+v: want only the last backfilled time, %v", d.Info.RecentActions, times[len(times)-1])
		}
		first := d.Info.RunningWorkflows[0]
		if err := h.Trigger(ctxFor(t), client.ScheduleTriggerOptions{}); err != nil {
			t.Fatal(err)
		}
		d = describeUntil(t, h, "the triggered action", func(d *client.ScheduleDescription) bool {
			return d.Info.NumActions == 2 && len(d.Info.RunningWorkflows) == 1 && d.Info.RunningWorkflows[0] != first
		})
		if status := workflowStatus(t, c, first); status != enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED {
			t.Errorf("the first workflow is %v, want terminated", status)
		}
		if status := workflowStatus(t, c, d.Info.RunningWorkflows[0]); status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			t.Errorf("the triggered workflow is %v, want running", status)
		}
	})
}

func TestScheduleUpdate(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	keyword := temporal.NewSearchAttributeKeyKeyword(keywordAttribute)
	h := createSchedule(t, c, client.ScheduleOptions{
		Spec:                  client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}},
		Action:                idleAction(t),
		Note:                  "v1",
		TypedSearchAttributes: temporal.NewSearchAttributes(keyword.ValueSet("v1")),
	})
	before, err := h.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	originalArgs := before.Schedule.Action.(*client.ScheduleWorkflowAction).Args

	// Writing back what was read changes nothing that was not touched:
	// arguments go back as the payloads they were.
	err = h.Update(ctx, client.ScheduleUpdateOptions{DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
		s := in.Description.Schedule
		s.Spec.Intervals = []client.ScheduleIntervalSpec{{Every: 2 * time.Hour, Offset: time.Minute}}
		s.State.Note = "v2"
		s.Policy.Overlap = enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL
		s.Action.(*client.ScheduleWorkflowAction).Memo = map[string]any{"added": 7}
		sa := temporal.NewSearchAttributes(keyword.ValueSet("v2"))
		return &client.ScheduleUpdate{Schedule: &s, TypedSearchAttributes: &sa}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	after, err := h.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	action := after.Schedule.Action.(*client.ScheduleWorkflowAction)
	if got := after.Schedule.Spec.Intervals; len(got) != 1 || got[0].Every != 2*time.Hour || got[0].Offset != time.Minute {
		t.Errorf("intervals after the update: %+v", got)
	}
	if after.Schedule.State.Note != "v2" || after.Schedule.Policy.Overlap != enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL {
		t.Errorf("state %+v, policy %+v after the update", after.Schedule.State, after.Schedule.Policy)
	}
	var added int
	if err := converter.GetDefaultDataConverter().FromPayload(action.Memo["added"].(*commonpb.Payload), &added); err != nil || added != 7 {
		t.Errorf("memo added = %d, %v", added, err)
	}
	for i, arg := range action.Args {
		if !bytesEqual(arg.(*commonpb.Payload), originalArgs[i].(*commonpb.Payload)) {
			t.Errorf("argument %d changed on the way back: %v, was %v", i+1, arg, originalArgs[i])
		}
	}
	// The scheduler upserts its search attributes after the update.
	after = describeUntil(t, h, "the new search attribute", func(d *client.ScheduleDescription) bool {
		v, _ := d.TypedSearchAttributes.GetKeyword(keyword)
		return v == "v2"
	})
	if after.Info.LastUpdateAt.IsZero() {
		t.Error("LastUpdateAt not set by the update")
	}

	skipped := after
	err = h.Update(ctx, client.ScheduleUpdateOptions{DoUpdate: func(client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
		return nil, temporal.ErrSkipScheduleUpdate
	}})
	if err != nil {
		t.Fatalf("a skipped update returned %v", err)
	}
	if after, err = h.Describe(ctx); err != nil {
		t.Fatal(err)
	}
	if !after.Info.LastUpdateAt.Equal(skipped.Info.LastUpdateAt) || after.Schedule.State.Note != "v2" {
		t.Errorf("a skipped update changed the schedule: updated %v (was %v), note %q", after.Info.LastUpdateAt, skipped.Info.LastUpdateAt, after.Schedule.State.Note)
	}

	refused := errors.New("no, not now")
	err = h.Update(ctx, client.ScheduleUpdateOptions{DoUpdate: func(client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
		return nil, refused
	}})
	if !errors.Is(err, refused) {
		t.Errorf("DoUpdate's error came back as %v", err)
	}
	err = h.Update(ctx, client.ScheduleUpdateOptions{DoUpdate: func(client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
		return &client.ScheduleUpdate{}, nil
	}})
	if err == nil || !strings.Contains(err.Error(), "ErrSkipScheduleUpdate") {
		t.Errorf("an update without a schedule: %v", err)
	}
}

func bytesEqual(a, b *commonpb.Payload) bool {
	return string(a.GetData()) == string(b.GetData()) &&
		string(a.GetMetadata()[converter.MetadataEncoding]) == string(b.GetMetadata()[converter.MetadataEncoding])
}

func TestScheduleLimitedActionsRunOut(t *testing.T) {
	c := dial(t)
	action := idleAction(t)
	h := createSchedule(t, c, client.ScheduleOptions{
		Spec:             client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Second}}},
		Action:           action,
		Overlap:          enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL,
		RemainingActions: 2,
	})
	d := describeUntil(t, h, "the two allowed actions", func(d *client.ScheduleDescription) bool { return d.Info.NumActions >= 2 })
	if !d.Schedule.State.LimitedActions || d.Schedule.State.RemainingActions != 0 {
		t.Errorf("state after the actions ran out: %+v", d.Schedule.State)
	}
	// With none left, the spec acts no more (it would every second).
	time.Sleep(3 * time.Second)
	if d, err := h.Describe(ctxFor(t)); err != nil || d.Info.NumActions != 2 {
		t.Fatalf("after the actions ran out: %d actions (%v), want 2", d.Info.NumActions, err)
	}
}

func TestScheduleCreateTwiceAndDelete(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	options := client.ScheduleOptions{
		ID:     workflowID(t),
		Spec:   client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}},
		Action: idleAction(t),
	}
	h := createSchedule(t, c, options)
	if _, err := c.ScheduleClient().Create(ctx, options); !errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		t.Errorf("creating the schedule again: %v, want ErrScheduleAlreadyRunning", err)
	}
	if got := c.ScheduleClient().GetHandle(ctx, options.ID).GetID(); got != options.ID {
		t.Errorf("handle ID %q", got)
	}
	if err := h.Delete(ctx); err != nil {
		t.Fatal(err)
	}
	var notFound *serviceerror.NotFound
	if _, err := h.Describe(ctx); !errors.As(err, &notFound) {
		t.Errorf("describing a deleted schedule: %T %v, want NotFound", err, err)
	}
	if err := h.Delete(ctx); !errors.As(err, &notFound) {
		t.Errorf("deleting a deleted schedule: %T %v, want NotFound", err, err)
	}
}

func TestScheduleListWithQuery(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	tag := workflowID(t)
	keyword := temporal.NewSearchAttributeKeyKeyword(keywordAttribute)
	ids := map[string]bool{}
	for _, paused := range []bool{false, true} {
		h := createSchedule(t, c, client.ScheduleOptions{
			Spec:                  client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}},
			Action:                idleAction(t),
			Paused:                paused,
			Memo:                  map[string]any{"paused": paused},
			TypedSearchAttributes: temporal.NewSearchAttributes(keyword.ValueSet(tag)),
		})
		ids[h.GetID()] = paused
	}
	query := fmt.Sprintf("%s = '%s'", keywordAttribute, tag)
	list := func(query string, pageSize int) []*client.ScheduleListEntry {
		it, err := c.ScheduleClient().List(ctx, client.ScheduleListOptions{Query: query, PageSize: pageSize})
		if err != nil {
			t.Fatal(err)
		}
		var entries []*client.ScheduleListEntry
		for it.HasNext() {
			e, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			entries = append(entries, e)
		}
		return entries
	}
	// Visibility catches up with the schedules eventually; one entry per
	// page makes the iterator fetch pages.
	var entries []*client.ScheduleListEntry
	eventually(t, func() bool { entries = list(query, 1); return len(entries) == 2 })
	for _, e := range entries {
		paused, ok := ids[e.ID]
		if !ok || e.Paused != paused || e.WorkflowType.Name != "ScheduledGreeting" {
			t.Errorf("entry %+v: want one of %v with its paused state and workflow type", e, ids)
		}
		var memoPaused bool
		if err := converter.GetDefaultDataConverter().FromPayload(e.Memo.GetFields()["paused"], &memoPaused); err != nil || memoPaused != paused {
			t.Errorf("entry %s memo paused = %v, %v", e.ID, memoPaused, err)
		}
		if e.Spec == nil || len(e.Spec.Intervals) != 1 {
			t.Errorf("entry %s spec %+v", e.ID, e.Spec)
		}
	}
	eventually(t, func() bool {
		entries = list(query+" AND TemporalSchedulePaused = true", 0)
		return len(entries) == 1 && ids[entries[0].ID]
	})

	it, err := c.ScheduleClient().List(ctx, client.ScheduleListOptions{Query: "NoSuchAttribute = 1"})
	if err != nil {
		t.Fatal(err)
	}
	if !it.HasNext() {
		t.Fatal("a bad query: the iterator should have the error to give")
	}
	var invalid *serviceerror.InvalidArgument
	if _, err := it.Next(); !errors.As(err, &invalid) {
		t.Errorf("a bad query: %T %v, want InvalidArgument", err, err)
	}
	if it.HasNext() {
		t.Error("the iterator goes on after its error")
	}
}

func TestScheduleBadOptionsSendNothing(t *testing.T) {
	c := dial(t)
	ctx := ctxFor(t)
	spec := client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}}
	for _, tc := range []struct {
		name    string
		options client.ScheduleOptions
		want    string
	}{
		{"no ID", client.ScheduleOptions{Spec: spec, Action: idleAction(t)}, "ID is empty"},
		{"no action", client.ScheduleOptions{ID: workflowID(t), Spec: spec}, "has no Action"},
		{"no task queue", client.ScheduleOptions{ID: workflowID(t), Spec: spec, Action: &client.ScheduleWorkflowAction{Workflow: ScheduledGreeting, Args: []any{"x", 1}}}, "no TaskQueue"},
		{"wrong arguments", client.ScheduleOptions{ID: workflowID(t), Spec: spec, Action: &client.ScheduleWorkflowAction{Workflow: ScheduledGreeting, Args: []any{1}, TaskQueue: "q"}}, "takes 2 argument"},
		{"both search attribute forms", client.ScheduleOptions{
			ID: workflowID(t), Spec: spec, Action: idleAction(t),
			//lint:ignore SA1019 the untyped form is deprecated but supported.
			SearchAttributes:      map[string]any{keywordAttribute: "a"},
			TypedSearchAttributes: temporal.NewSearchAttributes(temporal.NewSearchAttributeKeyKeyword(keywordAttribute).ValueSet("b")),
		}, "both SearchAttributes and TypedSearchAttributes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.ScheduleClient().Create(ctx, tc.options)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
			if tc.options.ID == "" {
				return
			}
			var notFound *serviceerror.NotFound
			if _, err := c.ScheduleClient().GetHandle(ctx, tc.options.ID).Describe(ctx); !errors.As(err, &notFound) {
				t.Errorf("the schedule exists after a refused create: %v", err)
			}
		})
	}
}

// scheduleHeaderInterceptor writes a header on the workflows of every
// schedule created through it.
type scheduleHeaderInterceptor struct {
	interceptor.ClientInterceptorBase
}

func (*scheduleHeaderInterceptor) InterceptClient(next interceptor.ClientOutboundInterceptor) interceptor.ClientOutboundInterceptor {
	return &scheduleHeaderOutbound{ClientOutboundInterceptorBase: interceptor.ClientOutboundInterceptorBase{Next: next}}
}

type scheduleHeaderOutbound struct {
	interceptor.ClientOutboundInterceptorBase
}

func (o *scheduleHeaderOutbound) CreateSchedule(ctx context.Context, in *interceptor.ScheduleClientCreateInput) (client.ScheduleHandle, error) {
	payload, err := converter.GetDefaultDataConverter().ToPayload("schedule " + in.Options.ID)
	if err != nil {
		return nil, err
	}
	interceptor.Header(ctx)["made-by"] = payload
	return o.Next.CreateSchedule(ctx, in)
}

func TestScheduleCreateIsIntercepted(t *testing.T) {
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Interceptors: []interceptor.ClientInterceptor{&scheduleHeaderInterceptor{}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	h := createSchedule(t, c, client.ScheduleOptions{
		Spec:   client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}},
		Action: idleAction(t),
	})
	resp, err := c.WorkflowService().DescribeSchedule(ctxFor(t), &workflowservice.DescribeScheduleRequest{Namespace: client.DefaultNamespace, ScheduleId: h.GetID()})
	if err != nil {
		t.Fatal(err)
	}
	var madeBy string
	header := resp.GetSchedule().GetAction().GetStartWorkflow().GetHeader().GetFields()["made-by"]
	if err := converter.GetDefaultDataConverter().FromPayload(header, &madeBy); err != nil || madeBy != "schedule "+h.GetID() {
		t.Errorf("the action's header made-by = %q, %v", madeBy, err)
	}
}
