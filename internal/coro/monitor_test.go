package coro

import (
	"bytes"
	"context"
	"errors"
	"runtime/pprof"
	"strings"
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
	waitForMonitorToStop(t)
}

// waitForMonitorToStop fails t unless the monitor stops, with no drive
// listed, within 5s.
func waitForMonitorToStop(t *testing.T) {
	t.Helper()
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

// The monitor's goroutine serves every drive, so it does not keep the
// profiler labels of the caller that happened to start it (a coroutine's
// label would lead stuckStack to the wrong goroutine).
func TestTheMonitorKeepsNoLabelOfTheCallerThatStartedIt(t *testing.T) {
	waitForMonitorToStop(t)
	d := newTestDispatcher(t, Options{DeadlockTimeout: time.Hour})
	d.Spawn("waits", func() { d.Block("forever", &flag{}) })
	pprof.Do(context.Background(), pprof.Labels("caller", "labelled"), func(context.Context) { mustRun(t, d) })
	var profile bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&profile, 1); err != nil {
		t.Fatal(err)
	}
	found := false
	for record := range strings.SplitSeq(profile.String(), "\n\n") {
		if !strings.Contains(record, "(*drives).run") {
			continue
		}
		found = true
		if strings.Contains(record, "labelled") {
			t.Fatalf("the monitor's goroutine carries its starter's label:\n%s", record)
		}
	}
	if !found {
		t.Skip("the monitor stopped before the profile was taken")
	}
}
