package testsuite_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// cyclicError's Unwrap returns itself: errors.Is on it never returns.
type cyclicError struct{}

func (e *cyclicError) Error() string { return "cyclic" }
func (e *cyclicError) Unwrap() error { return e }

func failsCyclically(context.Context) error { return &cyclicError{} }

const cyclicMessage = "the error (*testsuite_test.cyclicError) cannot be reported: its chain of wrapped errors is cyclic"

// cyclicFailures runs an activity and a local activity that fail with a
// cyclic error, reports what they failed with, and then fails with a
// cyclic error itself.
func cyclicFailures(ctx workflow.Context) ([]string, error) {
	once := &temporal.RetryPolicy{MaximumAttempts: 1}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute, RetryPolicy: once})
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Minute, RetryPolicy: once})
	var got []string
	for _, err := range []error{
		workflow.ExecuteActivity(ctx, failsCyclically).Get(ctx, nil),
		workflow.ExecuteLocalActivity(ctx, failsCyclically).Get(ctx, nil),
	} {
		var app *temporal.ApplicationError
		if !errors.As(err, &app) {
			return nil, err
		}
		got = append(got, app.Message())
	}
	return got, nil
}

// In the test environment as on a worker, an activity, a local activity
// and a workflow that return an error whose chain is cyclic fail with a
// message that says so, where they spun for ever.
func TestCyclicErrorsFailWithAClearMessage(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(failsCyclically)
	env.ExecuteWorkflow(cyclicFailures)
	var got []string
	if err := env.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], cyclicMessage) || !strings.HasPrefix(got[1], cyclicMessage) {
		t.Errorf("the activity and the local activity failed with %q, want each to start %q", got, cyclicMessage)
	}

	env = s.NewTestWorkflowEnvironment()
	env.ExecuteWorkflow(func(workflow.Context) error { return &cyclicError{} })
	var app *temporal.ApplicationError
	if err := env.GetWorkflowError(); !errors.As(err, &app) || !strings.HasPrefix(app.Message(), cyclicMessage) {
		t.Errorf("the workflow failed with %v, want a message that starts %q", err, cyclicMessage)
	}
}
