package compat

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	officialactivity "go.temporal.io/sdk/activity"
	officialclient "go.temporal.io/sdk/client"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	ouractivity "github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	ourtemporal "github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The metrics a worker emits, side by side: the same short workload (five
// workflows of one activity each, one activity retried once, one failing
// for good, and a sixth workflow still open when the worker stops) runs
// on a worker of each SDK, each with a lazy client (so that both make
// their first calls as the worker starts) and a recording metrics handler,
// and the two must emit the same metrics, with the same tags.
//
// The counts may differ: go.temporal.io/sdk v1.50 counts a sticky cache
// forced eviction for every run that completes (it clears the run's state
// before its eviction callback looks), and none for the runs still open
// when the last worker stops (a bulk clear); this SDK counts the runs that
// leave the cache before they complete, including those of a stopping
// worker: here the sixth workflow's.
//
// The requests of worker heartbeats (RecordWorkerHeartbeat, which
// go.temporal.io/sdk's worker sends on server 1.32) are left out: this
// SDK does not have worker heartbeats yet (issue 35).
//
// On a server that does not complete a stopping worker's polls (server
// 1.29: the namespace lacks the WorkerPollCompleteOnShutdown capability),
// temporal_workflow_task_queue_poll_empty is left out too: that server
// answers the sticky queue's poll, empty, as the worker tells it it
// stops, while the worker cancels the poll, and whether the answer
// arrives first (counted as an empty poll) varies from run to run for
// either SDK. On server 1.32 both let the server complete their polls,
// and count them.

const (
	metricsWorkflowName = "MetricsWorkload"
	metricsActivityName = "MetricsStep"
)

// The workload's modes: the activity succeeds, fails its first attempt
// then succeeds, or fails for good (and so does its workflow).
const (
	metricsSucceed = "succeed"
	metricsRetry   = "retry"
	metricsFail    = "fail"
)

var metricsModes = []string{metricsSucceed, metricsSucceed, metricsSucceed, metricsRetry, metricsFail}

// metricsOpenName is the workflow still open when the worker stops: it
// waits for a signal nobody sends.
const metricsOpenName = "MetricsOpen"

func metricsOpenOurs(ctx workflow.Context) error {
	workflow.GetSignalChannel(ctx, "never").Receive(ctx, nil)
	return nil
}

func metricsOpenOfficial(ctx officialworkflow.Context) error {
	officialworkflow.GetSignalChannel(ctx, "never").Receive(ctx, nil)
	return nil
}

func metricsWorkloadOurs(ctx workflow.Context, mode string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &ourtemporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaximumAttempts: 3}})
	var out string
	err := workflow.ExecuteActivity(ctx, metricsActivityName, mode).Get(ctx, &out)
	return out, err
}

func metricsWorkloadOfficial(ctx officialworkflow.Context, mode string) (string, error) {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &officialtemporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaximumAttempts: 3}})
	var out string
	err := officialworkflow.ExecuteActivity(ctx, metricsActivityName, mode).Get(ctx, &out)
	return out, err
}

func metricsStepOurs(ctx context.Context, mode string) (string, error) {
	return metricsStep(mode, ouractivity.GetInfo(ctx).Attempt, func(msg string) error {
		return ourtemporal.NewNonRetryableApplicationError(msg, "MetricsFailure", nil)
	})
}

func metricsStepOfficial(ctx context.Context, mode string) (string, error) {
	return metricsStep(mode, officialactivity.GetInfo(ctx).Attempt, func(msg string) error {
		return officialtemporal.NewNonRetryableApplicationError(msg, "MetricsFailure", nil)
	})
}

func metricsStep(mode string, attempt int32, nonRetryable func(string) error) (string, error) {
	switch {
	case mode == metricsFail:
		return "", nonRetryable("failing for good, as asked")
	case mode == metricsRetry && attempt == 1:
		return "", errors.New("failing the first attempt, as asked")
	}
	return mode + " done", nil
}

func TestWorkersOfBothSDKsEmitTheSameMetrics(t *testing.T) {
	hostPort := testharness.HostPort(t)
	ours := recordOurWorkerMetrics(t, hostPort)
	official := recordOfficialWorkerMetrics(t, hostPort)
	if !serverCompletesStoppingPolls(t, hostPort) {
		ours.forget("temporal_workflow_task_queue_poll_empty")
		official.forget("temporal_workflow_task_queue_poll_empty")
	}

	oursNames, officialNames := ours.names(), official.names()
	t.Logf("the official worker emits %d metrics: %s", len(officialNames), strings.Join(officialNames, " "))
	for _, name := range officialNames {
		if !slices.Contains(oursNames, name) {
			t.Errorf("only the official worker emits %s: %s", name, strings.Join(official.seriesOf(name), " "))
		}
	}
	for _, name := range oursNames {
		if !slices.Contains(officialNames, name) {
			t.Errorf("only this SDK's worker emits %s: %s", name, strings.Join(ours.seriesOf(name), " "))
		}
	}
	// Tag for tag: every series of one is a series of the other, after the
	// values that depend on the process (the task queue's name, the
	// worker's sticky queue) are made the same.
	oursSeries, officialSeries := ours.allSeries(), official.allSeries()
	for _, s := range officialSeries {
		if !slices.Contains(oursSeries, s) {
			t.Errorf("only the official worker emits the series %s", s)
		}
	}
	for _, s := range oursSeries {
		if !slices.Contains(officialSeries, s) {
			t.Errorf("only this SDK's worker emits the series %s", s)
		}
	}
}

