package compat

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	officialclient "go.temporal.io/sdk/client"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	ourtemporal "github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// What each SDK's worker tells the server when a local activity outlives
// its first workflow task: heartbeats (ForceCreateNewWorkflowTask) and
// the metering of attempts made in later tasks.

// slowRetriesName is a workflow whose local activity fails 5 times with
// 300ms backoffs, retried within the task: it outlives its first workflow
// task (1s timeout, heartbeats every 800ms) and makes attempts in the next.
// Its attempts (at about 0, 300, ..., 1500ms) stay 100ms away from the
// heartbeats, so which task each falls in does not depend on a loaded
// machine's timer latency: three are made after the first task.
const slowRetriesName = "LocalSlowRetriesWorkflow"

func slowRetriesOurs(ctx workflow.Context) (int32, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 5 * time.Second,
		RetryPolicy: &ourtemporal.RetryPolicy{InitialInterval: 300 * time.Millisecond, BackoffCoefficient: 1}})
	var attempt int32
	err := workflow.ExecuteLocalActivity(ctx, LocalFlaky, int32(6)).Get(ctx, &attempt)
	return attempt, err
}

func slowRetriesOfficial(ctx officialworkflow.Context) (int32, error) {
	ctx = officialworkflow.WithLocalActivityOptions(ctx, officialworkflow.LocalActivityOptions{StartToCloseTimeout: 5 * time.Second,
		RetryPolicy: &officialtemporal.RetryPolicy{InitialInterval: 300 * time.Millisecond, BackoffCoefficient: 1}})
	var attempt int32
	err := officialworkflow.ExecuteLocalActivity(ctx, LocalFlaky, int32(6)).Get(ctx, &attempt)
	return attempt, err
}

// completions records the workflow task completions a client sends.
type completions struct {
	mu   sync.Mutex
	sent []*workflowservice.RespondWorkflowTaskCompletedRequest
}

func (c *completions) interceptor() grpc.DialOption {
	return grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if r, ok := req.(*workflowservice.RespondWorkflowTaskCompletedRequest); ok {
			c.mu.Lock()
			c.sent = append(c.sent, r)
			c.mu.Unlock()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	})
}

// heartbeatsAndMetering returns how many completions asked for a new task
// at once (heartbeats) and the sum of their metered attempts.
func (c *completions) heartbeatsAndMetering() (heartbeats int, nonfirstAttempts uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.sent {
		if r.GetForceCreateNewWorkflowTask() {
			heartbeats++
		}
		nonfirstAttempts += r.GetMeteringMetadata().GetNonfirstLocalActivityExecutionAttempts()
	}
	return heartbeats, nonfirstAttempts
}

// TestWhatTheWorkersReportOfALocalActivityOutlivingItsTask: both SDKs'
// workers heartbeat the task, and report the same number of attempts made
// after the first workflow task
// (MeteringMetadata.NonfirstLocalActivityExecutionAttempts, what Temporal
// Cloud bills as extra actions).
func TestWhatTheWorkersReportOfALocalActivityOutlivingItsTask(t *testing.T) {
	hp := testharness.HostPort(t)
	var ours, official completions
	c, err := client.Dial(client.Options{HostPort: hp, ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{ours.interceptor()}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close) // after the workers stop
	oc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{},
		ConnectionOptions: officialclient.ConnectionOptions{DialOptions: []grpc.DialOption{official.interceptor()}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(oc.Close)
	stamp := time.Now().UnixNano()
	officialTQ, oursTQ := fmt.Sprintf("la-metering-official-%d", stamp), fmt.Sprintf("la-metering-ours-%d", stamp)
	ow := officialworker.New(oc, officialTQ, officialworker.Options{})
	ow.RegisterWorkflowWithOptions(slowRetriesOfficial, officialworkflow.RegisterOptions{Name: slowRetriesName})
	w := worker.New(c, oursTQ, worker.Options{})
	w.RegisterWorkflowWithOptions(slowRetriesOurs, workflow.RegisterOptions{Name: slowRetriesName})
	startBoth(t, w, ow)
	for _, tq := range []string{officialTQ, oursTQ} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq, WorkflowTaskTimeout: localActivityTaskTimeout}, slowRetriesName)
		if err != nil {
			t.Fatal(err)
		}
		var attempt int32
		err = run.Get(ctx, &attempt)
		cancel()
		if err != nil || attempt != 6 {
			t.Fatalf("%s: attempt %d, %v; want the 6th attempt to succeed", tq, attempt, err)
		}
	}
	officialHeartbeats, officialMetered := official.heartbeatsAndMetering()
	ourHeartbeats, ourMetered := ours.heartbeatsAndMetering()
	t.Logf("heartbeats and attempts metered: official %d, %d; ours %d, %d", officialHeartbeats, officialMetered, ourHeartbeats, ourMetered)
	if officialHeartbeats == 0 || ourHeartbeats == 0 {
		t.Errorf("heartbeats: official %d, ours %d; want both to keep the task alive", officialHeartbeats, ourHeartbeats)
	}
	if officialMetered == 0 {
		t.Errorf("the official SDK metered no attempts after the first workflow task; the workflow no longer outlives its first task")
	}
	if ourMetered != officialMetered {
		t.Errorf("attempts metered after the first workflow task: ours %d, official %d; want the same", ourMetered, officialMetered)
	}
}
