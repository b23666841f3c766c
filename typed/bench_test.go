package typed_test

import (
	"context"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The typed calls cost what the untyped ones cost. Each benchmark runs
// the same workload, a workflow that calls an activity benchActivities
// times in a row, written both ways:
//
//   - BenchmarkReplay replays its history (the same for both forms) with
//     worker.NewWorkflowReplayer: the engine's work for each call (the
//     command, its events, the result's decoding) without a server;
//   - BenchmarkTestEnvironment runs it in the test environment, through
//     the worker runtime and the in-memory server.
//
//	go test -run '^$' -bench . -benchmem -count 10 ./typed | benchstat -col /form -
//
// (DURABLE_SKIP_INTEGRATION=1 skips starting this package's dev server.)

const benchActivities = 100

func increment(_ context.Context, i int) (int, error) { return i + 1, nil }

func incrementsTyped(ctx workflow.Context, n int) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	v := 0
	for range n {
		var err error
		if v, err = typed.ExecuteActivity(ctx, increment, v).Get(ctx); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// incrementsUntyped declares the result's variable for each call, as
// untyped code usually does (var greeting string; f.Get(ctx, &greeting)):
// like the typed Get's, it is allocated per call.
func incrementsUntyped(ctx workflow.Context, n int) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	v := 0
	for range n {
		var next int
		if err := workflow.ExecuteActivity(ctx, increment, v).Get(ctx, &next); err != nil {
			return 0, err
		}
		v = next
	}
	return v, nil
}

// incrementsUntypedReused decodes every result into one variable, which
// the typed Get cannot do: it saves one allocation of the result per call.
func incrementsUntypedReused(ctx workflow.Context, n int) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	v := 0
	for range n {
		if err := workflow.ExecuteActivity(ctx, increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

var benchForms = []struct {
	name string
	fn   func(workflow.Context, int) (int, error)
}{{"form=untyped", incrementsUntyped}, {"form=typed", incrementsTyped}, {"form=untyped-reused-variable", incrementsUntypedReused}}

// incrementsHistory records the workload's history in the test
// environment.
func incrementsHistory(b *testing.B) *historypb.History {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(incrementsUntyped, workflow.RegisterOptions{Name: "Increments"})
	env.RegisterActivity(increment)
	env.ExecuteWorkflow("Increments", benchActivities)
	var v int
	if err := env.GetWorkflowResult(&v); err != nil || v != benchActivities {
		b.Fatalf("recording the history: %d, %v", v, err)
	}
	h, err := env.GetHistory()
	if err != nil {
		b.Fatal(err)
	}
	return h
}

func BenchmarkReplay(b *testing.B) {
	history := incrementsHistory(b)
	for _, form := range benchForms {
		b.Run(form.name, func(b *testing.B) {
			replayer := worker.NewWorkflowReplayer()
			replayer.RegisterWorkflowWithOptions(form.fn, workflow.RegisterOptions{Name: "Increments"})
			b.ReportAllocs()
			for b.Loop() {
				if err := replayer.ReplayWorkflowHistory(nil, history); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchActivities), "ns/activity")
		})
	}
}

func BenchmarkTestEnvironment(b *testing.B) {
	for _, form := range benchForms {
		b.Run(form.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var s testsuite.WorkflowTestSuite
				env := s.NewTestWorkflowEnvironment()
				env.RegisterWorkflowWithOptions(form.fn, workflow.RegisterOptions{Name: "Increments"})
				env.RegisterActivity(increment)
				env.ExecuteWorkflow("Increments", benchActivities)
				if err := env.GetWorkflowError(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchActivities), "ns/activity")
		})
	}
}
