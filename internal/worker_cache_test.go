package internal

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/testserver"
	"github.com/durable-go/sdk/internal/workerrt"
)

// waitsForTwoSignals returns once two "go" signals came.
func waitsForTwoSignals(ctx Context) error {
	ch := GetSignalChannel(ctx, "go")
	ch.Receive(ctx, nil)
	ch.Receive(ctx, nil)
	return nil
}

// raceyReports is the in-memory server with a slow network on the way
// back: after the first task's report reaches the server, a signal makes
// the run's next task, and the report's answer waits until another
// poller took that task.
type raceyReports struct {
	testserver.Local
	execution  *commonpb.WorkflowExecution
	reports    atomic.Int32
	polled     chan struct{}
	rebuilds   atomic.Int32 // full-history fetches: a run rebuilt
	signalSent atomic.Bool
}

func (s *raceyReports) PollWorkflowTaskQueue(ctx context.Context, in *workflowservice.PollWorkflowTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	resp, err := s.Local.PollWorkflowTaskQueue(ctx, in)
	if err == nil && len(resp.GetTaskToken()) > 0 && s.signalSent.Load() {
		select {
		case s.polled <- struct{}{}:
		default:
		}
	}
	return resp, err
}

func (s *raceyReports) RespondWorkflowTaskCompleted(ctx context.Context, in *workflowservice.RespondWorkflowTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	resp, err := s.Local.RespondWorkflowTaskCompleted(ctx, in)
	if err != nil || s.reports.Add(1) != 1 {
		return resp, err
	}
	s.signalSent.Store(true)
	if err := s.S.Signal(s.execution, "go", nil, nil, "test", false); err != nil {
		return nil, err
	}
	select {
	case <-s.polled:
		time.Sleep(50 * time.Millisecond) // time for the other poller to look for the run
	case <-time.After(5 * time.Second):
	}
	return resp, err
}

func (s *raceyReports) GetWorkflowExecutionHistory(ctx context.Context, in *workflowservice.GetWorkflowExecutionHistoryRequest, _ ...grpc.CallOption) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	s.rebuilds.Add(1)
	return s.Local.GetWorkflowExecutionHistory(ctx, in)
}

// A run's next task can reach another poller while the worker still waits
// for the answer to the previous task's report. It must find the run in
// the cache (and wait for it), not rebuild it from history: the rebuilt
// state would be replaced by the stale one, whose coroutines nothing
// would release.
func TestTheNextTaskFindsTheRunCachedWhileTheReportIsInFlight(t *testing.T) {
	reg := registry.New()
	if err := reg.RegisterWorkflow(waitsForTwoSignals, "", false); err != nil {
		t.Fatal(err)
	}
	clock := testserver.NewClock(time.Now())
	srv := testserver.New(testserver.Options{Clock: clock})
	svc := &raceyReports{Local: testserver.Local{S: srv}, polled: make(chan struct{}, 1)}
	env := newWorkflowEnv(reg, workflowEnvOptions{Namespace: "default", SDKMetadataFlags: true})
	cache := workerrt.NewStickyCache(10)
	defer cache.Purge()
	w, err := workerrt.New(workerrt.Options{
		Service: svc, Namespace: "default", TaskQueue: "tq", Identity: "test",
		Engine: env.engineOptions(), Cache: cache, MaxConcurrentWorkflowTasks: 4,
		LocalActivities: &activityExecutor{registry: reg, dc: env.dc},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.ServeQueues("tq", w.StickyQueue())
	execution, err := srv.StartWorkflow("wf", "", &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType: &commonpb.WorkflowType{Name: "waitsForTwoSignals"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "tq"},
	})
	if err != nil {
		t.Fatal(err)
	}
	svc.execution = execution
	w.Start()
	defer w.Stop()
	if err := srv.Signal(execution, "go", nil, nil, "test", true); err != nil { // the second signal, read with the first task's successor
		t.Fatal(err)
	}
	closed, _, err := srv.Closed(execution)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("the workflow did not complete")
	}
	if n := svc.rebuilds.Load(); n != 0 {
		t.Fatalf("the run was rebuilt from history %d times: its next task did not find it cached", n)
	}
}
