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
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Stop()
	opts := srv.ClientOptions()
	opts.Logger = log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn})))
	c, err := client.Dial(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	const taskQueue = "typed-bench"
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(incrementsTyped)
	w.RegisterWorkflow(incrementsUntyped)
	w.RegisterActivity(increment)
	if err := w.Start(); err != nil {
		b.Fatal(err)
	}
	defer w.Stop()

	ctx := context.Background()
	// Every run gets a workflow ID of its own, across -count repeats too.
	var runs int
	id := func() string { runs++; return fmt.Sprintf("typed-bench-%d", runs) }
	calls := []struct {
		name string
		call func(id string) (int, error)
	}{
		{"form=untyped", func(id string) (int, error) {
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, incrementsUntyped, 1)
			if err != nil {
				return 0, err
			}
			var v int
			err = run.Get(ctx, &v)
			return v, err
		}},
		{"form=typed", func(id string) (int, error) {
			run, err := typed.ExecuteWorkflow(ctx, c, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, incrementsTyped, 1)
			if err != nil {
				return 0, err
			}
			return run.Get(ctx)
		}},
	}
	for _, form := range calls {
		b.Run(form.name, func(b *testing.B) {
			// Warm up the worker's pollers and caches before measuring.
			for range 5 {
				if _, err := form.call(id()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			cpu0 := processCPU()
			for b.Loop() {
				v, err := form.call(id())
				if err != nil {
					b.Fatal(err)
				}
				if v != 1 {
					b.Fatalf("result %d, want 1", v)
				}
			}
			if cpu0 >= 0 {
				b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
