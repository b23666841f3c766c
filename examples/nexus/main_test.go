package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
)

func TestMain(m *testing.M) { testharness.Main(m) }

// TestAcrossTwoNamespaces sets the example up on a dev server as its
// README does with the CLI (two namespaces, the endpoint), runs the
// handler's and the caller's workers, and calls both operations: the
// synchronous echo answers with its input, the hello operation's workflow
// greets. A language the handler's workflow does not know fails the
// operation, and the caller sees the workflow's error as the cause of a
// NexusOperationError. Setting up a second time (-count) finds the
// namespaces and the endpoint there and uses them.
func TestAcrossTwoNamespaces(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	address := testharness.HostPort(t)
	if err := createNamespaces(ctx, address); err != nil {
		t.Fatal(err)
	}
	handlerClient := dial(t, address, HandlerNamespace)
	callerClient := dial(t, address, CallerNamespace)
	if err := createEndpoint(ctx, callerClient); err != nil {
		t.Fatal(err)
	}
	for _, w := range []worker.Worker{NewHandlerWorker(handlerClient), NewCallerWorker(callerClient)} {
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
	}

	echo, hello, err := callBoth(ctx, callerClient, "ping", "Temporal", French)
	if err != nil {
		t.Fatal(err)
	}
	if echo != "ping" {
		t.Errorf("echo operation: got %q, want %q", echo, "ping")
	}
	if hello != "Bonjour Temporal!" {
		t.Errorf("hello operation: got %q, want %q", hello, "Bonjour Temporal!")
	}

	run, err := callerClient.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "nexus-hello-unknown-language", TaskQueue: CallerTaskQueue},
		HelloCallerWorkflow, "Temporal", Language("tlh"))
	if err != nil {
		t.Fatal(err)
	}
	err = run.Get(ctx, nil)
	var opErr *temporal.NexusOperationError
	var appErr *temporal.ApplicationError
	if !errors.As(err, &opErr) || opErr.Endpoint != Endpoint || opErr.Service != ServiceName || opErr.Operation != HelloOperationName {
		t.Fatalf("got %v; want a NexusOperationError of %s/%s/%s", err, Endpoint, ServiceName, HelloOperationName)
	}
	if !errors.As(opErr, &appErr) || appErr.Type() != "UnsupportedLanguage" {
		t.Errorf("the operation's cause: got %v, want the handler workflow's UnsupportedLanguage error", opErr.Unwrap())
	}
}

// dial returns a client of namespace, closed when the test ends.
func dial(t *testing.T, address, namespace string) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: address, Namespace: namespace})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}
