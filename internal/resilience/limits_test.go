package resilience

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The limits of the dev server of TestPayloadLimitsGiveClearErrors, far
// below the defaults (2 MiB a payload field, 51,200 events), and a
// payload over the first.
const (
	testHistoryLimit = 25
	overBlobLimit    = 100_000
)

func echo(_ context.Context, s string) (string, error) { return s, nil }

func repeatX(_ context.Context, n int) (string, error) { return strings.Repeat("x", n), nil }

// returnsLarge returns a result of n bytes.
func returnsLarge(_ workflow.Context, n int) (string, error) { return strings.Repeat("x", n), nil }

// takesLarge is a workflow whose input is s.
func takesLarge(_ workflow.Context, s string) (int, error) { return len(s), nil }

// sendsLarge calls an activity with an input of n bytes.
func sendsLarge(ctx workflow.Context, n int) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var s string
	err := workflow.ExecuteActivity(ctx, echo, strings.Repeat("x", n)).Get(ctx, &s)
	return s, err
}

// receivesLarge calls an activity whose result has n bytes.
func receivesLarge(ctx workflow.Context, n int) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var s string
	err := workflow.ExecuteActivity(ctx, repeatX, n).Get(ctx, &s)
	return s, err
}

// sleepsOften takes n timers, each adding events to its history.
func sleepsOften(ctx workflow.Context, n int) (int, error) {
	for i := range n {
		if err := workflow.Sleep(ctx, time.Millisecond); err != nil {
			return i, err
		}
	}
	return n, nil
}

// TestPayloadLimitsGiveClearErrors runs against a dev server whose limits
// are lowered: a payload or a history over them gives an error that says
// which limit, how large the payloads were, and how to change the limit,
// not the server's bare "exceeds limit".
func TestPayloadLimitsGiveClearErrors(t *testing.T) {
	testharness.RequireCLI(t)
	server, err := devserver.Start(context.Background(), devserver.Options{Stderr: &bytes.Buffer{}, DynamicConfig: map[string]string{
		"limit.blobSize.error": "65536", "limit.blobSize.warn": "32768", // 64 and 32 KiB
		"limit.historyCount.error": "25", "limit.historyCount.warn": "15",
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = server.Stop() }()
	c, err := client.Dial(client.Options{HostPort: server.HostPort(), Logger: &lineLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := unique(t, "tq")
	w := worker.New(c, tq, worker.Options{})
	for _, wf := range []any{returnsLarge, takesLarge, sendsLarge, receivesLarge, sleepsOften} {
		w.RegisterWorkflow(wf)
	}
	w.RegisterActivity(echo)
	w.RegisterActivity(repeatX)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := func(wf any, arg any) client.WorkflowRun {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, wf, arg)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	const blobLimit = "exceeds size limit: over the server's limit on the payloads of one field, dynamic config limit.blobSize.error (2 MiB by default)"
	large := strings.Repeat("y", overBlobLimit)

	t.Run("a workflow's input", func(t *testing.T) {
		_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, takesLarge, large)
		var invalid *serviceerror.InvalidArgument
		if !errors.As(err, &invalid) {
			t.Fatalf("want an InvalidArgument, got %T: %v", err, err)
		}
		wantError(t, err, "Blob data size exceeds limit: over the server's limit on the payloads of one field, dynamic config limit.blobSize.error (2 MiB by default); the request carries 97.7 KiB of payloads")
	})
	t.Run("a signal's input", func(t *testing.T) {
		run := start(sleepsOften, 1)
		err := c.SignalWorkflow(ctx, run.GetID(), "", "any", large)
		wantError(t, err, "Blob data size exceeds limit: over the server's limit on the payloads of one field, dynamic config limit.blobSize.error (2 MiB by default); the request carries 97.7 KiB of payloads")
	})
	t.Run("a workflow's result", func(t *testing.T) {
		err := start(returnsLarge, overBlobLimit).Get(ctx, nil)
		var terminated *temporal.TerminatedError
		if !errors.As(err, &terminated) {
			t.Fatalf("want a TerminatedError, got %T: %v", err, err)
		}
		wantError(t, err, "terminated by the server", "CompleteWorkflowExecutionCommandAttributes.Result "+blobLimit)
	})
	t.Run("an activity's input", func(t *testing.T) {
		err := start(sendsLarge, overBlobLimit).Get(ctx, nil)
		wantError(t, err, "terminated by the server", "ScheduleActivityTaskCommandAttributes.Input "+blobLimit)
	})
	t.Run("an activity's result", func(t *testing.T) {
		// The server records the result it refused as the activity's
		// failure, in its own words, which the workflow sees.
		err := start(receivesLarge, overBlobLimit).Get(ctx, nil)
		var activityErr *temporal.ActivityError
		if !errors.As(err, &activityErr) {
			t.Fatalf("want an ActivityError, got %T: %v", err, err)
		}
		wantError(t, err, "Complete result exceeds size limit")
	})
	t.Run("a history's length", func(t *testing.T) {
		err := start(sleepsOften, testHistoryLimit).Get(ctx, nil)
		wantError(t, err, "terminated by the server: Workflow history count exceeds limit: over the server's limit on a workflow's history events, dynamic config limit.historyCount.error (51,200 by default); a workflow that runs long should continue as new")
	})
}
