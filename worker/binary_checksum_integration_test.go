package worker_test

import (
	"crypto/md5"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// binaryChecksums returns the binary checksum a workflow sees in its first
// task and in the next.
func binaryChecksums(ctx workflow.Context) ([]string, error) {
	first := workflow.GetInfo(ctx).GetBinaryChecksum()
	if err := workflow.Sleep(ctx, 10*time.Millisecond); err != nil {
		return nil, err
	}
	return []string{first, workflow.GetInfo(ctx).GetBinaryChecksum()}, nil
}

// Without SetBinaryChecksum, a workflow's binary checksum is the hex MD5 of
// the executable, as with go.temporal.io/sdk; with it, workers send and
// workflows see the one set, on the dev server and in replay.
func TestBinaryChecksum(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	binary, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	digest := md5.Sum(binary)
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.ExecuteWorkflow(binaryChecksums)
	var seen []string
	if err := env.GetWorkflowResult(&seen); err != nil {
		t.Fatal(err)
	}
	if want := hex.EncodeToString(digest[:]); len(seen) != 2 || seen[0] != want || seen[1] != want {
		t.Fatalf("default binary checksum %q, want the executable's MD5 %s twice", seen, want)
	}

	worker.SetBinaryChecksum("checksum-under-test")
	defer worker.SetBinaryChecksum("")
	c := dial(t)
	tq := unique(t, "tq")
	w := worker.New(c, tq, worker.Options{})
	w.RegisterWorkflow(binaryChecksums)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	run, err := c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, binaryChecksums)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(testCtx(t), &seen); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != "checksum-under-test" || seen[1] != "checksum-under-test" {
		t.Fatalf("binary checksums seen %q, want the one set, twice", seen)
	}
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(binaryChecksums)
	if err := replayer.ReplayWorkflowExecution(testCtx(t), c.WorkflowService(), nil, "default", workflow.Execution{ID: run.GetID(), RunID: run.GetRunID()}); err != nil {
		t.Fatal(err)
	}
}
