package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
)

// unsupportedHistory is a first task whose commands were a feature this
// SDK lacks, recorded by another SDK's worker.
func unsupportedHistory(t enumspb.EventType, attrs any) []*historypb.HistoryEvent {
	h := newHistory("Greet")
	h.task()
	h.completed()
	h.add(t, attrs)
	return h.events
}

func TestEventsOfUnsupportedFeaturesAreReportedAsUnsupported(t *testing.T) {
	cases := []struct {
		name    string
		events  []*historypb.HistoryEvent
		feature string
	}{
		{"unknown event type", unsupportedHistory(enumspb.EventType(999), nil), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, _ := newRun(func(*scripted, int) {})
			_, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), c.events, nil, nil)})
			var u *UnsupportedEventError
			if !errors.As(err, &u) || u.Feature != c.feature {
				t.Fatalf("want an UnsupportedEventError for %q, got %v", c.feature, err)
			}
			var te *TaskError
			if !errors.As(err, &te) || te.Cause != enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE {
				t.Fatalf("an unsupported feature is not non-determinism: want cause unhandled failure, got %v", te)
			}
			if !strings.Contains(err.Error(), "event 5 ") {
				t.Fatalf("the error must name the event: %v", err)
			}
			if c.feature != "" && !strings.Contains(err.Error(), "does not support "+c.feature) {
				t.Fatalf("the error must name the feature: %v", err)
			}
		})
	}
}

func TestInformationalEventsAreSkipped(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.completed()
	s := h.activityScheduled("5", "Charge")
	h.add(enumspb.EVENT_TYPE_ACTIVITY_PROPERTIES_MODIFIED_EXTERNALLY, nil)
	h.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_OPTIONS_UPDATED, nil)
	h.activityDone(s, "charged")
	h.task()
	x, wf := newRun(oneActivityThenComplete)
	res := process(t, x, h.events)
	if !res.Closed || wf.results[0] != `"charged"` {
		t.Fatalf("the workflow must go on past informational events: %v %v", res, wf.results)
	}
}

func TestTimerSummaryGoesOutAsUserMetadata(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	x, _ := newRun(func(s *scripted, run int) {
		if _, err := s.x.StartTimer(time.Minute, "wait for the bank", func(error) {}); err != nil {
			t.Error(err)
		}
		if _, err := s.x.StartTimer(time.Minute, "", func(error) {}); err != nil {
			t.Error(err)
		}
	})
	res := process(t, x, h.events)
	var summary string
	if err := x.opts.DataConverter.(interface {
		FromPayload(*commonpb.Payload, any) error
	}).FromPayload(res.Commands[0].GetUserMetadata().GetSummary(), &summary); err != nil || summary != "wait for the bank" {
		t.Fatalf("summary %q (%v), want the timer's summary", summary, err)
	}
	if res.Commands[1].GetUserMetadata() != nil {
		t.Fatalf("a timer without summary carries no metadata, got %v", res.Commands[1].GetUserMetadata())
	}
}

func TestActivitySummaryGoesOutAsUserMetadata(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	x, _ := newRun(func(s *scripted, run int) {
		for _, summary := range []string{"charge the card", ""} {
			if _, err := s.x.ScheduleActivity(&commandpb.ScheduleActivityTaskCommandAttributes{ActivityType: &commonpb.ActivityType{Name: "Charge"}}, summary, false, nil, func(*commonpb.Payloads, error) {}); err != nil {
				t.Error(err)
			}
		}
	})
	res := process(t, x, h.events)
	var summary string
	if err := x.opts.DataConverter.(interface {
		FromPayload(*commonpb.Payload, any) error
	}).FromPayload(res.Commands[0].GetUserMetadata().GetSummary(), &summary); err != nil || summary != "charge the card" {
		t.Fatalf("summary %q (%v), want the activity's summary", summary, err)
	}
	if res.Commands[1].GetUserMetadata() != nil {
		t.Fatalf("an activity without summary carries no metadata, got %v", res.Commands[1].GetUserMetadata())
	}
}

func TestUnknownEventsMarkedWorkerMayIgnoreAreSkipped(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.completed()
	s := h.activityScheduled("5", "Charge")
	h.add(enumspb.EventType(999), nil).WorkerMayIgnore = true
	h.activityDone(s, "charged")
	h.task()
	x, wf := newRun(oneActivityThenComplete)
	res := process(t, x, h.events)
	if !res.Closed || wf.results[0] != `"charged"` {
		t.Fatalf("the workflow must go on past an unknown event the server says workers may ignore: %v %v", res, wf.results)
	}
}

func TestWorkerMayIgnoreDoesNotSkipEventsACommandKindOwns(t *testing.T) {
	// go.temporal.io/sdk applies Nexus events whatever the mark: skipping
	// one here would run the code past what it waits for. With no command
	// for it, it is non-determinism.
	events := unsupportedHistory(enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED, nil)
	events[len(events)-1].WorkerMayIgnore = true
	x, _ := newRun(func(*scripted, int) {})
	_, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), events, nil, nil)})
	assertNondeterminism(t, err, "event 5 NexusOperationScheduled", "produced no command")
}
