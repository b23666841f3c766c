// Command hello is the smallest complete use of the SDK: it runs a worker,
// executes a workflow that calls an activity, prints the result, and stops
// everything. It uses the Temporal server at -address (TEMPORAL_ADDRESS by
// default) or, with neither set, starts a server of its own and stops it
// at the end: a dev server, the binary -dev-server names (a Temporal CLI,
// or durable-devserver, which scripts/run-sample.sh installs), else the
// temporal CLI on PATH; with -embedded, or with no dev server binary at
// all, the embedded server (package temporaltest), in the process, in
// milliseconds.
//
//	go run ./examples/hello
//	go run ./examples/hello -embedded
//	go run ./examples/hello -address localhost:7233
//	go run ./examples/hello -dev-server ~/go/bin/durable-devserver
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporaltest"
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
	embedded := flag.Bool("embedded", false, "with -address empty, run the embedded server in the process instead of a dev server (the default when no dev server binary is found)")
	flag.Parse()
	if !*embedded && *address == "" && *devServer == "" {
		_, err := exec.LookPath("temporal")
		*embedded = err != nil
	}
	if err := run(*address, *devServer, *embedded, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "hello:", err)
		os.Exit(1)
	}
}

// run runs a worker and the greeting workflow on the server main chose,
// and writes which server and the workflow's result to out.
func run(address, devServer string, embedded bool, out io.Writer) error {
	ctx := context.Background()
	var c client.Client
	switch {
	case address == "" && embedded:
		server, err := temporaltest.NewServer(temporaltest.ServerOptions{})
		if err != nil {
			return err
		}
		defer server.Stop()
		if c, err = client.Dial(server.ClientOptions()); err != nil {
			return err
		}
		defer c.Close()
		fmt.Fprintln(out, "embedded server running at", server.HostPort(), "(in memory; for a real server: -address or TEMPORAL_ADDRESS)")
	case address != "":
		var err error
		if c, err = client.Dial(client.Options{HostPort: address}); err != nil {
			return err
		}
		defer c.Close()
		fmt.Fprintln(out, "using the server at", address)
	default:
		// The server's own log (its shutdown in particular) is noise here;
		// an error starting it quotes the end of that log.
		server, err := testsuite.StartDevServer(ctx, testsuite.DevServerOptions{ExistingPath: devServer, Stderr: io.Discard})
		if err != nil {
			return err
		}
		defer server.Stop()
		fmt.Fprintln(out, "dev server running at", server.FrontendHostPort())
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
	fmt.Fprintln(out, "workflow result:", result)
	return nil
}
