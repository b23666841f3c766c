// Command hello is the smallest complete use of the SDK: it runs a worker,
// executes a workflow that calls an activity, prints the result, and stops
// everything. It uses the Temporal server at -address (TEMPORAL_ADDRESS by
// default) or, with neither set, starts a local dev server of its own and
// stops it at the end: the binary -dev-server names (a Temporal CLI, or
// durable-devserver, which scripts/run-sample.sh installs), else the
// temporal CLI on PATH.
//
//	go run ./examples/hello
//	go run ./examples/hello -address localhost:7233
//	go run ./examples/hello -dev-server ~/go/bin/durable-devserver
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
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
	address := flag.String("address", os.Getenv("TEMPORAL_ADDRESS"), "host:port of a running Temporal server; empty starts a local dev server")
	devServer := flag.String("dev-server", "", "the dev server binary to start when -address is empty: a Temporal CLI or durable-devserver; empty looks for temporal on PATH")
	flag.Parse()
	if err := run(*address, *devServer); err != nil {
		fmt.Fprintln(os.Stderr, "hello:", err)
		os.Exit(1)
	}
}

func run(address, devServer string) error {
	ctx := context.Background()
	var c client.Client
	if address != "" {
		var err error
		if c, err = client.Dial(client.Options{HostPort: address}); err != nil {
			return err
		}
		defer c.Close()
		fmt.Println("using the server at", address)
	} else {
		// The server's own log (its shutdown in particular) is noise here;
		// an error starting it quotes the end of that log.
		server, err := testsuite.StartDevServer(ctx, testsuite.DevServerOptions{ExistingPath: devServer, Stderr: io.Discard})
		if err != nil {
			return err
		}
		defer server.Stop()
		fmt.Println("dev server running at", server.FrontendHostPort())
		c = server.Client()
	}

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
