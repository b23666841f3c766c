package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// A local activity runs in the workflow's process: go.temporal.io/sdk
// hands it the workflow's arguments as Go values, never encoded, so a
// value no converter can encode (a function, a channel) reaches it, and a
// codec never sees its input. Both SDKs, on a dev server.

// CallsWhatItIsGiven calls the function it is given: an argument the JSON
// converter refuses.
func CallsWhatItIsGiven(_ context.Context, greet func() string, n int) (string, error) {
	return fmt.Sprintf("%s x%d", greet(), n), nil
}

func PassesAFunctionOurs(ctx workflow.Context) (string, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var out string
	err := workflow.ExecuteLocalActivity(ctx, CallsWhatItIsGiven, func() string { return "hello" }, 3).Get(ctx, &out)
	return out, err
}

func PassesAFunctionOfficial(ctx officialworkflow.Context) (string, error) {
	ctx = officialworkflow.WithLocalActivityOptions(ctx, officialworkflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var out string
	err := officialworkflow.ExecuteLocalActivity(ctx, CallsWhatItIsGiven, func() string { return "hello" }, 3).Get(ctx, &out)
	return out, err
}

func TestALocalActivityGetsTheWorkflowsGoValuesOnBothSDKs(t *testing.T) {
	hp := testharness.HostPort(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tq := fmt.Sprintf("la-go-values-%d", time.Now().UnixNano())

	official, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer official.Close()
	ow := officialworker.New(official, tq+"-official", officialworker.Options{})
	ow.RegisterWorkflowWithOptions(PassesAFunctionOfficial, officialworkflow.RegisterOptions{Name: "PassesAFunction"})
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	ours, err := client.Dial(client.Options{HostPort: hp, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer ours.Close()
	w := worker.New(ours, tq+"-ours", worker.Options{})
	w.RegisterWorkflowWithOptions(PassesAFunctionOurs, workflow.RegisterOptions{Name: "PassesAFunction"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	result := func(queue string) string {
		run, err := ours.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: queue, WorkflowExecutionTimeout: 30 * time.Second}, "PassesAFunction")
		if err != nil {
			t.Fatal(err)
		}
		var out string
		if err := run.Get(ctx, &out); err != nil {
			return "error: " + err.Error()
		}
		return out
	}
	want := result(tq + "-official")
	if got := result(tq + "-ours"); got != want {
		t.Errorf("this SDK's worker: %q; go.temporal.io/sdk's: %q", got, want)
	}
	if want != "hello x3" {
		t.Errorf("go.temporal.io/sdk's worker gave %q: the scenario no longer shows Go values passed as they are", want)
	}
}
