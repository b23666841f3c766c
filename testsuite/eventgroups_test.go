package testsuite_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// GroupedWorkflow makes one command of each kind that carries event
// groups: the context's group ("order", with a label) on all of them, and
// the call's own on most.
func GroupedWorkflow(ctx workflow.Context) (string, error) {
	order := workflow.NewEventGroupWithOptions("order", workflow.EventGroupOptions{Label: "place the order"})
	audit := workflow.NewEventGroup("audit")
	ctx = workflow.WithEventGroups(ctx, order)
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		// "order" again: the context's group of that ID wins.
		EventGroups: []workflow.EventGroup{audit, workflow.NewEventGroup("order")},
	})
	var greeting string
	if err := workflow.ExecuteActivity(ctx, Greet, "groups").Get(ctx, &greeting); err != nil {
		return "", err
	}
	timerCtx, cancel := workflow.WithCancel(ctx)
	timer := workflow.NewTimerWithOptions(timerCtx, time.Hour, workflow.TimerOptions{EventGroups: []workflow.EventGroup{audit}})
	cancel()
	timerErr := timer.Get(ctx, nil)
	var n int
	if err := workflow.SideEffectWithOptions(ctx, workflow.SideEffectOptions{EventGroups: []workflow.EventGroup{audit}},
		func(workflow.Context) any { return 7 }).Get(&n); err != nil {
		return "", err
	}
	v := workflow.GetVersionWithOptions(ctx, "grouped-change", workflow.DefaultVersion, 1, workflow.GetVersionOptions{EventGroups: []workflow.EventGroup{audit}})
	if err := workflow.UpsertMemoWithOptions(ctx, map[string]any{"step": "upserted"}, workflow.UpsertMemoOptions{EventGroups: []workflow.EventGroup{audit}}); err != nil {
		return "", err
	}
	workflow.Sleep(ctx, time.Second) // the context's group only
	return fmt.Sprintf("%s %v %d %d", greeting, temporal.IsCanceledError(timerErr), n, v), nil
}

// groupsOf is the label IDs (an update's group as update:<ID>) of each
// event that carries event group markers, by event type.
func groupsOf(t *testing.T, h *historypb.History) []string {
	t.Helper()
	var out []string
	for _, ev := range h.GetEvents() {
		if len(ev.GetEventGroupMarkers()) == 0 {
			continue
		}
		var ids []string
		for _, m := range ev.GetEventGroupMarkers() {
			if u := m.GetInboundUpdate(); u != nil {
				ids = append(ids, "update:"+u.GetInboundUpdateId())
				continue
			}
			ids = append(ids, m.GetLabel().GetId())
		}
		out = append(out, ev.GetEventType().String()+"="+strings.Join(ids, ","))
	}
	return out
}

func TestEventGroupsGoOnTheCommandsOfTheirCalls(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(GroupedWorkflow)
	env.RegisterActivity(Greet)
	env.ExecuteWorkflow(GroupedWorkflow)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var result string
	if err := env.GetWorkflowResult(&result); err != nil || result != "Hello, groups! true 7 1" {
		t.Fatalf("result %q, %v", result, err)
	}
	h, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ActivityTaskScheduled=order,audit",
		"TimerStarted=order,audit",
		"TimerCanceled=order,audit",
		"MarkerRecorded=order,audit",                 // side effect
		"MarkerRecorded=order,audit",                 // version
		"UpsertWorkflowSearchAttributes=order,audit", // the version's
		"WorkflowPropertiesModified=order,audit",
		"TimerStarted=order",
	}
	if got := groupsOf(t, h); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("events with groups:\n got  %v\n want %v", got, want)
	}
	// The label is a JSON string; the ID is the marker's, unencoded.
	for _, ev := range h.GetEvents() {
		if ev.GetEventType() != enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED {
			continue
		}
		label := ev.GetEventGroupMarkers()[0].GetLabel()
		var text string
		if err := converter.GetDefaultDataConverter().FromPayload(label.GetLabel(), &text); err != nil || text != "place the order" {
			t.Errorf("the order group's label reads %q (%v), want %q", text, err, "place the order")
		}
		if audit := ev.GetEventGroupMarkers()[1].GetLabel(); audit.GetLabel() != nil {
			t.Errorf("the audit group has a label payload %v, want none", audit.GetLabel())
		}
	}
}

