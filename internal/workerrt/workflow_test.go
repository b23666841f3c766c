package workerrt

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
)

// handingBackService is a memoryService that hands tasks back with the
// completions of workflow tasks, as the server does when a task's events
// arrived while the last one ran, and keeps the completions and failures.
type handingBackService struct {
	*memoryService
	mu          sync.Mutex
	handBack    []*workflowservice.PollWorkflowTaskQueueResponse
	completions []*workflowservice.RespondWorkflowTaskCompletedRequest
	failures    []*workflowservice.RespondWorkflowTaskFailedRequest
}

func (s *handingBackService) RespondWorkflowTaskCompleted(ctx context.Context, req *workflowservice.RespondWorkflowTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	s.report(ctx, "RespondWorkflowTaskCompleted")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.completions = append(s.completions, req)
	resp := &workflowservice.RespondWorkflowTaskCompletedResponse{}
	if len(s.handBack) > 0 {
		resp.WorkflowTask, s.handBack = s.handBack[0], s.handBack[1:]
	}
	return resp, nil
}

func (s *handingBackService) RespondWorkflowTaskFailed(ctx context.Context, req *workflowservice.RespondWorkflowTaskFailedRequest, _ ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskFailedResponse, error) {
	s.report(ctx, "RespondWorkflowTaskFailed")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, req)
	return &workflowservice.RespondWorkflowTaskFailedResponse{}, nil
}

func newHandingBackWorker(t *testing.T, svc *handingBackService, cacheSize int) *Worker {
	t.Helper()
	w, err := New(Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Logger: logging.NewTextLogger(discard{}, 0),
		FailureConverter: failure.GetDefaultFailureConverter(), Cache: NewStickyCache(cacheSize), Engine: loopEngine()})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// startedAt gives the task the ID of its WorkflowTaskStarted event, as the
// server does.
func startedAt(task *workflowservice.PollWorkflowTaskQueueResponse, id int64) *workflowservice.PollWorkflowTaskQueueResponse {
	task.StartedEventId = id
	return task
}

// commandCounts is the number of commands of each completion.
func (s *handingBackService) commandCounts() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n []int
	for _, c := range s.completions {
		n = append(n, len(c.GetCommands()))
	}
	return n
}

// TestATaskHandedBackGoesOnFromTheRunWithoutACache: without a sticky
// cache, the task that the server hands back with a completion holds the
// events new since the last task only, and its newest events may be in no
// history the worker can fetch (here the server holds none of them). The
// worker goes on from the run it just ran, as go.temporal.io/sdk does.
func TestATaskHandedBackGoesOnFromTheRunWithoutACache(t *testing.T) {
	svc := &handingBackService{memoryService: &memoryService{histories: map[string][]*historypb.HistoryEvent{"a": firstEvents("Loop")}}}
	svc.handBack = []*workflowservice.PollWorkflowTaskQueueResponse{startedAt(workflowTask("a", "Loop", nextEvents(3)), 9)}
	w := newHandingBackWorker(t, svc, 0)
	w.handleWorkflowTask(startedAt(workflowTask("a", "Loop", firstEvents("Loop")), 3))
	if got := svc.commandCounts(); !slices.Equal(got, []int{1, 1}) {
		t.Fatalf("the two tasks completed with %v commands, want one each", got)
	}
	if slices.Contains(svc.reports, "GetWorkflowExecutionHistory") {
		t.Error("the handed-back task fetched history: the run was not carried over")
	}
	if n := w.opts.Cache.Len(); n != 0 {
		t.Errorf("the cache of size 0 holds %d runs", n)
	}
}

// TestATaskOfARunNotCachedRunsOnHistoryUpToItself: a task that holds only
// its new events, for a run the cache does not hold, runs on the history
// the worker fetches, cut at the task's WorkflowTaskStarted and completed
// by the task's own events.
func TestATaskOfARunNotCachedRunsOnHistoryUpToItself(t *testing.T) {
	full := append(firstEvents("Loop"), nextEvents(3)...) // events 1-9, the task started at 9
	signaled := &historypb.HistoryEvent{EventId: 10, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionSignaledEventAttributes{WorkflowExecutionSignaledEventAttributes: &historypb.WorkflowExecutionSignaledEventAttributes{SignalName: "later"}}}
	for _, c := range []struct {
		name    string
		server  []*historypb.HistoryEvent // the history the server gives
		task    []*historypb.HistoryEvent // the task's events
		wantErr string                    // the failure, when the task fails
	}{
		{name: "the server's history ends before the task's events", server: full[:7], task: full[3:]},
		{name: "the server's history goes on after the task", server: append(slices.Clone(full), signaled), task: full[3:]},
		{name: "the server's history is the task's", server: full, task: full[3:]},
		{name: "the events between are nowhere", server: full[:3], task: full[7:],
			wantErr: "history skips from event 3 to event 8"},
		{name: "the events end before the task started", server: full[:3], task: full[3:7],
			wantErr: "history ends at event 7, before the task's WorkflowTaskStarted event 9"},
	} {
		t.Run(c.name, func(t *testing.T) {
			svc := &handingBackService{memoryService: &memoryService{histories: map[string][]*historypb.HistoryEvent{"a": c.server}}}
			w := newHandingBackWorker(t, svc, 10)
			w.handleWorkflowTask(startedAt(workflowTask("a", "Loop", c.task), 9))
			if c.wantErr != "" {
				if len(svc.failures) != 1 || !strings.Contains(svc.failures[0].GetFailure().GetMessage(), c.wantErr) {
					t.Fatalf("want the task failed with %q, got failures %v and completions %v", c.wantErr, svc.failures, svc.completions)
				}
				return
			}
			if got := svc.commandCounts(); !slices.Equal(got, []int{1}) || len(svc.failures) != 0 {
				t.Fatalf("the task completed with %v commands and failed %d times, want one completion with a command", got, len(svc.failures))
			}
		})
	}
}

// processWorkflowTask runs one workflow task and reports its outcome, as
// handleWorkflowTask does for each task, and returns the next task if the
// server sent one back.
func (w *Worker) processWorkflowTask(task *workflowservice.PollWorkflowTaskQueueResponse) *workflowservice.PollWorkflowTaskQueueResponse {
	next, carried := w.continueWorkflowTask(task, nil)
	if carried != nil {
		closeRun(carried)
	}
	return next
}
