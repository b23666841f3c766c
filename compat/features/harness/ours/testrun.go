package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
)

var testRuns atomic.Int64

// RunTest runs the feature as the test t on the dev server of
// internal/testharness, in a namespace of its own and on a task queue of
// its own: features start fixed workflow IDs and keep names in package
// variables, so runs in parallel and repeated runs (-count) would
// otherwise meet. A feature that skips itself fails the test, as the dev
// server supports all the features this module runs; a feature that fails
// logs the histories of its namespace.
func RunTest(ctx context.Context, t *testing.T, feature Feature) {
	t.Helper()
	hostPort := testharness.HostPort(t)
	name := fmt.Sprintf("%s-%d-%d", strings.TrimPrefix(t.Name(), "Test"), time.Now().UnixNano(), testRuns.Add(1))
	namespace := newNamespace(ctx, t, hostPort, name)
	runner, err := NewRunner(RunnerConfig{ServerHostPort: hostPort, Namespace: namespace, TaskQueue: name}, feature)
	if err != nil {
		t.Fatal(err)
	}
	if err := runner.Run(ctx); err != nil {
		var skipped *SkipError
		if errors.As(err, &skipped) {
			t.Fatalf("the feature skipped itself on the dev server, which supports it: %v", err)
		}
		logHistories(t, hostPort, namespace)
		t.Fatalf("feature failed: %v", err)
	}
}

// logHistories logs the history of every workflow in the namespace, for
// a failed feature.
func logHistories(t *testing.T, hostPort, namespace string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.Dial(client.Options{HostPort: hostPort, Namespace: namespace})
	if err != nil {
		t.Logf("no histories: %v", err)
		return
	}
	defer c.Close()
	resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: namespace})
	if err != nil {
		t.Logf("no histories: %v", err)
		return
	}
	for _, info := range resp.Executions {
		t.Logf("history of %s (run %s, %s, %s):", info.Type.GetName(), info.Execution.RunId, info.Execution.WorkflowId, info.Status)
		iter := c.GetWorkflowHistory(ctx, info.Execution.WorkflowId, info.Execution.RunId, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for iter.HasNext() {
			event, err := iter.Next()
			if err != nil {
				t.Logf("  %v", err)
				break
			}
			t.Logf("  %d %s %v", event.EventId, event.EventType, event.Attributes)
		}
	}
}

// newNamespace registers a namespace and waits until a client can use it.
func newNamespace(ctx context.Context, t *testing.T, hostPort, name string) string {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: hostPort})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace:                        name,
		WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour),
	}); err != nil {
		t.Fatalf("registering namespace %s: %v", name, err)
	}
	nc, err := client.NewNamespaceClient(client.Options{HostPort: hostPort})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	for {
		if _, err = nc.Describe(ctx, name); err == nil {
			return name
		}
		select {
		case <-ctx.Done():
			t.Fatalf("namespace %s not usable: %v", name, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
