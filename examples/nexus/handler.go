package main

// The handler side: the "hello" service's operations and the workflow
// behind one of them, run by a worker in the target namespace, whose task
// queue the endpoint targets.

import (
	"context"
	"fmt"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporalnexus"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// HandlerNamespace and HandlerTaskQueue are where the handler's worker
// runs: the endpoint's target.
const (
	HandlerNamespace = "my-target-namespace"
	HandlerTaskQueue = "my-handler-task-queue"
)

// EchoOperation answers at once, within the Nexus request: a synchronous
// operation is a plain function (it may call other services, or use
// temporalnexus.GetClient(ctx) to signal or query workflows, but it must
// return within the request's deadline).
var EchoOperation = nexus.NewSyncOperation(EchoOperationName,
	func(ctx context.Context, in EchoInput, _ nexus.StartOperationOptions) (EchoOutput, error) {
		return EchoOutput(in), nil
	})

// HelloOperation starts HelloHandlerWorkflow and completes when it does:
// the server delivers the workflow's result to the caller. The workflow's
// ID is derived from the request's ID, so that a retried start request
// finds the workflow it started already.
var HelloOperation = temporalnexus.NewWorkflowRunOperation(HelloOperationName, HelloHandlerWorkflow,
	func(ctx context.Context, in HelloInput, options nexus.StartOperationOptions) (client.StartWorkflowOptions, error) {
		return client.StartWorkflowOptions{ID: "hello-" + options.RequestID}, nil
	})

// HelloHandlerWorkflow greets in.Name in in.Language; a language it does
// not know fails it, and with it the operation.
func HelloHandlerWorkflow(_ workflow.Context, in HelloInput) (HelloOutput, error) {
	var greeting string
	switch in.Language {
	case English:
		greeting = "Hello"
	case French:
		greeting = "Bonjour"
	case German:
		greeting = "Hallo"
	case Spanish:
		greeting = "¡Hola"
	case Turkish:
		greeting = "Merhaba"
	default:
		return HelloOutput{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("unsupported language %q", in.Language), "UnsupportedLanguage", nil)
	}
	return HelloOutput{Message: greeting + " " + in.Name + "!"}, nil
}

// NewHelloService returns the "hello" service with its two operations.
func NewHelloService() *nexus.Service {
	s := nexus.NewService(ServiceName)
	s.MustRegister(EchoOperation, HelloOperation)
	return s
}

// NewHandlerWorker returns a worker of HandlerTaskQueue that serves the
// "hello" service and runs HelloHandlerWorkflow; c must be a client of
// HandlerNamespace.
func NewHandlerWorker(c client.Client) worker.Worker {
	w := worker.New(c, HandlerTaskQueue, worker.Options{})
	w.RegisterNexusService(NewHelloService())
	w.RegisterWorkflow(HelloHandlerWorkflow)
	return w
}
