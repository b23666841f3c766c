package worker_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// recordingMetrics counts counter increments by name and tags.
type recordingMetrics struct {
	mu     *sync.Mutex
	counts map[string]int64
	tags   map[string]string
}

func newRecordingMetrics() recordingMetrics {
	return recordingMetrics{mu: &sync.Mutex{}, counts: map[string]int64{}, tags: map[string]string{}}
}

func (m recordingMetrics) WithTags(tags map[string]string) client.MetricsHandler {
	merged := map[string]string{}
	for k, v := range m.tags {
		merged[k] = v
	}
	for k, v := range tags {
		merged[k] = v
	}
	return recordingMetrics{mu: m.mu, counts: m.counts, tags: merged}
}

func (m recordingMetrics) Counter(name string) client.MetricsCounter {
	return counterFunc(func(d int64) {
		m.mu.Lock()
		defer m.mu.Unlock()
		key := name
		if t := m.tags["workflow_type"]; t != "" {
			key += "/" + t
		}
		if t := m.tags["activity_type"]; t != "" {
			key += "/" + t
		}
		m.counts[key] += d
	})
}
func (m recordingMetrics) Gauge(string) client.MetricsGauge {
	return client.MetricsNopHandler.Gauge("")
}
func (m recordingMetrics) Timer(string) client.MetricsTimer {
	return client.MetricsNopHandler.Timer("")
}

func (m recordingMetrics) get(key string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.counts[key]
}

type counterFunc func(int64)

func (f counterFunc) Inc(d int64) { f(d) }

func countedActivity(ctx context.Context) error {
	activity.GetMetricsHandler(ctx).Counter("calls").Inc(1)
	return nil
}

func countedWorkflow(ctx workflow.Context) error {
	workflow.GetMetricsHandler(ctx).Counter("steps").Inc(1)
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	if err := workflow.ExecuteActivity(ctx, countedActivity).Get(ctx, nil); err != nil {
		return err
	}
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	workflow.GetMetricsHandler(ctx).Counter("steps").Inc(1)
	return nil
}

// TestMetricsReachTheClientsHandler records workflow and activity metrics
// through client.Options.MetricsHandler, tagged, and not again in replay.
func TestMetricsReachTheClientsHandler(t *testing.T) {
	metrics := newRecordingMetrics()
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), MetricsHandler: metrics})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(countedWorkflow)
		w.RegisterActivity(countedActivity)
	})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, countedWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the activity", func() bool { return metrics.get("calls/countedWorkflow/countedActivity") == 1 })
	worker.PurgeStickyWorkflowCache() // the next task replays the first step
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "go", nil); err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := metrics.get("steps/countedWorkflow"); got != 2 {
		t.Fatalf("the workflow's counter is %d, want 2: replay must not record again", got)
	}
}
