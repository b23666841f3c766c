package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

func TestMain(m *testing.M) { testharness.Main(m) }

// TestOnADevServer processes 30 records with a window of 5, continuing as
// new every 10: every record is counted once.
func TestOnADevServer(t *testing.T) {
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	total, err := process(ctx, c, "sliding-window-test", 30)
	if err != nil || total != 30 {
		t.Fatalf("total %d, %v; want 30", total, err)
	}
}

// TestInTheTestEnvironment runs the first page: it continues as new with
// the records still running and the completions it drained.
func TestInTheTestEnvironment(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(RecordProcessorWorkflow)
	env.RegisterActivity(GetRecords)
	env.SetDetachedChildWait(false)
	env.ExecuteWorkflow(SlidingWindowWorkflow, SlidingWindowInput{PageSize: 10, WindowSize: 5, MaximumOffset: 30})
	var can *workflow.ContinueAsNewError
	if !errors.As(env.GetWorkflowError(), &can) {
		t.Fatalf("the first run continues as new, got %v", env.GetWorkflowError())
	}
	var next SlidingWindowInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	if next.Offset != 10 || next.Progress+len(next.CurrentRecords) != 10 {
		t.Fatalf("the next run must start at 10 with every record of the page done or running, got %+v", next)
	}
}
