package workerrt

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
)

// completingService is a server that, told a worker stops
// (ShutdownWorker), answers the sticky queue's open polls at once, and
// the worker's other open polls a little later, as server 1.32 does for a
// namespace with the WorkerPollCompleteOnShutdown capability; with
// stickyOnly, it answers only the sticky queue's, as server 1.29 does.
// The first activity poll it completes brings a task. It records, in
// order, each poll that opens, is answered or is canceled, and the
// ShutdownWorker call.
type completingService struct {
	Service
	stickyOnly bool

	shutdown  chan struct{} // closed by ShutdownWorker
	completed chan struct{} // closed answerDelay after it, unless stickyOnly

	mu            sync.Mutex
	events        []string
	keys          []string // the WorkerInstanceKey of each poll
	shutdownReq   *workflowservice.ShutdownWorkerRequest
	taskGiven     bool
	reportedToken string
}

func newCompletingService(stickyOnly bool) *completingService {
	return &completingService{stickyOnly: stickyOnly, shutdown: make(chan struct{}), completed: make(chan struct{})}
}

// answerDelay is how long after ShutdownWorker the server answers the
// polls of other queues than the sticky one: a worker that canceled its
// polls once the sticky queue's were answered would cancel them first.
const answerDelay = 200 * time.Millisecond

func (s *completingService) record(event string) {
	s.mu.Lock()
	s.events = append(s.events, event)
	s.mu.Unlock()
}

// poll holds a poll of queue ("workflow", "sticky", "activity") open until
// the worker cancels it or, when the server completes that queue's polls,
// until ShutdownWorker; it reports whether the server completed it.
func (s *completingService) poll(ctx context.Context, queue, key string) bool {
	s.mu.Lock()
	s.events = append(s.events, queue+" poll opened")
	s.keys = append(s.keys, key)
	s.mu.Unlock()
	answered := s.completed
	if queue == "sticky" {
		answered = s.shutdown
	}
	select {
	case <-answered:
		s.record(queue + " poll answered")
		return true
	case <-ctx.Done():
	}
	s.record(queue + " poll canceled")
	return false
}

func (s *completingService) PollWorkflowTaskQueue(ctx context.Context, req *workflowservice.PollWorkflowTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	queue := "workflow"
	if req.GetTaskQueue().GetKind() == enumspb.TASK_QUEUE_KIND_STICKY {
		queue = "sticky"
	}
	if !s.poll(ctx, queue, req.GetWorkerInstanceKey()) {
		return nil, ctx.Err()
	}
	return &workflowservice.PollWorkflowTaskQueueResponse{}, nil
}

