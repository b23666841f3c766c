package compat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// client.Options.RPCTimeout (go.temporal.io/sdk v1.51) bounds each call
// the SDK makes, its retries included, when the caller's context has no
// deadline: a query of a workflow whose worker stopped ends after it with
// a *serviceerror.DeadlineExceeded on both SDKs (issue 33 item 1).

const shortRPCTimeout = 2 * time.Second

func ourQueryWithoutDeadline(t *testing.T, c client.Client) error {
	tq := fmt.Sprintf("rpctimeout-ours-%d", time.Now().UnixNano())
	w := worker.New(c, tq, worker.Options{})
	w.RegisterWorkflowWithOptions(DeadlineWaitsOurs, workflow.RegisterOptions{Name: "DeadlineWaits"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: tq}, "DeadlineWaits")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.TerminateWorkflow(context.Background(), run.GetID(), "", "test done") })
	if _, err := c.QueryWorkflow(context.Background(), run.GetID(), "", "state"); err != nil {
		t.Fatalf("query while the worker runs: %v", err)
	}
	w.Stop()
	_, err = c.QueryWorkflow(context.Background(), run.GetID(), "", "state")
	return err
}

func officialQueryWithoutDeadline(t *testing.T, c officialclient.Client) error {
	tq := fmt.Sprintf("rpctimeout-official-%d", time.Now().UnixNano())
	w := officialworker.New(c, tq, officialworker.Options{})
	w.RegisterWorkflowWithOptions(DeadlineWaitsOfficial, officialworkflow.RegisterOptions{Name: "DeadlineWaits"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(context.Background(), officialclient.StartWorkflowOptions{TaskQueue: tq}, "DeadlineWaits")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.TerminateWorkflow(context.Background(), run.GetID(), "", "test done") })
	if _, err := c.QueryWorkflow(context.Background(), run.GetID(), "", "state"); err != nil {
		t.Fatalf("query while the worker runs: %v", err)
	}
	w.Stop()
	_, err = c.QueryWorkflow(context.Background(), run.GetID(), "", "state")
	return err
}

func TestRPCTimeoutEndsACallWithoutADeadlineOnBothSDKs(t *testing.T) {
	hp := testharness.HostPort(t)
	ours, err := client.Dial(client.Options{HostPort: hp, RPCTimeout: shortRPCTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer ours.Close()
	theirs, err := officialclient.Dial(officialclient.Options{HostPort: hp, RPCTimeout: shortRPCTimeout, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer theirs.Close()
	for sdk, err := range map[string]error{
		"durable-go":         ourQueryWithoutDeadline(t, ours),
		"go.temporal.io/sdk": officialQueryWithoutDeadline(t, theirs),
	} {
		if _, ok := err.(*serviceerror.DeadlineExceeded); !ok {
			t.Errorf("%s: a query of a workflow whose worker stopped, with RPCTimeout %v and no deadline, returned %T (%v), want *serviceerror.DeadlineExceeded",
				sdk, shortRPCTimeout, err, err)
		}
	}
}

func TestANegativeRPCTimeoutIsRefusedByBothSDKs(t *testing.T) {
	hp := testharness.HostPort(t)
	_, ours := client.Dial(client.Options{HostPort: hp, RPCTimeout: -time.Second})
	_, theirs := officialclient.Dial(officialclient.Options{HostPort: hp, RPCTimeout: -time.Second, Logger: quiet{}})
	for sdk, err := range map[string]error{"durable-go": ours, "go.temporal.io/sdk": theirs} {
		if err == nil || !strings.Contains(err.Error(), "RPCTimeout") {
			t.Errorf("%s: Dial with RPCTimeout -1s returned %v, want an error naming RPCTimeout", sdk, err)
		}
	}
}
