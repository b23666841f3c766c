package replaytool_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/worker/replaytool"
	"github.com/durable-go/sdk/workflow"
)

// sequentialChanged is registered as SequentialActivitiesWorkflow: it
// sleeps before its activities.
func sequentialChanged(ctx workflow.Context, n int) (int, error) {
	if err := workflow.Sleep(ctx, time.Millisecond); err != nil {
		return 0, err
	}
	return SequentialActivitiesWorkflow(ctx, n)
}

// TestQueryFetchesAndReplaysRuns runs two workflows on the dev server and
// replays the runs a visibility query lists: with the code that wrote
// them, with changed code, and from the histories -save recorded.
func TestQueryFetchesAndReplaysRuns(t *testing.T) {
	hostPort := testharness.HostPort(t)
	c, err := client.Dial(client.Options{HostPort: hostPort})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := t.Context()
	taskQueue := "replaytool-" + strings.ReplaceAll(t.Name(), "/", "-") + "-" + time.Now().Format("150405.000000")
	w := worker.New(c, taskQueue, worker.Options{})
	register(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for i := range 2 {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue}, SequentialActivitiesWorkflow, i+1)
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	query := `TaskQueue = "` + taskQueue + `" AND ExecutionStatus = "Completed"`
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.GetExecutions()) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("visibility lists %d of the 2 runs", len(resp.GetExecutions()))
		}
		time.Sleep(100 * time.Millisecond)
	}

	saved := filepath.Join(t.TempDir(), "recorded")
	code, out, errs := run(t, replaytool.Config{Register: register}, "-address", hostPort, "-query", query, "-save", saved)
	if code != replaytool.ExitOK || len(lines(out)) != 2 || strings.Count(out, "ok    ") != 2 {
		t.Fatalf("exit status %d, want two ok lines:\n%s%s", code, out, errs)
	}

	changed := func(r worker.Registry) {
		r.RegisterWorkflowWithOptions(sequentialChanged, workflow.RegisterOptions{Name: "SequentialActivitiesWorkflow"})
	}
	code, out, errs = run(t, replaytool.Config{Register: changed, ClientOptions: client.Options{HostPort: hostPort}}, "-query", query, "-limit", "1")
	if code != replaytool.ExitFailed || len(lines(out)) != 1 || !strings.HasPrefix(out, "FAIL  ") || !strings.Contains(out, "StartTimer") {
		t.Fatalf("exit status %d, want one FAIL line (-limit 1):\n%s%s", code, out, errs)
	}

	files, err := os.ReadDir(saved)
	if err != nil || len(files) != 2 {
		t.Fatalf("-save must write the 2 histories: %v, %v", files, err)
	}
	code, out, errs = run(t, replaytool.Config{Register: register}, saved)
	if code != replaytool.ExitOK || strings.Count(out, "ok    ") != 2 {
		t.Fatalf("the saved histories must replay from the folder: exit status %d\n%s%s", code, out, errs)
	}
}

func TestQueryOfAnUnreachableServer(t *testing.T) {
	code, out, errs := run(t, replaytool.Config{Register: register}, "-address", "127.0.0.1:1", "-query", "WorkflowType = 'x'")
	if code != replaytool.ExitUsage || out != "" || !strings.Contains(errs, "127.0.0.1:1") {
		t.Fatalf("exit status %d, stdout %q, stderr %q", code, out, errs)
	}
}