// UpdateGroupsWorkflow sleeps in an update handler registered under an
// explicit group: the handler's timer belongs to the update's group alone.
func UpdateGroupsWorkflow(ctx workflow.Context) error {
	ctx = workflow.WithEventGroups(ctx, workflow.NewEventGroup("outer"))
	done := false
	if err := workflow.SetUpdateHandler(ctx, "nap", func(ctx workflow.Context) error {
		err := workflow.Sleep(ctx, time.Second)
		done = true
		return err
	}); err != nil {
		return err
	}
	if err := workflow.Await(ctx, func() bool { return done }); err != nil {
		return err
	}
	return workflow.Sleep(ctx, time.Second)
}

func TestAnUpdateHandlersCommandsBelongToTheUpdatesGroup(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(UpdateGroupsWorkflow)
	var updateErr error
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow("nap", "nap-1", &testsuite.TestUpdateCallback{
			OnAccept: func() {}, OnReject: func(err error) { updateErr = err },
			OnComplete: func(_ any, err error) { updateErr = errors.Join(updateErr, err) },
		})
	}, time.Millisecond)
	env.ExecuteWorkflow(UpdateGroupsWorkflow)
	if err := errors.Join(env.GetWorkflowError(), updateErr); err != nil {
		t.Fatal(err)
	}
	h, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	want := "TimerStarted=update:nap-1 TimerStarted=outer"
	if got := strings.Join(groupsOf(t, h), " "); got != want {
		t.Errorf("events with groups: %s, want %s", got, want)
	}
}

// LabeledTimerWorkflow sleeps in a labeled group.
func LabeledTimerWorkflow(ctx workflow.Context) error {
	ctx = workflow.WithEventGroups(ctx, workflow.NewEventGroupWithOptions("secret", workflow.EventGroupOptions{Label: "card 4242"}))
	return workflow.Sleep(ctx, time.Second)
}

// A label goes through the workflow's payload codecs; the ID does not.
func TestAnEventGroupsLabelGoesThroughTheCodecs(t *testing.T) {
	codec := converter.NewZlibCodec(converter.ZlibCodecOptions{AlwaysEncode: true})
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec)
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetDataConverter(dc)
	env.RegisterWorkflow(LabeledTimerWorkflow)
	env.ExecuteWorkflow(LabeledTimerWorkflow)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	h, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range h.GetEvents() {
		if ev.GetEventType() != enumspb.EVENT_TYPE_TIMER_STARTED {
			continue
		}
		label := ev.GetEventGroupMarkers()[0].GetLabel()
		if label.GetId() != "secret" {
			t.Errorf("the marker's ID is %q, want it as given", label.GetId())
		}
		if enc := string(label.GetLabel().GetMetadata()[converter.MetadataEncoding]); enc != "binary/zlib" {
			t.Errorf("the label's encoding is %q, want the codec's", enc)
		}
		var text string
		if err := dc.FromPayload(label.GetLabel(), &text); err != nil || text != "card 4242" {
			t.Errorf("the label decodes to %q (%v)", text, err)
		}
		return
	}
	t.Fatal("no TimerStarted event")
}

// NoIDGroupWorkflow makes a group without an ID.
func NoIDGroupWorkflow(ctx workflow.Context) error {
	ctx = workflow.WithEventGroups(ctx, workflow.NewEventGroup(""))
	return workflow.Sleep(ctx, time.Second)
}

func TestAnEventGroupWithoutAnIDFailsTheTaskSayingSo(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(NoIDGroupWorkflow)
	env.ExecuteWorkflow(NoIDGroupWorkflow)
	if err := env.GetWorkflowError(); err == nil || !strings.Contains(err.Error(), "the event group ID is empty") {
		t.Errorf("workflow error %v, want the empty ID named", err)
	}
}
