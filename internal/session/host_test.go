package session

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

type signal struct {
	workflowID, name string
	response         CreationResponse
}

// testHost is a host whose signals and heartbeats are recorded.
type testHost struct {
	*Host
	mu         sync.Mutex
	signals    []signal
	heartbeats int
	failBeats  int // heartbeats to fail before one passes
}

func newTestHost(t *testing.T, maxSessions int, brief bool) *testHost {
	th := &testHost{}
	h, err := NewHost(HostOptions{
		ResourceID: "res", MaxConcurrentSessions: maxSessions, DataConverter: converter.GetDefaultDataConverter(),
		Logger: log.NewStructuredLogger(nil), Brief: brief,
		Signal: func(_ context.Context, workflowID, _, name string, arg any) error {
			th.mu.Lock()
			defer th.mu.Unlock()
			th.signals = append(th.signals, signal{workflowID, name, arg.(CreationResponse)})
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	th.Host = h
	return th
}

func (th *testHost) task(t *testing.T, activityType, sessionID string, heartbeatTimeout time.Duration) *workerrt.ActivityTask {
	input, err := converter.GetDefaultDataConverter().ToPayloads(sessionID)
	if err != nil {
		t.Fatal(err)
	}
	return &workerrt.ActivityTask{
		Task: &workflowservice.PollActivityTaskQueueResponse{
			ActivityType:      &commonpb.ActivityType{Name: activityType},
			WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: "wf", RunId: "run"},
			Input:             input,
			HeartbeatTimeout:  durationpb.New(heartbeatTimeout),
		},
		HeartbeatNow: func(*commonpb.Payloads) error {
			th.mu.Lock()
			defer th.mu.Unlock()
			th.heartbeats++
			if th.failBeats > 0 {
				th.failBeats--
				return errors.New("unavailable")
			}
			return nil
		},
	}
}

// userActivities stands for the worker's own executor.
type userActivities struct{ ran []string }

func (u *userActivities) Execute(_ context.Context, t *workerrt.ActivityTask) (*commonpb.Payloads, error) {
	u.ran = append(u.ran, t.Task.GetActivityType().GetName())
	return nil, nil
}

func TestBriefHostCreatesAndCompletesSessions(t *testing.T) {
	th := newTestHost(t, 1, true)
	user := &userActivities{}
	exec := th.Executor("session-queue", user)
	ctx := context.Background()
	if _, err := exec.Execute(ctx, th.task(t, CreationActivity, "s1", 0)); err != nil {
		t.Fatal(err)
	}
	host := HostName()
	want := signal{"wf", "s1", CreationResponse{Taskqueue: "res@" + host, HostName: host, ResourceID: "res"}}
	if len(th.signals) != 1 || th.signals[0] != want {
		t.Fatalf("signals %+v, want %+v", th.signals, want)
	}
	// Full: a second session fails, retryably, with the official message.
	_, err := exec.Execute(ctx, th.task(t, CreationActivity, "s2", 0))
	var app *failure.ApplicationError
	if !errors.As(err, &app) || app.Message() != "too many outstanding sessions" || app.NonRetryable() {
		t.Fatalf("second session: %v", err)
	}
	if _, err := exec.Execute(ctx, th.task(t, "Download", "x", 0)); err != nil || len(user.ran) != 1 {
		t.Fatalf("other activities go to the worker's executor: %v, %v", err, user.ran)
	}
	// Completing an unknown session frees nothing; completing s1 frees its slot.
	if _, err := exec.Execute(ctx, th.task(t, CompletionActivity, "unknown", 0)); err != nil {
		t.Fatal(err)
	}
	if th.slots.take() {
		t.Fatal("completing an unknown session freed a slot")
	}
	if _, err := exec.Execute(ctx, th.task(t, CompletionActivity, "s1", 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.Execute(ctx, th.task(t, CreationActivity, "s2", 0)); err != nil {
		t.Fatalf("after completion: %v", err)
	}
}

func TestACreationActivityWithoutASessionIDFails(t *testing.T) {
	th := newTestHost(t, 1, true)
	task := th.task(t, CreationActivity, "", 0)
	_, err := th.Executor("session-queue", &userActivities{}).Execute(context.Background(), task)
	var app *failure.ApplicationError
	if !errors.As(err, &app) || !app.NonRetryable() || app.Type() != "SessionProtocolError" {
		t.Fatalf("got %v", err)
	}
}

// run starts a creation activity of a long-running host and returns its
// outcome's channel once the workflow was signaled.
func (th *testHost) run(t *testing.T, ctx context.Context, id string, heartbeatTimeout time.Duration) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := th.Executor("session-queue", &userActivities{}).Execute(ctx, th.task(t, CreationActivity, id, heartbeatTimeout))
		done <- err
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		th.mu.Lock()
		n := len(th.signals)
		th.mu.Unlock()
		if n > 0 {
			return done
		}
		if time.Now().After(deadline) {
			t.Fatal("the creation activity sent no signal")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestTheCreationActivityHoldsItsSlotUntilCompletion(t *testing.T) {
	th := newTestHost(t, 1, false)
	start := time.Now()
	done := th.run(t, context.Background(), "s1", 300*time.Millisecond) // heartbeats every 100ms
	waitCtx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := th.WaitForRoom(waitCtx); err == nil {
		t.Fatal("a full host let its creation poller poll")
	}
	for {
		th.mu.Lock()
		beats := th.heartbeats
		th.mu.Unlock()
		if beats >= 3 {
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("%d heartbeats in 5s at a third of a 300ms timeout", beats)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if elapsed := time.Since(start); elapsed < 300*time.Millisecond {
		t.Fatalf("3 heartbeats in %v: faster than a third of the timeout", elapsed)
	}
	if _, err := th.Executor("session-queue", &userActivities{}).Execute(context.Background(), th.task(t, CompletionActivity, "s1", 0)); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("a completed session's creation activity returned %v", err)
	}
	if err := th.WaitForRoom(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestAFailedHeartbeatIsRetriedSooner(t *testing.T) {
	th := newTestHost(t, 1, false)
	th.failBeats = 1
	start := time.Now()
	th.run(t, context.Background(), "s1", 9*time.Second) // heartbeats every 3s
	for {
		th.mu.Lock()
		beats := th.heartbeats
		th.mu.Unlock()
		if beats >= 2 {
			break
		}
		if time.Since(start) > 5500*time.Millisecond { // retried at 4s; the next beat was due at 6s
			t.Fatal("the failed heartbeat was not retried within a second")
		}
		time.Sleep(10 * time.Millisecond)
	}
	th.forget("s1")
}

func TestAStoppingWorkerFailsItsSessionsForGood(t *testing.T) {
	th := newTestHost(t, 1, false)
	ctx, stop := context.WithCancel(context.Background())
	done := th.run(t, ctx, "s1", time.Minute)
	stop() // what the worker runtime does to running activities when it stops
	err := <-done
	var app *failure.ApplicationError
	if !errors.As(err, &app) || app.Type() != "SessionWorkerShutdown" || !app.NonRetryable() || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if !th.slots.take() {
		t.Fatal("the stopped session kept its slot")
	}
}

func TestSlotsWakeWaiters(t *testing.T) {
	s := newSlots(1)
	if !s.take() || s.take() {
		t.Fatal("one slot")
	}
	woke := make(chan error, 1)
	go func() { woke <- s.wait(context.Background()) }()
	select {
	case <-woke:
		t.Fatal("woke with no free slot")
	case <-time.After(20 * time.Millisecond):
	}
	s.give()
	if err := <-woke; err != nil {
		t.Fatal(err)
	}
}
