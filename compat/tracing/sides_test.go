package tracingcompat

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	officialactivity "go.temporal.io/sdk/activity"
	officialclient "go.temporal.io/sdk/client"
	officialinterceptor "go.temporal.io/sdk/interceptor"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func TestMain(m *testing.M) { testharness.Main(m) }

// The workflow both SDKs run, under one type name: it greets through the
// activity "Greet", which each test gives in the flavour of its tracing
// library (it reads the caller's baggage from its span).
const (
	workflowType = "GreetWorkflow"
	activityType = "Greet"
)

func greetWorkflowOurs(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var greeting string
	err := workflow.ExecuteActivity(ctx, activityType, name).Get(ctx, &greeting)
	return greeting, err
}

func greetWorkflowOfficial(ctx officialworkflow.Context, name string) (string, error) {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var greeting string
	err := officialworkflow.ExecuteActivity(ctx, activityType, name).Get(ctx, &greeting)
	return greeting, err
}

// sdkSide is one SDK with its tracing interceptor: a client that starts
// the workflow, or a worker that runs it.
type sdkSide struct {
	// start starts the workflow on taskQueue under the span of ctx and
	// returns its result.
	start func(t *testing.T, ctx context.Context, taskQueue string) string
	// serve runs a worker of the workflow and greet on taskQueue until the
	// test ends.
	serve func(t *testing.T, taskQueue string, greet func(context.Context, string) (string, error))
}

func ourSide(tracing interceptor.Interceptor) sdkSide {
	dial := func(t *testing.T) client.Client {
		t.Helper()
		c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Interceptors: []interceptor.ClientInterceptor{tracing}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	return sdkSide{
		start: func(t *testing.T, ctx context.Context, taskQueue string) string {
			run, err := dial(t).ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, workflowType, "ann")
			if err != nil {
				t.Fatal(err)
			}
			var greeting string
			if err := run.Get(ctx, &greeting); err != nil {
				t.Fatal(err)
			}
			return greeting
		},
		serve: func(t *testing.T, taskQueue string, greet func(context.Context, string) (string, error)) {
			w := worker.New(dial(t), taskQueue, worker.Options{})
			w.RegisterWorkflowWithOptions(greetWorkflowOurs, workflow.RegisterOptions{Name: workflowType})
			w.RegisterActivityWithOptions(greet, activity.RegisterOptions{Name: activityType})
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(w.Stop)
		},
	}
}

func officialSide(tracing officialinterceptor.Interceptor) sdkSide {
	dial := func(t *testing.T) officialclient.Client {
		t.Helper()
		c, err := officialclient.Dial(officialclient.Options{HostPort: testharness.HostPort(t), Interceptors: []officialinterceptor.ClientInterceptor{tracing}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	return sdkSide{
		start: func(t *testing.T, ctx context.Context, taskQueue string) string {
			run, err := dial(t).ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, workflowType, "ann")
			if err != nil {
				t.Fatal(err)
			}
			var greeting string
			if err := run.Get(ctx, &greeting); err != nil {
				t.Fatal(err)
			}
			return greeting
		},
		serve: func(t *testing.T, taskQueue string, greet func(context.Context, string) (string, error)) {
			w := officialworker.New(dial(t), taskQueue, officialworker.Options{})
			w.RegisterWorkflowWithOptions(greetWorkflowOfficial, officialworkflow.RegisterOptions{Name: workflowType})
			w.RegisterActivityWithOptions(greet, officialactivity.RegisterOptions{Name: activityType})
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(w.Stop)
		},
	}
}

// directions are the pairings each test runs: a client of one SDK, a
// worker of the other.
var directions = []struct{ client, worker string }{
	{"ours", "official"},
	{"official", "ours"},
}

var seq atomic.Int64

func unique(t *testing.T, what string) string {
	return fmt.Sprintf("%s-%s-%d-%d", strings.ReplaceAll(t.Name(), "/", "-"), what, time.Now().UnixNano(), seq.Add(1))
}
