// Command nexus calls the operations of a Nexus service across two
// namespaces. The handler's worker, in my-target-namespace, serves the
// "hello" service: "echo", a synchronous operation, and "hello", which
// runs HelloHandlerWorkflow. The caller's worker, in my-caller-namespace,
// runs workflows that call them through the endpoint hello-endpoint.
//
// With a subcommand it plays one part against the server at -address
// (TEMPORAL_ADDRESS, else localhost:7233), whose namespaces and endpoint
// were created with the CLI (see README.md):
//
//	go run ./examples/nexus handler-worker   # runs until interrupted
//	go run ./examples/nexus caller-worker    # runs until interrupted
//	go run ./examples/nexus start -name Nexus -language fr
//
// Without one it plays every part in one process: it creates the
// namespaces and the endpoint (unless they exist), runs both workers,
// calls both operations and prints their results, on the server at
// -address or, with none, on a local dev server it starts and stops, as
// examples/hello does:
//
//	go run ./examples/nexus
//	go run ./examples/nexus -dev-server ~/go/bin/durable-devserver
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
)

const usage = `usage: nexus [flags] [handler-worker | caller-worker | start]

Without a subcommand it creates the namespaces and the endpoint, runs both
workers and calls both operations, on its own dev server unless -address
or TEMPORAL_ADDRESS names one.

flags:
`

// echoMessage is what the caller sends the echo operation.
const echoMessage = "Nexus calls cross namespaces"

func main() {
	address := flag.String("address", os.Getenv("TEMPORAL_ADDRESS"), "host:port of a running Temporal server; empty: localhost:7233 with a subcommand, a dev server of its own without one")
	devServer := flag.String("dev-server", "", "without a subcommand or -address: the dev server binary to start, a Temporal CLI or durable-devserver; empty looks for temporal on PATH")
	name := flag.String("name", "Nexus", "start: whom the hello operation greets")
	language := flag.String("language", string(English), "start: the hello operation's language: en, fr, de, es or tr")
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), usage)
		flag.PrintDefaults()
	}
	flag.Parse()
	// Flags may come after the subcommand too: start -name Temporal.
	sub := flag.Arg(0)
	if sub != "" {
		_ = flag.CommandLine.Parse(flag.Args()[1:]) // it exits on a bad flag
	}
	var err error
	switch {
	case flag.NArg() > 0:
		err = fmt.Errorf("one subcommand at most, got %q and %q", sub, flag.Args())
	case sub == "":
		err = runAll(*address, *devServer, *name, Language(*language))
	case sub == "handler-worker":
		err = runWorker(*address, HandlerNamespace, NewHandlerWorker)
	case sub == "caller-worker":
		err = runWorker(*address, CallerNamespace, NewCallerWorker)
	case sub == "start":
		err = start(*address, *name, Language(*language))
	default:
		err = fmt.Errorf("unknown subcommand %q: want handler-worker, caller-worker or start", sub)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "nexus:", err)
		os.Exit(1)
	}
}

// runWorker runs the worker newWorker makes, in namespace, until the
// process is interrupted.
func runWorker(address, namespace string, newWorker func(client.Client) worker.Worker) error {
	c, err := client.Dial(client.Options{HostPort: address, Namespace: namespace})
	if err != nil {
		return err
	}
	defer c.Close()
	return newWorker(c).Run(worker.InterruptCh())
}

// start runs the caller workflows, which the caller's worker runs, and
// prints their results.
func start(address, name string, language Language) error {
	c, err := client.Dial(client.Options{HostPort: address, Namespace: CallerNamespace})
	if err != nil {
		return err
	}
	defer c.Close()
	echo, hello, err := callBoth(context.Background(), c, echoMessage, name, language)
	if err != nil {
		return err
	}
	fmt.Println("echo operation:", echo)
	fmt.Println("hello operation:", hello)
	return nil
}

// runAll plays every part on the server at address, or on a dev server
// of its own.
func runAll(address, devServer, name string, language Language) error {
	ctx := context.Background()
	if address == "" {
		// The server's own log (its shutdown in particular) is noise here;
		// an error starting it quotes the end of that log.
		server, err := testsuite.StartDevServer(ctx, testsuite.DevServerOptions{ExistingPath: devServer, Stderr: io.Discard})
		if err != nil {
			return err
		}
		defer server.Stop()
		address = server.FrontendHostPort()
		fmt.Println("dev server running at", address)
	}
	if err := createNamespaces(ctx, address); err != nil {
		return err
	}
	handlerClient, err := client.Dial(client.Options{HostPort: address, Namespace: HandlerNamespace})
	if err != nil {
		return err
	}
	defer handlerClient.Close()
	callerClient, err := client.Dial(client.Options{HostPort: address, Namespace: CallerNamespace})
	if err != nil {
		return err
	}
	defer callerClient.Close()
	if err := createEndpoint(ctx, callerClient); err != nil {
		return err
	}
	for _, w := range []worker.Worker{NewHandlerWorker(handlerClient), NewCallerWorker(callerClient)} {
		if err := w.Start(); err != nil {
			return err
		}
		defer w.Stop()
	}
	echo, hello, err := callBoth(ctx, callerClient, echoMessage, name, language)
	if err != nil {
		return err
	}
	fmt.Println("echo operation:", echo)
	fmt.Println("hello operation:", hello)
	return nil
}
