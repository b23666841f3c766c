package dispatcher

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/wfsync/wfsynctest"
	ours "github.com/durable-go/sdk/workflow"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	official "go.temporal.io/sdk/workflow"
)

// BenchmarkPingPong runs the same workflow on both SDKs: the root coroutine
// starts a pinger and a ponger that pass a counter back and forth n times
// over unbuffered channels, then waits for the pinger to report.
func BenchmarkPingPong(b *testing.B) {
	b.Run("durable-go", func(b *testing.B) {
		n := b.N
		var got int
		b.ResetTimer()
		err := wfsynctest.Run(func(ctx ours.Context) { got = oursPingPong(ctx, n) })
		b.StopTimer()
		if err != nil || got != n {
			b.Fatalf("ping-pong: %v, counted %d of %d", err, got, n)
		}
		reportSwitches(b)
	})
	b.Run("go.temporal.io-sdk", func(b *testing.B) {
		var suite testsuite.WorkflowTestSuite
		suite.SetLogger(tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
		env := suite.NewTestWorkflowEnvironment()
		env.SetTestTimeout(time.Hour)
		env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
		env.RegisterWorkflow(officialPingPong)
		b.ResetTimer()
		env.ExecuteWorkflow(officialPingPong, b.N)
		b.StopTimer()
		var got int
		if err := env.GetWorkflowResult(&got); err != nil || got != b.N {
			b.Fatalf("ping-pong: %v, counted %d of %d", err, got, b.N)
		}
		reportSwitches(b)
	})
}

// reportSwitches adds the cost of one coroutine switch: half a round trip.
func reportSwitches(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/switch")
}

func oursPingPong(ctx ours.Context, n int) int {
	ping, pong, result := ours.NewChannel(ctx), ours.NewChannel(ctx), ours.NewChannel(ctx)
	ours.GoNamed(ctx, "pinger", func(ctx ours.Context) {
		v := 0
		for range n {
			ping.Send(ctx, v)
			pong.Receive(ctx, &v)
		}
		ping.Close()
		result.Send(ctx, v)
	})
	ours.GoNamed(ctx, "ponger", func(ctx ours.Context) {
		var v int
		for ping.Receive(ctx, &v) {
			pong.Send(ctx, v+1)
		}
	})
	var total int
	result.Receive(ctx, &total)
	return total
}

func officialPingPong(ctx official.Context, n int) (int, error) {
	ping, pong, result := official.NewChannel(ctx), official.NewChannel(ctx), official.NewChannel(ctx)
	official.GoNamed(ctx, "pinger", func(ctx official.Context) {
		v := 0
		for range n {
			ping.Send(ctx, v)
			pong.Receive(ctx, &v)
		}
		ping.Close()
		result.Send(ctx, v)
	})
	official.GoNamed(ctx, "ponger", func(ctx official.Context) {
		var v int
		for ping.Receive(ctx, &v) {
			pong.Send(ctx, v+1)
		}
	})
	var total int
	result.Receive(ctx, &total)
	return total, nil
}
