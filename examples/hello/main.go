// Command hello is the smallest complete use of the SDK: it starts a local
// Temporal dev server, runs a worker, executes a workflow that calls an
// activity, prints the result, and stops everything.
//
//	go run ./examples/hello
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Greet is the activity: ordinary Go code, free to do I/O.
func Greet(ctx context.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// Greeting is the workflow: durable, deterministic code that orchestrates
// activities.
func Greeting(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var greeting string
	err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting)
	return greeting, err
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "hello:", err)
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
	fmt.Println("dev server running at", server.FrontendHostPort())

	c := server.Client()
	w := worker.New(c, "hello", worker.Options{})
	w.RegisterWorkflow(Greeting)
	w.RegisterActivity(Greet)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "hello-workflow", TaskQueue: "hello"}, Greeting, "Temporal")
	if err != nil {
		return err
	}
	var result string
	if err := run.Get(ctx, &result); err != nil {
		return err
	}
	fmt.Println("workflow result:", result)
	return nil
}
