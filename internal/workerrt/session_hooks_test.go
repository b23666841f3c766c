package workerrt

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Tests of the hooks sessions use: HeartbeatNow, CanceledByServer and the
// activity poll gate.

func TestHeartbeatNowBypassesThrottling(t *testing.T) {
	svc := &heartbeatService{}
	hb, _ := newTestHeartbeater(svc, time.Minute)
	hb.record(details("throttled-1")) // sent; an interval starts
	if err := hb.sendNow(details("now")); err != nil {
		t.Fatal(err)
	}
	if got := svc.sent(); len(got) != 2 || got[1] != "now" {
		t.Fatalf("sent %v: HeartbeatNow must go at once, whatever interval runs", got)
	}
	hb.stop()
	if err := hb.sendNow(details("late")); err == nil {
		t.Fatal("a heartbeat after the attempt ended was sent")
	}
}

func TestCanceledByServerTellsTheWorkflowsCancellationApart(t *testing.T) {
	svc := &heartbeatService{cancel: true}
	w := &Worker{opts: Options{Service: svc}}
	ctx, cancel := context.WithCancelCause(context.Background())
	hb := newHeartbeater(w, nil, cancel)
	defer hb.stop()
	if err := hb.sendNow(details("x")); err != nil {
		t.Fatal(err)
	}
	if !CanceledByServer(ctx) {
		t.Fatalf("a cancellation the heartbeat response asked for: cause %v", context.Cause(ctx))
	}
	stopped, stop := context.WithCancel(context.Background())
	stop()
	if CanceledByServer(stopped) {
		t.Fatal("a context canceled by the worker stopping is not the server's cancellation")
	}
}

func TestActivityPollGateHoldsPolls(t *testing.T) {
	gateErr := errors.New("closed")
	calls := 0
	// No service: a poll that got past the gate would panic.
	w := &Worker{opts: Options{ActivityPollGate: func(context.Context) error { calls++; return gateErr }}}
	task, ok, err := w.pollActivityTask(context.Background())
	if task != nil || ok || err != nil || calls != 1 {
		t.Fatalf("poll through a closed gate: %v %v %v, gate asked %d times", task, ok, err, calls)
	}
}
