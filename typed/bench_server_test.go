package typed_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/worker"
)

// BenchmarkEmbeddedServer is a whole call through the typed API against
// the same call through the untyped one, over gRPC: the client starts a
// workflow (typed.ExecuteWorkflow or client.ExecuteWorkflow), a worker
// runs it and its one activity (typed.ExecuteActivity or
// workflow.ExecuteActivity), and the client waits for the result
// (WorkflowRun[int].Get or WorkflowRun.Get). Client, worker and the
// embedded server (temporaltest, in memory) share the process, so ns/op
// and allocs/op count all three, and so does cpu-ns/op, the process's
// CPU time (getrusage, user+system; not reported where there is none):
// ns/op is wall time, and depends on the machine's load. The difference between the forms is
// what the typed layer adds to the call the official SDK has:
//
//	go test -run '^$' -bench EmbeddedServer -benchmem -count 6 ./typed | benchstat -col /form -
func BenchmarkEmbeddedServer(b *testing.B) {
	forms := []struct {
		name string
		call func(ctx context.Context, c client.Client, id string) (int, error)
	}{
		{"form=untyped", func(ctx context.Context, c client.Client, id string) (int, error) {
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: benchTaskQueue}, incrementsUntyped, 1)
			if err != nil {
				return 0, err
			}
			var v int
			err = run.Get(ctx, &v)
			return v, err
		}},
		{"form=typed", func(ctx context.Context, c client.Client, id string) (int, error) {
			run, err := typed.ExecuteWorkflow(ctx, c, client.StartWorkflowOptions{ID: id, TaskQueue: benchTaskQueue}, incrementsTyped, 1)
			if err != nil {
				return 0, err
			}
			return run.Get(ctx)
		}},
	}
	for _, form := range forms {
		b.Run(form.name, func(b *testing.B) {
			// A server, client and worker of its own: the server keeps
			// every workflow, and a run after another would pay for the
			// other's in its heap.
			c := startBenchWorker(b)
			ctx := context.Background()
			runs := 0
			call := func() {
				runs++
				v, err := form.call(ctx, c, fmt.Sprintf("typed-bench-%d", runs))
				if err != nil {
					b.Fatal(err)
				}
				if v != 1 {
					b.Fatalf("result %d, want 1", v)
				}
			}
			// Warm up the worker's pollers and caches before measuring.
			for range 5 {
				call()
			}
			b.ReportAllocs()
			cpu0 := processCPU()
			for b.Loop() {
				call()
			}
			if cpu0 >= 0 {
				b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

const benchTaskQueue = "typed-bench"

// startBenchWorker starts an embedded server and a worker of the
// benchmark's workflows and activity, and returns the worker's client;
// all stop when b ends.
func startBenchWorker(b *testing.B) client.Client {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Stop)
	opts := srv.ClientOptions()
	opts.Logger = log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn})))
	c, err := client.Dial(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Close)
	w := worker.New(c, benchTaskQueue, worker.Options{})
	w.RegisterWorkflow(incrementsTyped)
	w.RegisterWorkflow(incrementsUntyped)
	w.RegisterActivity(increment)
	if err := w.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(w.Stop)
	return c
}
