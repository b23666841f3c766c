package main

// The caller side: workflows in the caller namespace that call the "hello"
// service's operations through the endpoint. They know only the endpoint's
// name and the service's contract (service.go), not where the handler
// runs.

import (
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// CallerNamespace and CallerTaskQueue are where the caller's worker runs.
const (
	CallerNamespace = "my-caller-namespace"
	CallerTaskQueue = "my-caller-task-queue"
)

// Endpoint is the Nexus endpoint's name: the server routes its operations
// to the handler's namespace and task queue.
const Endpoint = "hello-endpoint"

// operationOptions bound each operation: past the timeout the operation
// fails with a timeout, whatever the handler does.
var operationOptions = workflow.NexusOperationOptions{ScheduleToCloseTimeout: time.Minute}

// EchoCallerWorkflow calls the synchronous echo operation with message and
// returns its answer.
func EchoCallerWorkflow(ctx workflow.Context, message string) (string, error) {
	c := workflow.NewNexusClient(Endpoint, ServiceName)
	var out EchoOutput
	err := c.ExecuteOperation(ctx, EchoOperationName, EchoInput{Message: message}, operationOptions).Get(ctx, &out)
	return out.Message, err
}

// HelloCallerWorkflow calls the asynchronous hello operation, which runs a
// workflow in the handler's namespace, and returns its greeting. It logs
// the operation's token once the operation has started.
func HelloCallerWorkflow(ctx workflow.Context, name string, language Language) (string, error) {
	c := workflow.NewNexusClient(Endpoint, ServiceName)
	future := c.ExecuteOperation(ctx, HelloOperationName, HelloInput{Name: name, Language: language}, operationOptions)
	var execution workflow.NexusOperationExecution
	if err := future.GetNexusOperationExecution().Get(ctx, &execution); err != nil {
		return "", err
	}
	workflow.GetLogger(ctx).Info("hello operation started", "OperationToken", execution.OperationToken)
	var out HelloOutput
	err := future.Get(ctx, &out)
	return out.Message, err
}

// NewCallerWorker returns a worker of CallerTaskQueue that runs the
// caller workflows; c must be a client of CallerNamespace.
func NewCallerWorker(c client.Client) worker.Worker {
	w := worker.New(c, CallerTaskQueue, worker.Options{})
	w.RegisterWorkflow(EchoCallerWorkflow)
	w.RegisterWorkflow(HelloCallerWorkflow)
	return w
}
