// Command slidingwindow runs the Temporal docs' batch sliding-window
// pattern: a parent keeps a fixed number of child workflows running over a
// record set, each child signals the parent when done, and the parent
// continues as new after every page. It starts a local dev server, runs
// 30 records with a window of 5 and a page of 10, and prints the total.
//
//	go run ./examples/slidingwindow
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "slidingwindow:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx := context.Background()
	server, err := testsuite.StartDevServer(ctx, testsuite.DevServerOptions{})
	if err != nil {
		return err
	}
	defer server.Stop()
	total, err := process(ctx, server.Client(), "sliding-window", 30)
	if err != nil {
		return err
	}
	fmt.Println("records processed:", total)
	return nil
}

// process runs a worker and one SlidingWindowWorkflow over records
// records, and returns its total.
func process(ctx context.Context, c client.Client, taskQueue string, records int) (int, error) {
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(SlidingWindowWorkflow)
	w.RegisterWorkflow(RecordProcessorWorkflow)
	w.RegisterActivity(GetRecords)
	if err := w.Start(); err != nil {
		return 0, err
	}
	defer w.Stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: taskQueue + "-batch", TaskQueue: taskQueue},
		SlidingWindowWorkflow, SlidingWindowInput{PageSize: 10, WindowSize: 5, MaximumOffset: records})
	if err != nil {
		return 0, err
	}
	var total int
	err = run.Get(ctx, &total)
	return total, err
}
