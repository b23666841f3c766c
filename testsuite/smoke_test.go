package testsuite_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

func Greet(ctx context.Context, name string) (string, error) { return "Hello, " + name + "!", nil }

func Greeting(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	if err := workflow.Sleep(ctx, 72*time.Hour); err != nil {
		return "", err
	}
	var greeting string
	err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting)
	return greeting, err
}

func TestSmoke(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(Greet)
	start := time.Now()
	env.ExecuteWorkflow(Greeting, "Temporal")
	if !env.IsWorkflowCompleted() {
		t.Fatal("not completed")
	}
	var got string
	if err := env.GetWorkflowResult(&got); err != nil || got != "Hello, Temporal!" {
		t.Fatalf("%q %v", got, err)
	}
	t.Logf("took %v, now %v", time.Since(start), env.Now())
}

func TestSmokeMock(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.OnActivity(Greet, mock.Anything, "Temporal").Return("mocked", nil)
	env.ExecuteWorkflow(Greeting, "Temporal")
	var got string
	if err := env.GetWorkflowResult(&got); err != nil || got != "mocked" {
		t.Fatalf("%q %v", got, err)
	}
	env.AssertExpectations(t)
}
