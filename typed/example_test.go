package typed_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The package doc's example, compiled here so that it stays right. It
// needs a server, so it has no output to check.

func Greet(ctx context.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

func Greeting(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	return typed.ExecuteActivity(ctx, Greet, name).Get(ctx) // with 42 for name, it would not compile
}

func Example() {
	c, err := client.Dial(client.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, "hello", worker.Options{})
	w.RegisterWorkflow(Greeting)
	w.RegisterActivity(Greet)
	if err := w.Start(); err != nil {
		log.Fatal(err)
	}
	defer w.Stop()

	ctx := context.Background()
	run, err := typed.ExecuteWorkflow(ctx, c, client.StartWorkflowOptions{TaskQueue: "hello"}, Greeting, "Temporal")
	if err != nil {
		log.Fatal(err)
	}
	greeting, err := run.Get(ctx) // a string, as Greeting returns
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(greeting)
}

// Countdown counts down to zero, one run per number: each run continues
// as a new run of Countdown with the next number, which the compiler
// checks is an int.
func Countdown(ctx workflow.Context, n int) (string, error) {
	if n > 0 {
		return "", typed.NewContinueAsNewError(ctx, Countdown, n-1) // "two" would not compile
	}
	return "liftoff", nil
}

// The test environment runs one run: it ends with the error that
// continues the workflow, which names the next run's workflow and input.
func ExampleNewContinueAsNewError() {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	_, err := typedtest.ExecuteWorkflow(env, Countdown, 3)
	var next *workflow.ContinueAsNewError
	if errors.As(err, &next) {
		var n int
		_ = converter.GetDefaultDataConverter().FromPayloads(next.Input, &n)
		fmt.Println("continued as", next.WorkflowType.Name, "with", n)
	}
	// Output: continued as Countdown with 2
}
