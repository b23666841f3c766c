package workerrt

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/logging"
)

// heartbeatService records heartbeats and answers as told.
type heartbeatService struct {
	workflowservice.WorkflowServiceClient
	mu       sync.Mutex
	details  []string
	cancel   bool
	paused   bool
	reset    bool
	notFound bool
}

func (s *heartbeatService) RecordActivityTaskHeartbeat(_ context.Context, req *workflowservice.RecordActivityTaskHeartbeatRequest, _ ...grpc.CallOption) (*workflowservice.RecordActivityTaskHeartbeatResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.details = append(s.details, string(req.GetDetails().GetPayloads()[0].GetData()))
	if s.notFound {
		return nil, serviceerror.NewNotFound("activity not found")
	}
	return &workflowservice.RecordActivityTaskHeartbeatResponse{CancelRequested: s.cancel, ActivityPaused: s.paused, ActivityReset: s.reset}, nil
}

func (s *heartbeatService) sent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.details...)
}

func details(s string) *commonpb.Payloads {
	return &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: []byte(s)}}}
}

func newTestHeartbeater(svc *heartbeatService, timeout time.Duration) (*heartbeater, *error) {
	w := &Worker{opts: Options{Service: svc, Logger: logging.NewDefaultLogger()}}
	task := &workflowservice.PollActivityTaskQueueResponse{HeartbeatTimeout: durationpb.New(timeout)}
	var cause error
	return newHeartbeater(w, task, func(err error) { cause = err }), &cause
}

