package clientimpl

import (
	"context"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	schedulepb "go.temporal.io/api/schedule/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/searchattr"
)

func TestCalendarFieldsLeftNilTakeTheirDefaults(t *testing.T) {
	spec := scheduleSpecToProto(&clientapi.ScheduleSpec{Calendars: []clientapi.ScheduleCalendarSpec{{Hour: []clientapi.ScheduleRange{{Start: 9, End: 17, Step: 2}}}}})
	want := &schedulepb.StructuredCalendarSpec{
		Second:     []*schedulepb.Range{{Start: 0}},
		Minute:     []*schedulepb.Range{{Start: 0}},
		Hour:       []*schedulepb.Range{{Start: 9, End: 17, Step: 2}},
		DayOfMonth: []*schedulepb.Range{{Start: 1, End: 31}},
		Month:      []*schedulepb.Range{{Start: 1, End: 12}},
		Year:       []*schedulepb.Range{},
		DayOfWeek:  []*schedulepb.Range{{Start: 0, End: 6}},
	}
	if got := spec.GetStructuredCalendar()[0]; !proto.Equal(got, want) {
		t.Errorf("calendar sent as %v, want %v", got, want)
	}
	if spec.GetStartTime() != nil || spec.GetEndTime() != nil || spec.GetJitter() != nil {
		t.Errorf("unset times and jitter were sent: %v", spec)
	}
	back := scheduleSpecFromProto(spec)
	if !back.StartAt.IsZero() || !back.EndAt.IsZero() {
		t.Errorf("unset times read back as %v and %v, want zero times", back.StartAt, back.EndAt)
	}
}

// An action read from a description and written back is the same proto:
// its payloads are not encoded a second time.
func TestScheduleActionRoundTrip(t *testing.T) {
	c := &workflowClient{namespace: "ns", dataConverter: converter.GetDefaultDataConverter(), logger: logging.NewDefaultLogger()}
	keyword := searchattr.NewSearchAttributeKeyKeyword("Color")
	original := &clientapi.ScheduleWorkflowAction{
		ID:                       "wf",
		Workflow:                 "MyWorkflow",
		Args:                     []any{"a", 2},
		TaskQueue:                "q",
		WorkflowExecutionTimeout: time.Hour,
		WorkflowTaskTimeout:      time.Second,
		RetryPolicy:              &policy.RetryPolicy{MaximumAttempts: 3},
		Memo:                     map[string]any{"m": "v"},
		TypedSearchAttributes:    searchattr.NewSearchAttributes(keyword.ValueSet("blue")),
		UntypedSearchAttributes:  map[string]*commonpb.Payload{"Legacy": {Data: []byte(`"x"`)}},
		StaticSummary:            "summary",
		Priority:                 policy.Priority{PriorityKey: 2},
	}
	sent, err := c.scheduleActionToProto(context.Background(), original)
	if err != nil {
		t.Fatal(err)
	}
	read, err := scheduleActionFromProto(c.logger, c.dataConverter, c.namespace, sent)
	if err != nil {
		t.Fatal(err)
	}
	action := read.(*clientapi.ScheduleWorkflowAction)
	if _, ok := action.Args[0].(*commonpb.Payload); !ok || action.Workflow != "MyWorkflow" || action.StaticSummary != "summary" ||
		action.Priority.PriorityKey != 2 || action.RetryPolicy.MaximumAttempts != 3 || action.WorkflowExecutionTimeout != time.Hour {
		t.Errorf("read back as %+v", action)
	}
	if v, _ := action.TypedSearchAttributes.GetKeyword(keyword); v != "blue" || len(action.UntypedSearchAttributes) != 1 {
		t.Errorf("search attributes read back as %v and %v", action.TypedSearchAttributes, action.UntypedSearchAttributes)
	}
	again, err := c.scheduleActionToProto(context.Background(), action)
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(again, sent) {
		t.Errorf("written back as\n%v\nwas\n%v", again, sent)
	}
}

func TestScheduleActionNeedsAWorkflowAndATaskQueue(t *testing.T) {
	c := &workflowClient{namespace: "ns", dataConverter: converter.GetDefaultDataConverter()}
	for _, action := range []clientapi.ScheduleAction{
		&clientapi.ScheduleWorkflowAction{Workflow: "W"},
		&clientapi.ScheduleWorkflowAction{TaskQueue: "q"},
		nil,
	} {
		if _, err := c.scheduleActionToProto(context.Background(), action); err == nil {
			t.Errorf("%+v was accepted", action)
		}
	}
	// A missing ID gets a random one, so that runs of the schedule have
	// IDs.
	sent, err := c.scheduleActionToProto(context.Background(), &clientapi.ScheduleWorkflowAction{Workflow: "W", TaskQueue: "q"})
	if err != nil || len(sent.GetStartWorkflow().GetWorkflowId()) != 36 {
		t.Errorf("workflow ID %q, %v", sent.GetStartWorkflow().GetWorkflowId(), err)
	}
}