// recordOurWorkerMetrics runs the workload on a worker of this SDK.
func recordOurWorkerMetrics(t *testing.T, hostPort string) *metricsRecorder {
	rec := newMetricsRecorder()
	tq := fmt.Sprintf("metrics-ours-%d", time.Now().UnixNano())
	rec.taskQueue = tq
	c, err := client.NewLazyClient(client.Options{HostPort: hostPort, MetricsHandler: ourMetricsHandler{rec: rec}, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, tq, worker.Options{})
	w.RegisterWorkflowWithOptions(metricsWorkloadOurs, workflow.RegisterOptions{Name: metricsWorkflowName})
	w.RegisterWorkflowWithOptions(metricsOpenOurs, workflow.RegisterOptions{Name: metricsOpenName})
	w.RegisterActivityWithOptions(metricsStepOurs, ouractivity.RegisterOptions{Name: metricsActivityName})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i, mode := range metricsModes {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("%s-%d", tq, i), TaskQueue: tq}, metricsWorkflowName, mode)
		if err != nil {
			t.Fatal(err)
		}
		checkMetricsRun(t, mode, run.Get(ctx, new(string)))
	}
	openID := tq + "-open"
	if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: openID, TaskQueue: tq}, metricsOpenName); err != nil {
		t.Fatal(err)
	}
	waitForFirstTask(t, func() []enumspb.EventType {
		var types []enumspb.EventType
		for it := c.GetWorkflowHistory(ctx, openID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT); it.HasNext(); {
			e, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			types = append(types, e.GetEventType())
		}
		return types
	})
	rec.waitForCloses(t, len(metricsModes))
	w.Stop()
	if err := c.TerminateWorkflow(ctx, openID, "", "the test is over"); err != nil {
		t.Error(err)
	}
	return rec
}

// recordOfficialWorkerMetrics runs the workload on a worker of
// go.temporal.io/sdk.
func recordOfficialWorkerMetrics(t *testing.T, hostPort string) *metricsRecorder {
	rec := newMetricsRecorder()
	tq := fmt.Sprintf("metrics-official-%d", time.Now().UnixNano())
	rec.taskQueue = tq
	c, err := officialclient.NewLazyClient(officialclient.Options{HostPort: hostPort, MetricsHandler: officialMetricsHandler{rec: rec}, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := officialworker.New(c, tq, officialworker.Options{})
	w.RegisterWorkflowWithOptions(metricsWorkloadOfficial, officialworkflow.RegisterOptions{Name: metricsWorkflowName})
	w.RegisterWorkflowWithOptions(metricsOpenOfficial, officialworkflow.RegisterOptions{Name: metricsOpenName})
	w.RegisterActivityWithOptions(metricsStepOfficial, officialactivity.RegisterOptions{Name: metricsActivityName})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i, mode := range metricsModes {
		run, err := c.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: fmt.Sprintf("%s-%d", tq, i), TaskQueue: tq}, metricsWorkflowName, mode)
		if err != nil {
			t.Fatal(err)
		}
		checkMetricsRun(t, mode, run.Get(ctx, new(string)))
	}
	openID := tq + "-open"
	if _, err := c.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: openID, TaskQueue: tq}, metricsOpenName); err != nil {
		t.Fatal(err)
	}
	waitForFirstTask(t, func() []enumspb.EventType {
		var types []enumspb.EventType
		for it := c.GetWorkflowHistory(ctx, openID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT); it.HasNext(); {
			e, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			types = append(types, e.GetEventType())
		}
		return types
	})
	rec.waitForCloses(t, len(metricsModes))
	w.Stop()
	if err := c.TerminateWorkflow(ctx, openID, "", "the test is over"); err != nil {
		t.Error(err)
	}
	return rec
}

