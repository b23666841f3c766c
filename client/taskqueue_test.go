package client_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
)

// Shout is an activity for the worker to register, so that it polls for
// activities too.
func Shout(_ context.Context, s string) (string, error) { return strings.ToUpper(s), nil }

func TestDescribeTaskQueueEnhanced(t *testing.T) {
	ctx := ctxFor(t)
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Identity: "described-worker"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)

	// A task queue with a backlog and no worker.
	idle := workflowID(t) + "-idle"
	start(t, c, client.StartWorkflowOptions{TaskQueue: idle})
	var d client.TaskQueueDescription
	eventually(t, func() bool {
		d, err = c.DescribeTaskQueueEnhanced(ctx, client.DescribeTaskQueueEnhancedOptions{
			TaskQueue:      idle,
			TaskQueueTypes: []client.TaskQueueType{client.TaskQueueTypeWorkflow},
			ReportStats:    true,
			ReportPollers:  true,
		})
		if err != nil {
			t.Fatal(err)
		}
		stats := d.VersionsInfo[""].TypesInfo[client.TaskQueueTypeWorkflow].Stats
		return stats != nil && stats.ApproximateBacklogCount == 1
	})
	if info := d.VersionsInfo[""].TypesInfo; len(info) != 1 || len(info[client.TaskQueueTypeWorkflow].Pollers) != 0 {
		t.Errorf("asked for the workflow type only, of a queue nobody polls: %+v", info)
	}

	// A task queue a worker polls, for workflows and activities.
	polled := workflowID(t) + "-polled"
	w := worker.New(c, polled, worker.Options{})
	w.RegisterWorkflow(ScheduledGreeting)
	w.RegisterActivity(Shout)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	eventually(t, func() bool {
		d, err = c.DescribeTaskQueueEnhanced(ctx, client.DescribeTaskQueueEnhancedOptions{TaskQueue: polled, ReportPollers: true})
		if err != nil {
			t.Fatal(err)
		}
		types := d.VersionsInfo[""].TypesInfo
		return len(types[client.TaskQueueTypeWorkflow].Pollers) > 0 && len(types[client.TaskQueueTypeActivity].Pollers) > 0
	})
	for taskType, info := range d.VersionsInfo[""].TypesInfo {
		p := info.Pollers[0]
		if p.Identity != "described-worker" || time.Since(p.LastAccessTime) > time.Minute {
			t.Errorf("type %d poller %+v: want the worker, recently", taskType, p)
		}
		if info.Stats != nil {
			t.Errorf("type %d: stats reported without being asked for", taskType)
		}
	}

	if _, err := c.DescribeTaskQueueEnhanced(ctx, client.DescribeTaskQueueEnhancedOptions{}); err == nil || !strings.Contains(err.Error(), "TaskQueue is empty") {
		t.Errorf("no task queue: %v", err)
	}
}
