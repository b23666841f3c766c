//lint:file-ignore SA1019 the deprecated build-ID versioning is what these tests exercise.

package worker_test

import (
	"os"
	"testing"

	"github.com/durable-go/sdk/internal/testharness"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// buildIDs returns the build ID and the binary checksum the workflow's
// first task sees.
func buildIDs(ctx workflow.Context) ([]string, error) {
	info := workflow.GetInfo(ctx)
	return []string{info.GetCurrentBuildID(), info.GetBinaryChecksum()}, nil
}

// The deprecated build-ID versioning, on the dev server: a worker with
// BuildID and UseBuildIDForVersioning takes the workflows the task
// queue's assignment rule gives its build ID; its completions record the
// build ID, which the workflow sees as its current build ID and binary
// checksum, as go.temporal.io/sdk's worker shows them. A worker without
// them stamps its completions with the binary checksum.
func TestBuildIDVersioningWorker(t *testing.T) {
	testharness.NeedsDevServer(t, "build-ID versioning rules")
	if os.Getenv(devserver.TargetEnv) == "1.29" {
		t.Skipf("%s=1.29: the CLI's dev server leaves the build-ID rules API off (frontend.workerVersioningRuleAPIs); durable-devserver turns it on", devserver.TargetEnv)
	}
	c := dial(t)
	taskQueue := unique(t, "tq")
	rules, err := c.GetWorkerVersioningRules(testCtx(t), client.GetWorkerVersioningOptions{TaskQueue: taskQueue})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateWorkerVersioningRules(testCtx(t), client.UpdateWorkerVersioningRulesOptions{TaskQueue: taskQueue, ConflictToken: rules.ConflictToken,
		Operation: &client.VersioningOperationInsertAssignmentRule{Rule: client.VersioningAssignmentRule{TargetBuildID: "build-7"}}}); err != nil {
		t.Fatal(err)
	}
	w := worker.New(c, taskQueue, worker.Options{BuildID: "build-7", UseBuildIDForVersioning: true})
	w.RegisterWorkflow(buildIDs)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	run, err := c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, buildIDs)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	if err := run.Get(testCtx(t), &seen); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != "build-7" || seen[1] != "build-7" {
		t.Errorf("current build ID and binary checksum %q, want build-7 for both", seen)
	}
	stamps := completionStamps(t, c, run)
	if len(stamps) != 1 || stamps[0] != "build-7 versioned" {
		t.Errorf("the completions' version stamps %q, want [build-7 versioned]", stamps)
	}

	worker.SetBinaryChecksum("checksum-7")
	defer worker.SetBinaryChecksum("")
	plainQueue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(buildIDs) })
	run, err = c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: plainQueue}, buildIDs)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(testCtx(t), &seen); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != "checksum-7" || seen[1] != "checksum-7" {
		t.Errorf("unversioned: current build ID and binary checksum %q, want checksum-7 for both", seen)
	}
	if stamps := completionStamps(t, c, run); len(stamps) != 1 || stamps[0] != "checksum-7 unversioned" {
		t.Errorf("unversioned: the completions' version stamps %q, want [checksum-7 unversioned]", stamps)
	}
}

// completionStamps are the version stamps the run's WorkflowTaskCompleted
// events record: the build ID, and whether the worker was versioned.
func completionStamps(t *testing.T, c client.Client, run client.WorkflowRun) []string {
	t.Helper()
	var stamps []string
	it := c.GetWorkflowHistory(testCtx(t), run.GetID(), run.GetRunID(), false, 0)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetWorkflowTaskCompletedEventAttributes(); a != nil {
			mode := "unversioned"
			if a.GetWorkerVersion().GetUseVersioning() {
				mode = "versioned"
			}
			stamps = append(stamps, a.GetWorkerVersion().GetBuildId()+" "+mode)
		}
	}
	return stamps
}