func (s *completingService) PollActivityTaskQueue(ctx context.Context, req *workflowservice.PollActivityTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollActivityTaskQueueResponse, error) {
	if !s.poll(ctx, "activity", req.GetWorkerInstanceKey()) {
		return nil, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.taskGiven {
		s.taskGiven = true
		return activityTask("late", time.Now()), nil
	}
	return &workflowservice.PollActivityTaskQueueResponse{}, nil
}

func (s *completingService) RespondActivityTaskCompleted(_ context.Context, req *workflowservice.RespondActivityTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	s.mu.Lock()
	s.reportedToken = string(req.GetTaskToken())
	s.mu.Unlock()
	return &workflowservice.RespondActivityTaskCompletedResponse{}, nil
}

func (s *completingService) ShutdownWorker(_ context.Context, req *workflowservice.ShutdownWorkerRequest, _ ...grpc.CallOption) (*workflowservice.ShutdownWorkerResponse, error) {
	s.mu.Lock()
	s.events = append(s.events, "shutdown")
	s.shutdownReq = req
	s.mu.Unlock()
	close(s.shutdown)
	if !s.stickyOnly {
		time.AfterFunc(answerDelay, func() { close(s.completed) })
	}
	return &workflowservice.ShutdownWorkerResponse{}, nil
}

// openPolls counts the polls of queue opened so far.
func (s *completingService) openPolls(queue string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, e := range s.events {
		if e == queue+" poll opened" {
			n++
		}
	}
	return n
}

// startCompletingWorker starts a worker of workflow tasks (with a sticky
// queue) and activities on svc, whose activity code records the tasks it
// runs, and waits for its polls to open: one of each workflow queue, two
// of activities.
func startCompletingWorker(t *testing.T, svc *completingService, pollComplete bool, stopTimeout time.Duration) (*Worker, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var ran []string
	w, err := New(Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Logger: logging.NewTextLogger(discard{}, 0),
		FailureConverter: failure.GetDefaultFailureConverter(), Cache: NewStickyCache(10), Engine: loopEngine(),
		WorkerInstanceKey: "instance-1", PollCompleteOnShutdown: pollComplete, StopTimeout: stopTimeout,
		Activities: activityFunc(func(_ context.Context, task *ActivityTask) (*commonpb.Payloads, error) {
			mu.Lock()
			ran = append(ran, string(task.Task.GetTaskToken()))
			mu.Unlock()
			return nil, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	w.Start()
	waitFor(t, 10*time.Second, "the polls to open", func() bool {
		return svc.openPolls("workflow") == 1 && svc.openPolls("sticky") == 1 && svc.openPolls("activity") == 2
	})
	return w, &ran
}

// With PollCompleteOnShutdown (the namespace's capability on server 1.32),
// Stop tells the server first and cancels no poll: the server completes
// them, and the task one of them brings back runs and is reported before
// Stop returns. go.temporal.io/sdk's worker does the same, and so counts
// these polls as polls without a task, not as canceled requests.
func TestStopLetsTheServerCompleteThePolls(t *testing.T) {
	svc := newCompletingService(false)
	w, ran := startCompletingWorker(t, svc, true, 10*time.Second)
	stopWithin(t, w, 10*time.Second+StopMargin+3*time.Second)

	svc.mu.Lock()
	defer svc.mu.Unlock()
	events := strings.Join(svc.events, ", ")
	if strings.Contains(events, "canceled") {
		t.Errorf("the worker canceled polls the server completes: %s", events)
	}
	shutdown := slices.Index(svc.events, "shutdown")
	if shutdown < 0 || slices.ContainsFunc(svc.events[shutdown:], func(e string) bool { return strings.HasSuffix(e, "opened") }) ||
		slices.ContainsFunc(svc.events[:shutdown], func(e string) bool { return !strings.HasSuffix(e, "opened") }) {
		t.Errorf("want the polls opened, then ShutdownWorker, then every poll answered; got %s", events)
	}
	if answered := len(svc.events) - shutdown - 1; answered != 4 {
		t.Errorf("%d polls answered after ShutdownWorker, want the 4 open: %s", answered, events)
	}
	for _, key := range svc.keys {
		if key != "instance-1" {
			t.Errorf("a poll named the worker %q, want its instance key %q", key, "instance-1")
		}
	}
	req := svc.shutdownReq
	if req.GetWorkerInstanceKey() != "instance-1" || req.GetTaskQueue() != "tq" || req.GetStickyTaskQueue() != w.StickyQueue() ||
		!slices.Equal(req.GetTaskQueueTypes(), []enumspb.TaskQueueType{enumspb.TASK_QUEUE_TYPE_WORKFLOW, enumspb.TASK_QUEUE_TYPE_ACTIVITY}) {
		t.Errorf("ShutdownWorker request %v, want the instance key, the task queue, the sticky queue %q and both task queue types", req, w.StickyQueue())
	}
	if !slices.Equal(*ran, []string{"late"}) || svc.reportedToken != "late" {
		t.Errorf("the task the completing poll brought: ran %q, reported %q; want it run and reported", *ran, svc.reportedToken)
	}
}

// Without it (server 1.29, which answers only the sticky queue's polls),
// Stop cancels the polls as before, and the server keeps the task.
func TestStopCancelsThePollsTheServerDoesNotComplete(t *testing.T) {
	svc := newCompletingService(true)
	w, ran := startCompletingWorker(t, svc, false, 0)
	stopWithin(t, w, StopMargin+3*time.Second)

	svc.mu.Lock()
	defer svc.mu.Unlock()
	events := strings.Join(svc.events, ", ")
	for _, want := range []string{"shutdown", "workflow poll canceled", "activity poll canceled"} {
		if !slices.Contains(svc.events, want) {
			t.Errorf("no %q in %s", want, events)
		}
	}
	if strings.Contains(events, "workflow poll answered") || strings.Contains(events, "activity poll answered") {
		t.Errorf("a poll the server does not complete was answered: %s", events)
	}
	if len(*ran) > 0 || svc.reportedToken != "" {
		t.Errorf("tasks %q ran, %q reported, from polls the server did not complete", *ran, svc.reportedToken)
	}
}
