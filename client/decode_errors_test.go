package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func decodeGreet(context.Context) (string, error) { return "hello", nil }

func decodeGreeting(workflow.Context) (string, error) { return "hello", nil }

// decodeIntoInt gets the string result of an activity, or of a child, into
// an int and returns that error.
func decodeIntoInt(ctx workflow.Context, from string) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var n int
	if from == "child" {
		return workflow.ExecuteChildWorkflow(ctx, decodeGreeting).Get(ctx, &n)
	}
	return workflow.ExecuteActivity(ctx, decodeGreet).Get(ctx, &n)
}

// checkSaidOnce fails unless msg says each part exactly once.
func checkSaidOnce(t *testing.T, msg string, parts ...string) {
	t.Helper()
	for _, part := range parts {
		if n := strings.Count(msg, part); n != 1 {
			t.Errorf("%q said %d times, want once, in: %s", part, n, msg)
		}
	}
}

// A result decoded into the wrong type says what is wrong once, with the
// payload and the type: in WorkflowRun.Get, and in the failure of a
// workflow that returns the error an activity's or a child's future gave
// (issue 32 item 7; each wrapper used to say it again, about five times).
func TestDecodingIntoTheWrongTypeSaysSoOnce(t *testing.T) {
	c := dial(t)
	taskQueue := workflowID(t)
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(decodeIntoInt)
	w.RegisterWorkflow(decodeGreeting)
	w.RegisterActivity(decodeGreet)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx := ctxFor(t)
	parts := []string{"payload item 0", `unable to decode payload with encoding "json/plain" into int`, "cannot unmarshal string into Go value of type int"}

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflowID(t), TaskQueue: taskQueue}, decodeGreeting)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	err = run.Get(ctx, &n)
	if !errors.Is(err, converter.ErrUnableToDecode) {
		t.Fatalf("WorkflowRun.Get into an int: %v; want ErrUnableToDecode", err)
	}
	checkSaidOnce(t, err.Error(), append(parts, "decode")...)

	for _, from := range []string{"activity", "child"} {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflowID(t), TaskQueue: taskQueue}, decodeIntoInt, from)
		if err != nil {
			t.Fatal(err)
		}
		err = run.Get(ctx, nil)
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) {
			t.Fatalf("%s: %v; want the workflow's failure", from, err)
		}
		checkSaidOnce(t, err.Error(), parts...)
	}
}
