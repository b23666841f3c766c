package engine

import (
	"context"
	"testing"
)

// TestReplayedHookMarksTheEndOfReplay: on a full history, the hook runs
// once, after the code re-ran the recorded task and before it runs the
// new one; on a first task, before the code runs; when the code does not
// run for a new task (a closed history replayed), at the end.
func TestReplayedHookMarksTheEndOfReplay(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	first := len(h.events)
	h.completed()
	s := h.activityScheduled("5", "Charge")
	h.activityDone(s, "charged")
	h.task()

	runsAtHook := func(x *Run, wf *scripted, events int) (calls, runs int) {
		t.Helper()
		task := Task{Events: NewEventSource(context.Background(), h.events[:events], nil, nil), Replayed: func() {
			calls++
			runs = wf.runs
		}}
		if _, err := x.ProcessTask(task); err != nil {
			t.Fatal(err)
		}
		return calls, runs
	}

	x, wf := newRun(oneActivityThenComplete)
	if calls, runs := runsAtHook(x, wf, len(h.events)); calls != 1 || runs != 1 {
		t.Errorf("full history: hook called %d times, after %d runs of the code; want once, after the replayed run", calls, runs)
	}

	y, wf := newRun(oneActivityThenComplete)
	if calls, runs := runsAtHook(y, wf, first); calls != 1 || runs != 0 {
		t.Errorf("first task: hook called %d times, after %d runs; want once, before the code runs", calls, runs)
	}

	h.completed()
	h.workflowCompleted("done")
	z, wf := newRun(oneActivityThenComplete)
	if calls, runs := runsAtHook(z, wf, len(h.events)); calls != 1 || runs != 2 {
		t.Errorf("closed history: hook called %d times, after %d runs; want once, at the end", calls, runs)
	}
}
