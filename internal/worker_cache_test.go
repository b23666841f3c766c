package internal

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	updatepb "go.temporal.io/api/update/v1"
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
	// Both signals, for the next task to read: the first makes no task of
	// its own (sent by the test after the worker started, it could land
	// after the next task, which no later signal would follow).
	if err := s.S.Signal(s.execution, "go", nil, nil, "test", true); err != nil {
		return nil, err
	}
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
	config := newRunConfig(reg, RunOptions{Namespace: "default", SDKMetadataFlags: true})
	cache := workerrt.NewStickyCache(10)
	defer cache.Purge()
	w, err := workerrt.New(workerrt.Options{
		Service: svc, Namespace: "default", TaskQueue: "tq", Identity: "test",
		Engine: config.engineOptions(), Cache: cache, MaxConcurrentWorkflowTasks: 4,
		LocalActivities: &activityExecutor{registry: reg, dc: config.dc},
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

// depositsUntilClosed keeps a balance that "deposit" updates of positive
// amounts raise, and returns it once signaled "close".
func depositsUntilClosed(ctx Context) (int, error) {
	balance := 0
	err := SetUpdateHandlerWithOptions(ctx, "deposit", func(ctx Context, amount int) (int, error) {
		balance += amount
		return balance, nil
	}, UpdateHandlerOptions{Validator: func(ctx Context, amount int) error {
		if amount <= 0 {
			return errors.New("amounts must be positive")
		}
		return nil
	}})
	if err != nil {
		return 0, err
	}
	GetSignalChannel(ctx, "close").Receive(ctx, nil)
	return balance, nil
}

// discardsCounted is the in-memory server, counting the tasks it says it
// discarded and the worker's full-history fetches.
type discardsCounted struct {
	testserver.Local
	discarded atomic.Int32
	rebuilds  atomic.Int32
}

func (s *discardsCounted) RespondWorkflowTaskCompleted(ctx context.Context, in *workflowservice.RespondWorkflowTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	resp, err := s.Local.RespondWorkflowTaskCompleted(ctx, in)
	if resp.GetResetHistoryEventId() != 0 {
		s.discarded.Add(1)
	}
	return resp, err
}

func (s *discardsCounted) GetWorkflowExecutionHistory(ctx context.Context, in *workflowservice.GetWorkflowExecutionHistoryRequest, _ ...grpc.CallOption) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	s.rebuilds.Add(1)
	return s.Local.GetWorkflowExecutionHistory(ctx, in)
}

// The in-memory server erases the workflow task of an update that was
// rejected and, as the server does, tells the worker (ResetHistoryEventId),
// which goes on from the cached run rather than rebuilding it from history.
func TestARejectedUpdateLeavesTheRunCachedInTheTestServer(t *testing.T) {
	reg := registry.New()
	if err := reg.RegisterWorkflow(depositsUntilClosed, "", false); err != nil {
		t.Fatal(err)
	}
	srv := testserver.New(testserver.Options{Clock: testserver.NewClock(time.Now())})
	svc := &discardsCounted{Local: testserver.Local{S: srv}}
	config := newRunConfig(reg, RunOptions{Namespace: "default", SDKMetadataFlags: true})
	cache := workerrt.NewStickyCache(10)
	defer cache.Purge()
	w, err := workerrt.New(workerrt.Options{
		Service: svc, Namespace: "default", TaskQueue: "tq", Identity: "test",
		Engine: config.engineOptions(), Cache: cache, MaxConcurrentWorkflowTasks: 4,
		LocalActivities: &activityExecutor{registry: reg, dc: config.dc},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.ServeQueues("tq", w.StickyQueue())
	execution, err := srv.StartWorkflow("wf", "", &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType: &commonpb.WorkflowType{Name: "depositsUntilClosed"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "tq"},
	})
	if err != nil {
		t.Fatal(err)
	}
	w.Start()
	defer w.Stop()
	deposit := func(id string, amount int, want testserver.UpdateStage) {
		t.Helper()
		args, err := config.dc.ToPayloads(amount)
		if err != nil {
			t.Fatal(err)
		}
		watcher, err := srv.UpdateWorkflow(execution, &updatepb.Request{Meta: &updatepb.Meta{UpdateId: id}, Input: &updatepb.Input{Name: "deposit", Args: args}})
		if err != nil {
			t.Fatal(err)
		}
		for {
			select {
			case n := <-watcher.C:
				watcher.Handled()
				if n.Stage == want {
					return
				}
				if n.Stage != testserver.UpdateAccepted {
					t.Fatalf("update %s: stage %v, want %v", id, n.Stage, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("update %s: no outcome", id)
			}
		}
	}
	deposit("first", 5, testserver.UpdateCompleted)
	deposit("refused", -1, testserver.UpdateRejected)
	deposit("second", 5, testserver.UpdateCompleted)
	if err := srv.Signal(execution, "close", nil, nil, "test", false); err != nil {
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
	if n := svc.discarded.Load(); n != 1 {
		t.Fatalf("the server discarded %d workflow tasks, want 1 (the rejected update's)", n)
	}
	if n := svc.rebuilds.Load(); n != 0 {
		t.Fatalf("the run was rebuilt from history %d times after its task was discarded", n)
	}
}
