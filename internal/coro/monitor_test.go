package coro

import (
	"errors"
	"testing"
	"time"
)

// One monitor watches every drive, each against its own dispatcher's
// timeout: a turn far shorter than one dispatcher's timeout is no deadlock
// while drives with short timeouts, stuck at the same time, are each
// reported.
func TestTheMonitorJudgesEachDriveByItsOwnTimeout(t *testing.T) {
	slow := newTestDispatcher(t, Options{DeadlockTimeout: 30 * time.Second})
	slow.Spawn("sleeper", func() { time.Sleep(400 * time.Millisecond) })
	slowErr := make(chan error, 1)
	go func() { slowErr <- slow.RunUntilBlocked() }()

	timeouts := []time.Duration{50 * time.Millisecond, 80 * time.Millisecond}
	errs := make(chan error, len(timeouts))
	for _, timeout := range timeouts {
		d := newTestDispatcher(t, Options{DeadlockTimeout: timeout})
		// Long enough that a loaded machine's late monitor still sees it;
		// the drive returns as soon as the deadlock is found.
		d.Spawn("stuck", func() { time.Sleep(3 * time.Second) })
		go func() { errs <- d.RunUntilBlocked() }()
	}
	reported := map[time.Duration]bool{}
	for range timeouts {
		var derr *DeadlockError
		if err := <-errs; !errors.As(err, &derr) {
			t.Fatalf("a stuck drive returned %v, want a *DeadlockError", err)
		}
		if derr.Coroutine != "stuck" {
			t.Errorf("the deadlock names %q, want the stuck coroutine", derr.Coroutine)
		}
		reported[derr.Timeout] = true
	}
	for _, timeout := range timeouts {
		if !reported[timeout] {
			t.Errorf("no deadlock reported with the %v timeout (reported: %v)", timeout, reported)
		}
	}
	if err := <-slowErr; err != nil {
		t.Fatalf("a 400ms turn under a 30s timeout returned %v", err)
	}
}

// monitorRunning reports whether the monitor's goroutine runs, and how
// many drives it watches.
func monitorRunning() (running bool, drives int) {
	monitor.mu.Lock()
	defer monitor.mu.Unlock()
	return monitor.ticker != nil, len(monitor.watched)
}

// The monitor's goroutine runs only while there are drives to watch, even
// when their timeout is long: an idle process has no goroutine ticking.
func TestTheMonitorStopsWhenNoDriveIsLeft(t *testing.T) {
	d := newTestDispatcher(t, Options{DeadlockTimeout: time.Hour})
	d.Spawn("quick", func() {})
	mustRun(t, d)
	deadline := time.Now().Add(5 * time.Second)
	for {
		running, drives := monitorRunning()
		if drives != 0 {
			t.Fatalf("the monitor still lists %d drives after the last ended", drives)
		}
		if !running {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the monitor still runs 5s after the last drive ended")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
