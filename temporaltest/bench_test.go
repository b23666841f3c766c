package temporaltest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// BenchmarkNewServer measures a server's start (to accepting connections)
// and stop, on a loopback port and in memory.
func BenchmarkNewServer(b *testing.B) {
	for _, inMemory := range []bool{false, true} {
		name := "loopback"
		if inMemory {
			name = "inMemory"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				srv, err := temporaltest.NewServer(temporaltest.ServerOptions{InMemory: inMemory})
				if err != nil {
					b.Fatal(err)
				}
				srv.Stop()
			}
		})
	}
}

// Hour sleeps for an hour.
func Hour(ctx workflow.Context) error { return workflow.Sleep(ctx, time.Hour) }

// BenchmarkOneHourTimerWithTimeSkipping measures the wall time of a
// workflow that sleeps for an hour, start to result, on a server with
// time skipping, with a real client and worker.
func BenchmarkOneHourTimerWithTimeSkipping(b *testing.B) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{TimeSkipping: true, InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Stop()
	c, err := client.Dial(srv.ClientOptions())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, "hour", worker.Options{})
	w.RegisterWorkflow(Hour)
	if err := w.Start(); err != nil {
		b.Fatal(err)
	}
	defer w.Stop()
	ctx := context.Background()
	i := 0
	for b.Loop() {
		i++
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("hour-%d", i), TaskQueue: "hour"}, Hour)
		if err != nil {
			b.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
}
