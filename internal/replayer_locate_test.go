package internal

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/history"
	"github.com/durable-go/sdk/internal/registry"
)

// incrementsWhereGreetWasRecorded is activities.json's ActivitiesWorkflow
// changed: its first activity is another.
func incrementsWhereGreetWasRecorded(ctx Context, name string) (string, error) {
	ctx = WithActivityOptions(ctx, ActivityOptions{StartToCloseTimeout: time.Second})
	var s string
	err := ExecuteActivity(ctx, "Increment", name).Get(ctx, &s)
	return s, err
}

// TestTheLocatorFindsTheCodeOfALiveTasksMismatch: what the worker uses to
// locate a live task's non-determinism error (which a worker's engine does
// not locate) replays the history locating each command, and gives the
// location of the command of the mismatch. (Workflow code in this package
// counts as the SDK's for workflowCodeLocation, so commands are numbered
// here; worker's integration tests check the file:line a worker logs.)
func TestTheLocatorFindsTheCodeOfALiveTasksMismatch(t *testing.T) {
	f, err := os.Open("../testdata/histories/activities.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := history.FromJSON(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	if err := reg.RegisterWorkflow(incrementsWhereGreetWasRecorded, "ActivitiesWorkflow", false); err != nil {
		t.Fatal(err)
	}
	config := newRunConfig(reg, RunOptions{})
	x := engine.NewRun(config.engineOptions()) // as a worker runs it: nothing located
	defer x.Close()
	_, failed := x.ProcessTask(engine.Task{Events: engine.NewEventSource(context.Background(), h.GetEvents(), nil, nil)})
	if failed == nil {
		t.Fatal("the changed code must fail its replay")
	}
	commands := 0
	locate := nondeterminismLocator(config, func() string {
		commands++
		return "command " + strconv.Itoa(commands)
	})
	if got := locate(engine.NewEventSource(context.Background(), h.GetEvents(), nil, nil), "wf", "run", failed); got != "command 1" {
		t.Fatalf("located %q, want the first command, the changed activity", got)
	}
	if got := locate(engine.NewEventSource(context.Background(), h.GetEvents(), nil, nil), "wf", "run", context.Canceled); got != "" {
		t.Fatalf("an error that is not non-determinism was located at %q", got)
	}
}
