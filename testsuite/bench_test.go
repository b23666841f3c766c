package testsuite_test

import (
	"testing"
	"time"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// TenThousandTimers starts 10,000 timers of a day each and waits for all.
func TenThousandTimers(ctx workflow.Context) error {
	timers := make([]workflow.Future, 10_000)
	for i := range timers {
		timers[i] = workflow.NewTimer(ctx, 24*time.Hour)
	}
	for _, t := range timers {
		if err := t.Get(ctx, nil); err != nil {
			return err
		}
	}
	return nil
}

// SleepsADayAtATime sleeps a day, n times in a row: one workflow task per
// timer.
func SleepsADayAtATime(ctx workflow.Context, n int) error {
	for range n {
		if err := workflow.Sleep(ctx, 24*time.Hour); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkTenThousandTimers is 10,000 timers of a day each in one
// workflow, skipped in the test environment: the figure is the wall time
// of the whole test.
func BenchmarkTenThousandTimers(b *testing.B) {
	for b.Loop() {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.ExecuteWorkflow(TenThousandTimers)
		if err := env.GetWorkflowError(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSequentialDayTimers is 1,000 days slept one at a time: each
// timer is a workflow task of its own, through the worker runtime and the
// in-memory server. ns/timer is the cost of one.
func BenchmarkSequentialDayTimers(b *testing.B) {
	const n = 1000
	for b.Loop() {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.ExecuteWorkflow(SleepsADayAtATime, n)
		if err := env.GetWorkflowError(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/timer")
}
