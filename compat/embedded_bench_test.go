package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// GreetOnce runs the activity Greet once.
func GreetOnce(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var greeting string
	err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting)
	return greeting, err
}

// BenchmarkOneActivityWorkflowEmbeddedVsDevServer measures start to
// result of a one-activity workflow (GreetOnce), with this SDK's client
// and worker, on the embedded server and on the dev server:
// go test -run XXX -bench EmbeddedVsDevServer ./compat/
func BenchmarkOneActivityWorkflowEmbeddedVsDevServer(b *testing.B) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Stop()
	targets := []struct {
		name string
		opts func() client.Options
	}{
		{"embedded", srv.ClientOptions},
		{"devserver", func() client.Options { return client.Options{HostPort: testharness.HostPort(b)} }},
	}
	for _, target := range targets {
		b.Run(target.name, func(b *testing.B) {
			c, err := client.Dial(target.opts())
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			tq := fmt.Sprintf("bench-one-activity-%d", time.Now().UnixNano())
			w := worker.New(c, tq, worker.Options{})
			w.RegisterWorkflow(GreetOnce)
			w.RegisterActivity(Greet)
			if err := w.Start(); err != nil {
				b.Fatal(err)
			}
			defer w.Stop()
			ctx := context.Background()
			// The first workflow on a new task queue waits for a dev
			// server's matching service to load the queue (about a
			// second): not what a workflow costs, so it runs before the
			// timed loop, on both targets.
			warmUp, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: tq + "-warm-up", TaskQueue: tq}, GreetOnce, "Temporal")
			if err != nil {
				b.Fatal(err)
			}
			if err := warmUp.Get(ctx, nil); err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				i++
				run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("%s-%d", tq, i), TaskQueue: tq}, GreetOnce, "Temporal")
				if err != nil {
					b.Fatal(err)
				}
				if err := run.Get(ctx, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
