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
	"io"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "heartbeat-example"

// workflowID is the ID of the workflow the example runs: a fixed one, as a
// business ID would be, so that its test can read the history it wrote.
const workflowID = "heartbeat-job"

func main() {
	// An empty address is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	if err := run(context.Background(), os.Getenv("TEMPORAL_ADDRESS"), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "heartbeat:", err)
		os.Exit(1)
	}
}

// run runs a worker and the example's client against the server at
// hostPort, and writes what the client sees to out.
func run(ctx context.Context, hostPort string, out io.Writer) error {
	c, err := client.Dial(client.Options{HostPort: hostPort})
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

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflowID, TaskQueue: taskQueue}, RunJob, Job{Items: 40, CrashAfter: 25})
	if err != nil {
		return err
	}
	var progress Progress
	if err := run.Get(ctx, &progress); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d items done; attempt %d resumed at item %d\n", progress.Done, progress.Attempt, progress.ResumedAt)
	return nil
}