// serverCompletesStoppingPolls reports whether the server completes the
// open polls of a worker that tells it it stops, as the default
// namespace's capabilities say (server 1.32 does).
func serverCompletesStoppingPolls(t *testing.T, hostPort string) bool {
	c, err := officialclient.Dial(officialclient.Options{HostPort: hostPort, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	resp, err := c.WorkflowService().DescribeNamespace(context.Background(),
		&workflowservice.DescribeNamespaceRequest{Namespace: officialclient.DefaultNamespace})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetNamespaceInfo().GetCapabilities().GetWorkerPollCompleteOnShutdown()
}

// waitForFirstTask waits until the history that events reads records a
// completed workflow task: the worker then holds the run in its cache.
func waitForFirstTask(t *testing.T, events func() []enumspb.EventType) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !slices.Contains(events(), enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED); {
		if time.Now().After(deadline) {
			t.Fatal("the open workflow's first workflow task did not complete")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func checkMetricsRun(t *testing.T, mode string, err error) {
	t.Helper()
	if (mode == metricsFail) != (err != nil) {
		t.Fatalf("the %q workflow returned the error %v", mode, err)
	}
}

// metricsRecorder records the series (name and tags) each SDK's handler
// is asked for, and what they count.
type metricsRecorder struct {
	taskQueue string
	mu        sync.Mutex
	series    map[string]int64 // name{tags} → count, or number of records
}

func newMetricsRecorder() *metricsRecorder {
	return &metricsRecorder{series: map[string]int64{}}
}

// key is name{k=v,...}, the task queue's name and a sticky queue's
// replaced by what they stand for, so that both SDKs' keys compare.
func (r *metricsRecorder) key(name string, tags map[string]string) string {
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		v := tags[k]
		switch {
		case v == r.taskQueue:
			v = "TASK_QUEUE"
		case k == "task_queue" && strings.Contains(v, ":"):
			v = "STICKY_QUEUE"
		}
		kv = append(kv, k+"="+v)
	}
	return name + "{" + strings.Join(kv, ",") + "}"
}

func (r *metricsRecorder) add(name string, tags map[string]string, n int64) {
	if tags["operation"] == "RecordWorkerHeartbeat" {
		return // worker heartbeats are not implemented here yet (issue 35)
	}
	key := r.key(name, tags)
	r.mu.Lock()
	r.series[key] += n
	r.mu.Unlock()
}

// names are the metrics recorded, sorted.
func (r *metricsRecorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var names []string
	for key := range r.series {
		name, _, _ := strings.Cut(key, "{")
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// allSeries are the series recorded, sorted.
func (r *metricsRecorder) allSeries() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(maps.Keys(r.series))
}

// forget drops the series of the metric name.
func (r *metricsRecorder) forget(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	maps.DeleteFunc(r.series, func(key string, _ int64) bool { return strings.HasPrefix(key, name+"{") })
}

func (r *metricsRecorder) seriesOf(name string) []string {
	var out []string
	for _, s := range r.allSeries() {
		if strings.HasPrefix(s, name+"{") {
			out = append(out, s)
		}
	}
	return out
}

// waitForCloses waits until the worker has recorded n workflow closes: a
// client may see a result before the worker that sent it hears back.
func (r *metricsRecorder) waitForCloses(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var closes int64
		for _, s := range r.allSeries() {
			if strings.HasPrefix(s, "temporal_workflow_endtoend_latency{") {
				r.mu.Lock()
				closes += r.series[s]
				r.mu.Unlock()
			}
		}
		if closes >= int64(n) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the worker recorded %d workflow closes, want %d", closes, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ourMetricsHandler records what this SDK emits.
type ourMetricsHandler struct {
	rec  *metricsRecorder
	tags map[string]string
}

func (h ourMetricsHandler) WithTags(tags map[string]string) client.MetricsHandler {
	return ourMetricsHandler{rec: h.rec, tags: withTags(h.tags, tags)}
}

func (h ourMetricsHandler) Counter(name string) client.MetricsCounter {
	return recordedMetric{rec: h.rec, name: name, tags: h.tags}
}

func (h ourMetricsHandler) Gauge(name string) client.MetricsGauge {
	return recordedMetric{rec: h.rec, name: name, tags: h.tags}
}

func (h ourMetricsHandler) Timer(name string) client.MetricsTimer {
	return recordedMetric{rec: h.rec, name: name, tags: h.tags}
}

// officialMetricsHandler records what go.temporal.io/sdk emits.
type officialMetricsHandler struct {
	rec  *metricsRecorder
	tags map[string]string
}

func (h officialMetricsHandler) WithTags(tags map[string]string) officialclient.MetricsHandler {
	return officialMetricsHandler{rec: h.rec, tags: withTags(h.tags, tags)}
}

func (h officialMetricsHandler) Counter(name string) officialclient.MetricsCounter {
	return recordedMetric{rec: h.rec, name: name, tags: h.tags}
}

func (h officialMetricsHandler) Gauge(name string) officialclient.MetricsGauge {
	return recordedMetric{rec: h.rec, name: name, tags: h.tags}
}

func (h officialMetricsHandler) Timer(name string) officialclient.MetricsTimer {
	return recordedMetric{rec: h.rec, name: name, tags: h.tags}
}

func withTags(base, more map[string]string) map[string]string {
	merged := maps.Clone(base)
	if merged == nil {
		merged = map[string]string{}
	}
	maps.Copy(merged, more)
	return merged
}

// recordedMetric is a counter, gauge or timer of one series.
type recordedMetric struct {
	rec  *metricsRecorder
	name string
	tags map[string]string
}

func (m recordedMetric) Inc(n int64)          { m.rec.add(m.name, m.tags, n) }
func (m recordedMetric) Update(float64)       { m.rec.add(m.name, m.tags, 1) }
func (m recordedMetric) Record(time.Duration) { m.rec.add(m.name, m.tags, 1) }
