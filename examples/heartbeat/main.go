// Command heartbeat runs a long activity that records its progress in its
// heartbeats. Its first attempt fails half-way; the retry reads the last
// heartbeat's details and resumes from there.
//
//	temporal server start-dev &    # or TEMPORAL_ADDRESS=host:port
//	go run ./examples/heartbeat
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "heartbeat-example"

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "heartbeat:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	// An empty HostPort is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	c, err := client.Dial(client.Options{HostPort: os.Getenv("TEMPORAL_ADDRESS")})
	if err != nil {
		return err
	}
	defer c.Close()

	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(RunJob)
	w.RegisterActivity(ProcessItems)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue}, RunJob, Job{Items: 40, CrashAfter: 25})
	if err != nil {
		return err
	}
	var progress Progress
	if err := run.Get(ctx, &progress); err != nil {
		return err
	}
	fmt.Printf("%d items done; attempt %d resumed at item %d\n", progress.Done, progress.Attempt, progress.ResumedAt)
	return nil
}
