package workerrt

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/metricstest"
	"github.com/durable-go/sdk/internal/sdkmetrics"
)

func (s *memoryService) RespondQueryTaskCompleted(ctx context.Context, req *workflowservice.RespondQueryTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondQueryTaskCompletedResponse, error) {
	s.report(ctx, "RespondQueryTaskCompleted "+req.GetCompletedType().String())
	return &workflowservice.RespondQueryTaskCompletedResponse{}, nil
}

// orderTask is a task of a run of the workflow "order".
func orderTask(runID string, events []*historypb.HistoryEvent) *workflowservice.PollWorkflowTaskQueueResponse {
	t := workflowTask(runID, "Loop", events)
	t.WorkflowExecution.WorkflowId = "order"
	return t
}

// waitClosed waits until r's coroutines were released.
func waitClosed(t *testing.T, r *cachedRun) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.mu.Lock()
		closed := r.closed
		r.mu.Unlock()
		if closed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s was never closed", r.runID)
		}
		time.Sleep(time.Millisecond)
	}
}

// The cache keeps one run of a workflow: a workflow has one open run at a
// time, so caching a new run drops the older one, which is not a forced
// eviction (the run was closed).
func TestStickyCacheKeepsOneRunOfAWorkflow(t *testing.T) {
	c := NewStickyCache(10)
	older, newer, other := cachedRunOf("a"), cachedRunOf("b"), cachedRunOf("c")
	newer.workflow = older.workflow
	c.put(older, nil)
	c.put(other, nil)
	c.put(newer, nil)
	if c.get("a") != nil || c.get("b") != newer || c.get("c") != other || c.Len() != 2 {
		t.Fatalf("want b and c cached, a dropped; len %d", c.Len())
	}
	waitClosed(t, older)
	if r := c.removeOtherRun(newer.workflow, "b"); r != nil {
		t.Fatalf("the cached run itself was dropped as another run: %s", r.runID)
	}
	if r := c.removeOtherRun(newer.workflow, "d"); r != newer || c.Len() != 1 {
		t.Fatalf("a task of run d dropped %v, want b; len %d", r, c.Len())
	}
}

// A workflow task of a new run releases the cached run of its workflow
// before it runs, and only that run.
func TestATaskOfANewRunReleasesTheOlderRun(t *testing.T) {
	metrics := metricstest.NewHandler()
	w := newMetricsWorker(t, &memoryService{}, metrics, 10, nil)
	w.handleWorkflowTask(orderTask("r1", firstEvents("Loop")))
	w.handleWorkflowTask(workflowTask("elsewhere", "Loop", firstEvents("Loop")))
	older := w.opts.Cache.get("r1")
	if older == nil || w.opts.Cache.Len() != 2 {
		t.Fatalf("r1 not cached; len %d", w.opts.Cache.Len())
	}
	w.handleWorkflowTask(orderTask("r2", firstEvents("Loop")))
	if w.opts.Cache.get("r1") != nil || w.opts.Cache.get("r2") == nil || w.opts.Cache.get("elsewhere") == nil {
		t.Fatalf("want r2 and elsewhere cached, r1 released; len %d", w.opts.Cache.Len())
	}
	waitClosed(t, older)
	wantCounter(t, metrics, sdkmetrics.StickyCacheTotalForcedEviction, nil, 0)
}

// terminatedHistory is the full history of a Loop run terminated while
// its first activity ran.
func terminatedHistory() []*historypb.HistoryEvent {
	events := append(firstEvents("Loop"), nextEvents(3)[:2]...) // task completed, activity scheduled
	return append(events, &historypb.HistoryEvent{EventId: 6, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED})
}

func queryTask(runID string, events []*historypb.HistoryEvent) *workflowservice.PollWorkflowTaskQueueResponse {
	t := orderTask(runID, events)
	t.Query = &querypb.WorkflowQuery{QueryType: "state"}
	return t
}

// A query of an open workflow is answered by the cached run, which stays;
// a query whose history shows the workflow closed (terminated, say) is
// answered from that history, and the cached run leaves the cache at once.
func TestAQueryOfAClosedWorkflowReleasesItsRun(t *testing.T) {
	svc := &memoryService{}
	w := newMetricsWorker(t, svc, nil, 10, nil)
	w.handleWorkflowTask(orderTask("r1", firstEvents("Loop")))
	run := w.opts.Cache.get("r1")
	if run == nil {
		t.Fatal("r1 not cached")
	}
	w.handleWorkflowTask(queryTask("r1", append(firstEvents("Loop"), nextEvents(3)[:2]...)))
	if w.opts.Cache.get("r1") != run {
		t.Fatal("a query of the open workflow released its run")
	}
	w.handleWorkflowTask(queryTask("r1", terminatedHistory()))
	if w.opts.Cache.Len() != 0 {
		t.Fatalf("the terminated workflow's run is still cached; len %d", w.opts.Cache.Len())
	}
	waitClosed(t, run)
	var answered int
	for _, call := range svc.reports {
		if call == "RespondQueryTaskCompleted "+enumspb.QUERY_RESULT_TYPE_ANSWERED.String() {
			answered++
		}
	}
	if answered != 2 {
		t.Fatalf("%d queries answered, want 2 (reports %v)", answered, svc.reports)
	}
}

// A stopped worker releases the runs whose tasks come to its sticky queue,
// and leaves those of the other workers sharing the cache.
func TestAStoppedWorkerReleasesTheRunsItCached(t *testing.T) {
	a := newMetricsWorker(t, &memoryService{}, nil, 10, nil)
	b := newMetricsWorker(t, &memoryService{}, nil, 10, nil)
	b.opts.Cache = a.opts.Cache
	a.handleWorkflowTask(workflowTask("of-a", "Loop", firstEvents("Loop")))
	b.handleWorkflowTask(workflowTask("of-b", "Loop", firstEvents("Loop")))
	ofA := a.opts.Cache.get("of-a")
	a.Stop()
	if a.opts.Cache.get("of-a") != nil || a.opts.Cache.get("of-b") == nil {
		t.Fatalf("want of-b cached, of-a released; len %d", a.opts.Cache.Len())
	}
	waitClosed(t, ofA)
	b.Stop()
	if a.opts.Cache.Len() != 0 {
		t.Fatalf("len %d after both workers stopped", a.opts.Cache.Len())
	}
}
