package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	officialworker "go.temporal.io/sdk/worker"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

// Workers of both SDKs on one task queue, running workflows with local
// activities: workflow tasks go to either, and a run whose worker stops
// while its local activity runs goes on with the other SDK's worker.

// taskIdentities counts a history's completed workflow tasks by the
// identity of the worker that completed them.
func taskIdentities(h *historypb.History) map[string]int {
	by := map[string]int{}
	for _, ev := range h.GetEvents() {
		if a := ev.GetWorkflowTaskCompletedEventAttributes(); a != nil {
			by[a.GetIdentity()]++
		}
	}
	return by
}

// TestLocalActivitiesOnWorkersOfBothSDKsSharingATaskQueue runs every
// scenario on a task queue served by a worker of each SDK, with no sticky
// cache, so that a run's workflow tasks go to both: each replays the
// markers the other recorded, and its history replays on both SDKs.
func TestLocalActivitiesOnWorkersOfBothSDKsSharingATaskQueue(t *testing.T) {
	c, oc := dialBoth(t)
	worker.SetStickyWorkflowCacheSize(0)
	officialworker.SetStickyWorkflowCacheSize(0)
	defer worker.SetStickyWorkflowCacheSize(10000)
	defer officialworker.SetStickyWorkflowCacheSize(10000)
	tq := fmt.Sprintf("la-mixed-%d", time.Now().UnixNano())
	startBoth(t, newOurLocalActivityWorker(c, tq, "durable-go-worker"), newOfficialLocalActivityWorker(oc, tq, "official-worker"))
	mixed := 0
	for name, h := range runLocalActivityScenarios(t, c, tq) {
		recordedCommands(t, h) // no workflow task failed or timed out
		by := taskIdentities(h)
		t.Logf("%s: workflow tasks completed by %v", name, by)
		if by["durable-go-worker"] > 0 && by["official-worker"] > 0 {
			mixed++
		}
		if err := replayOnTheOfficialSDK(h); err != nil {
			t.Errorf("%s: the official replayer rejects the history: %v", name, err)
		}
		if err := replayHere(h); err != nil {
			t.Errorf("%s: the history does not replay here: %v", name, err)
		}
	}
	if mixed == 0 {
		t.Fatal("no run had workflow tasks completed by both workers; the test did not mix them")
	}
	t.Logf("%d of %d runs had workflow tasks completed by both SDKs' workers", mixed, len(localActivityScenarios))
}

// stoppable is a started worker of either SDK.
type stoppable interface {
	Start() error
	Stop()
}

// TestALocalActivityRunMovesToTheOtherSDKsWorkerWhenItsWorkerStops starts
// the 2.5s local activity of "long" on one SDK's worker, alone on its
// task queue, and stops that worker after it has kept the workflow task
// alive once (a heartbeat: a completed task with no commands). The task
// it held times out; the other SDK's worker replays the history, with the
// first one's heartbeats, runs the local activity again and completes the
// run: one marker, both workers in the history, and it replays on both.
func TestALocalActivityRunMovesToTheOtherSDKsWorkerWhenItsWorkerStops(t *testing.T) {
	c, oc := dialBoth(t)
	for _, order := range []struct{ first, second string }{{"official", "ours"}, {"ours", "official"}} {
		t.Run("from "+order.first+" to "+order.second, func(t *testing.T) {
			tq := fmt.Sprintf("la-handover-%s-%d", order.first, time.Now().UnixNano())
			workers := map[string]stoppable{
				"ours":     newOurLocalActivityWorker(c, tq, "ours"),
				"official": newOfficialLocalActivityWorker(oc, tq, "official"),
			}
			first, second := workers[order.first], workers[order.second]
			if err := first.Start(); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: tq, TaskQueue: tq, WorkflowTaskTimeout: localActivityTaskTimeout},
				localActivitiesName, "long")
			if err != nil {
				first.Stop()
				t.Fatal(err)
			}
			for taskIdentities(fullHistory(t, c, tq))[order.first] == 0 {
				if ctx.Err() != nil {
					first.Stop()
					t.Fatalf("the %s worker never kept the workflow task alive", order.first)
				}
				time.Sleep(50 * time.Millisecond)
			}
			if err := second.Start(); err != nil {
				first.Stop()
				t.Fatal(err)
			}
			defer second.Stop()
			first.Stop()
			var got string
			if err := run.Get(ctx, &got); err != nil {
				t.Fatal(err)
			}
			if got != "slept 2.5s / no error" {
				t.Fatalf("the workflow returned %q", got)
			}
			h := fullHistory(t, c, tq)
			by := taskIdentities(h)
			if by[order.first] == 0 || by[order.second] == 0 {
				t.Errorf("workflow tasks completed by %v, want both workers", by)
			}
			markers, timedOut := 0, 0
			for _, ev := range h.GetEvents() {
				switch ev.GetEventType() {
				case enumspb.EVENT_TYPE_MARKER_RECORDED:
					markers++
				case enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT:
					timedOut++
				case enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED:
					t.Errorf("event %d: a workflow task failed: %v", ev.GetEventId(), ev)
				}
			}
			if markers != 1 || timedOut == 0 {
				t.Errorf("%d markers and %d timed-out workflow tasks, want 1 marker and the stopped worker's task timed out", markers, timedOut)
			}
			if err := replayOnTheOfficialSDK(h); err != nil {
				t.Errorf("the official replayer rejects the history: %v", err)
			}
			if err := replayHere(h); err != nil {
				t.Errorf("the history does not replay here: %v", err)
			}
		})
	}
}
