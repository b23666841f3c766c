package temporaltest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
)

// pollersOf waits until DescribeTaskQueue lists a poller of the type.
func pollersOf(t *testing.T, c client.Client, queue string, taskType enumspb.TaskQueueType) []*taskqueuepb.PollerInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		resp, err := c.DescribeTaskQueue(ctx, queue, taskType)
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.GetPollers()) > 0 {
			return resp.GetPollers()
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no %v poller of %s listed", taskType, queue)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func TestDescribeTaskQueueListsPollersAndBacklog(t *testing.T) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	opts := srv.ClientOptions()
	opts.Identity = "described-worker"
	c, err := client.Dial(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// A queue nobody polls: its backlog, and no pollers.
	for _, id := range []string{"waiting-1", "waiting-2"} {
		if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: "unpolled"}, Attributed, "done"); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := c.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{
		Namespace: srv.Namespace(), TaskQueue: &taskqueuepb.TaskQueue{Name: "unpolled"}, ReportStats: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetPollers()) != 0 || resp.GetStats().GetApproximateBacklogCount() != 2 || resp.GetStats().GetApproximateBacklogAge() == nil {
		t.Errorf("the unpolled queue: %v; want no pollers and a backlog of 2", resp)
	}

	before := time.Now()
	w := worker.New(c, "polled", worker.Options{})
	w.RegisterWorkflow(Attributed)
	w.RegisterActivity(Greet)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for _, taskType := range []enumspb.TaskQueueType{enumspb.TASK_QUEUE_TYPE_WORKFLOW, enumspb.TASK_QUEUE_TYPE_ACTIVITY} {
		pollers := pollersOf(t, c, "polled", taskType)
		p := pollers[0]
		if len(pollers) != 1 || p.GetIdentity() != "described-worker" || p.GetLastAccessTime().AsTime().Before(before.Add(-time.Second)) || p.GetRatePerSecond() <= 0 {
			t.Errorf("%v pollers %v; want the worker, polling now", taskType, pollers)
		}
	}

	enhanced, err := c.DescribeTaskQueueEnhanced(ctx, client.DescribeTaskQueueEnhancedOptions{TaskQueue: "polled", ReportPollers: true, ReportStats: true})
	if err != nil {
		t.Fatal(err)
	}
	types := enhanced.VersionsInfo[""].TypesInfo
	if len(types) != 2 || len(types[client.TaskQueueTypeWorkflow].Pollers) != 1 || len(types[client.TaskQueueTypeActivity].Pollers) != 1 ||
		types[client.TaskQueueTypeWorkflow].Stats == nil {
		t.Errorf("the enhanced description: %+v; want the workflow and activity pollers, with stats", enhanced)
	}
	_, err = c.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{Namespace: srv.Namespace()})
	var invalid *serviceerror.InvalidArgument
	if !errors.As(err, &invalid) {
		t.Errorf("no task queue named: %v; want InvalidArgument", err)
	}
}
