package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func currentBuildIDAtThirdTaskOurs(ctx workflow.Context) (string, error) {
	workflow.GetSignalChannel(ctx, "next").Receive(ctx, nil)
	workflow.GetSignalChannel(ctx, "next").Receive(ctx, nil)
	return workflow.GetInfo(ctx).GetCurrentBuildID(), nil
}

func currentBuildIDAtThirdTaskOfficial(ctx officialworkflow.Context) (string, error) {
	officialworkflow.GetSignalChannel(ctx, "next").Receive(ctx, nil)
	officialworkflow.GetSignalChannel(ctx, "next").Receive(ctx, nil)
	return officialworkflow.GetInfo(ctx).GetCurrentBuildID(), nil
}

// workflow.Info.GetCurrentBuildID in a live task that follows a replay
// of the run (the worker did not have it cached) reports, on both SDKs,
// the build ID of the worker that completed the task before the last one
// replayed (the official SDK's behaviour, which its documentation of the
// method does not describe), not the worker's. The run: two tasks on a
// worker of build "a", which stops; the third on a worker of build "b",
// which replays the first two.
func TestCurrentBuildIDAfterAReplayIsTheOfficialSDKs(t *testing.T) {
	c, oc := dialBoth(t)
	run := func(t *testing.T, start func(taskQueue, buildID string) func()) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		taskQueue := fmt.Sprintf("current-build-id-%d", time.Now().UnixNano())
		stopA := start(taskQueue, "a")
		r, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: taskQueue, TaskQueue: taskQueue}, "CurrentBuildIDAtThirdTask")
		if err != nil {
			t.Fatal(err)
		}
		// Each signal after the task before it completed, so that each
		// comes in a task of its own.
		for completed := 1; completed <= 2; completed++ {
			rolloutOps{t: t, c: c}.eventually(fmt.Sprintf("%d tasks completed", completed), func(context.Context) error {
				if n := len(rolloutOps{t: t, c: c}.taskBuildIDs(r)); n != completed {
					return fmt.Errorf("%d tasks completed", n)
				}
				return nil
			})
			if completed == 1 {
				if err := c.SignalWorkflow(ctx, r.GetID(), "", "next", nil); err != nil {
					t.Fatal(err)
				}
			}
		}
		stopA()
		stopB := start(taskQueue, "b")
		defer stopB()
		if err := c.SignalWorkflow(ctx, r.GetID(), "", "next", nil); err != nil {
			t.Fatal(err)
		}
		var buildID string
		if err := r.Get(ctx, &buildID); err != nil {
			t.Fatal(err)
		}
		return buildID
	}
	ours := run(t, func(taskQueue, buildID string) func() {
		w := worker.New(c, taskQueue, worker.Options{BuildID: buildID})
		w.RegisterWorkflowWithOptions(currentBuildIDAtThirdTaskOurs, workflow.RegisterOptions{Name: "CurrentBuildIDAtThirdTask"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return w.Stop
	})
	theirs := run(t, func(taskQueue, buildID string) func() {
		//lint:ignore SA1019 the deprecated BuildID is what this test compares
		w := officialworker.New(oc, taskQueue, officialworker.Options{BuildID: buildID})
		w.RegisterWorkflowWithOptions(currentBuildIDAtThirdTaskOfficial, officialworkflow.RegisterOptions{Name: "CurrentBuildIDAtThirdTask"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return w.Stop
	})
	if ours != theirs || theirs != "a" {
		t.Errorf("GetCurrentBuildID in the live task after a replay: this SDK %q, go.temporal.io/sdk %q; want both \"a\"", ours, theirs)
	}
}