func TestHeartbeatsAreThrottled(t *testing.T) {
	svc := &heartbeatService{}
	hb, _ := newTestHeartbeater(svc, 250*time.Millisecond) // interval 200ms
	defer hb.stop()
	hb.record(details("1")) // sent at once
	hb.record(details("2")) // superseded within the interval
	hb.record(details("3")) // sent at the interval's end
	if got := svc.sent(); len(got) != 1 || got[0] != "1" {
		t.Fatalf("first heartbeat must go at once, alone: %v", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(svc.sent()) < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := svc.sent(); len(got) != 2 || got[1] != "3" {
		t.Fatalf("the latest details must follow at the interval's end: %v", got)
	}
}

func TestAnAttemptThatDidNotCompleteSendsTheDetailsHeldBack(t *testing.T) {
	for _, tc := range []struct {
		completed bool
		want      []string
	}{
		{completed: false, want: []string{"1", "3"}}, // flushed, as go.temporal.io/sdk does
		{completed: true, want: []string{"1"}},       // the result supersedes them
	} {
		svc := &heartbeatService{}
		hb, _ := newTestHeartbeater(svc, time.Minute) // interval 48s
		hb.record(details("1"))
		hb.record(details("2"))
		hb.record(details("3"))
		hb.finish(tc.completed)
		hb.record(details("4")) // after the end: dropped
		if got := svc.sent(); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("completed %v: heartbeats sent %v, want %v", tc.completed, got, tc.want)
		}
	}
}

func TestHeartbeatResponseCancelsTheActivity(t *testing.T) {
	svc := &heartbeatService{cancel: true}
	hb, cause := newTestHeartbeater(svc, time.Second)
	defer hb.stop()
	hb.record(details("x"))
	if !errors.Is(*cause, errCanceledByServer) || !hb.serverCanceled() {
		t.Fatalf("a cancel request must cancel the activity, cause %v", *cause)
	}
	gone := &heartbeatService{notFound: true}
	hb2, cause2 := newTestHeartbeater(gone, time.Second)
	defer hb2.stop()
	hb2.record(details("x"))
	var notFound *serviceerror.NotFound
	if !errors.As(*cause2, &notFound) || hb2.serverCanceled() {
		t.Fatalf("an activity the server no longer knows must be canceled, cause %v", *cause2)
	}
}

// A heartbeat answer saying the activity is paused or reset cancels it with
// that cause; a cancel request in the same answer wins, as in
// go.temporal.io/sdk.
func TestHeartbeatResponsePausesOrResetsTheActivity(t *testing.T) {
	for _, tc := range []struct {
		svc  *heartbeatService
		want error
	}{
		{&heartbeatService{paused: true}, ErrActivityPaused},
		{&heartbeatService{reset: true}, ErrActivityReset},
		{&heartbeatService{paused: true, reset: true}, ErrActivityPaused},
		{&heartbeatService{cancel: true, paused: true}, errCanceledByServer},
	} {
		hb, cause := newTestHeartbeater(tc.svc, time.Second)
		hb.record(details("x"))
		hb.stop()
		if !errors.Is(*cause, tc.want) || hb.serverCanceled() != (tc.want == errCanceledByServer) {
			t.Errorf("answer cancel=%v paused=%v reset=%v: cause %v (canceled by the workflow %v), want %v",
				tc.svc.cancel, tc.svc.paused, tc.svc.reset, *cause, hb.serverCanceled(), tc.want)
		}
	}
}

func TestActivityDeadlineIsTheEarlierTimeout(t *testing.T) {
	scheduled := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	task := &workflowservice.PollActivityTaskQueueResponse{
		ScheduledTime:          timestamppb.New(scheduled),
		StartedTime:            timestamppb.New(scheduled.Add(time.Minute)),
		ScheduleToCloseTimeout: durationpb.New(time.Hour),
		StartToCloseTimeout:    durationpb.New(10 * time.Minute),
	}
	if got, want := activityDeadline(task), scheduled.Add(11*time.Minute); !got.Equal(want) {
		t.Fatalf("deadline %v, want %v", got, want)
	}
	task.StartToCloseTimeout = nil
	if got, want := activityDeadline(task), scheduled.Add(time.Hour); !got.Equal(want) {
		t.Fatalf("deadline %v, want %v", got, want)
	}
}

// The throttle interval follows go.temporal.io/sdk: 80% of the heartbeat
// timeout, the worker's default without one, never past the worker's
// maximum.
func TestHeartbeatInterval(t *testing.T) {
	for _, tc := range []struct {
		name                string
		timeout             time.Duration
		defaultInterval, mx time.Duration
		want                time.Duration
	}{
		{"no timeout, defaults", 0, 0, 0, 30 * time.Second},
		{"timeout", 10 * time.Second, 0, 0, 8 * time.Second},
		{"long timeout, default maximum", 5 * time.Minute, 0, 0, 60 * time.Second},
		{"no timeout, worker default", 0, 5 * time.Second, 0, 5 * time.Second},
		{"timeout wins over the worker default", 10 * time.Second, 5 * time.Second, 0, 8 * time.Second},
		{"worker maximum", 10 * time.Second, 0, 2 * time.Second, 2 * time.Second},
		{"worker maximum over the worker default", 0, 5 * time.Second, 3 * time.Second, 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Worker{opts: Options{DefaultHeartbeatInterval: tc.defaultInterval, MaxHeartbeatInterval: tc.mx}}
			task := &workflowservice.PollActivityTaskQueueResponse{}
			if tc.timeout > 0 {
				task.HeartbeatTimeout = durationpb.New(tc.timeout)
			}
			if got := newHeartbeater(w, task, func(error) {}).interval; got != tc.want {
				t.Errorf("interval %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNegativeHeartbeatIntervalsAreRefused(t *testing.T) {
	_, err := New(Options{Service: &heartbeatService{}, TaskQueue: "tq", Activities: activityFunc(func(context.Context, *ActivityTask) (*commonpb.Payloads, error) { return nil, nil }), MaxHeartbeatInterval: -time.Second})
	if err == nil || !strings.Contains(err.Error(), "MaxHeartbeatThrottleInterval -1s") {
		t.Fatalf("got %v, want an error naming the negative interval", err)
	}
}
