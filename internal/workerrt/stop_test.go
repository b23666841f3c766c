package workerrt

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
)

// stopService is a server that answers a stopping worker slowly or not
// at all: polls never bring a task, except one activity task when
// activity is set; ShutdownWorker hangs when hangShutdown is set; the
// activity's report hangs until reported is closed.
type stopService struct {
	Service
	hangShutdown bool
	activity     bool
	reported     chan struct{}

	stickyPolls  atomic.Int32 // open
	mu           sync.Mutex
	activityGone bool
}

func (s *stopService) PollWorkflowTaskQueue(ctx context.Context, req *workflowservice.PollWorkflowTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	if req.GetTaskQueue().GetKind() == enumspb.TASK_QUEUE_KIND_STICKY {
		s.stickyPolls.Add(1)
		defer s.stickyPolls.Add(-1)
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (s *stopService) PollActivityTaskQueue(ctx context.Context, _ *workflowservice.PollActivityTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollActivityTaskQueueResponse, error) {
	s.mu.Lock()
	give := s.activity && !s.activityGone
	s.activityGone = true
	s.mu.Unlock()
	if give {
		return activityTask("a", time.Now()), nil
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (s *stopService) RespondActivityTaskCompleted(ctx context.Context, _ *workflowservice.RespondActivityTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	select {
	case <-s.reported:
		return &workflowservice.RespondActivityTaskCompletedResponse{}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *stopService) ShutdownWorker(ctx context.Context, _ *workflowservice.ShutdownWorkerRequest, _ ...grpc.CallOption) (*workflowservice.ShutdownWorkerResponse, error) {
	if s.hangShutdown {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return &workflowservice.ShutdownWorkerResponse{}, nil
}

// lines is a log sink for a text logger.
type lines struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// stopWithin stops w and fails t if Stop takes more than limit, a bound
// far above the StopTimeout and StopMargin it should take, and far below
// what it took before (an hour, or the ten seconds of an RPC's timeout).
func stopWithin(t *testing.T, w *Worker, limit time.Duration) {
	t.Helper()
	stopped := make(chan struct{})
	go func() {
		w.Stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(limit):
		t.Fatalf("Stop did not return within %v (StopTimeout %v, StopMargin %v)", limit, w.opts.StopTimeout, StopMargin)
	}
}

// Stop returns within StopTimeout plus StopMargin whatever the server
// does: it waits for the sticky queue's polls only within the stop
// timeout (it waited a second more, whatever the timeout), and for
// ShutdownWorker and the worker's own work only until the margin.
func TestStopReturnsWithinItsTimeoutAndMargin(t *testing.T) {
	// Were Stop to wait for the sticky polls past its timeout, it would
	// wait an hour.
	defer func(wait time.Duration) { pollAnswerWait = wait }(pollAnswerWait)
	pollAnswerWait = time.Hour

	for _, c := range []struct {
		name    string
		svc     *stopService
		timeout time.Duration
		// pollComplete: the server is said to complete the polls of a
		// stopping worker, and this one does not.
		pollComplete bool
	}{
		{"sticky polls unanswered", &stopService{}, 0, false},
		{"sticky polls unanswered, with a timeout", &stopService{}, 200 * time.Millisecond, false},
		{"ShutdownWorker unanswered", &stopService{hangShutdown: true}, 0, false},
		{"an activity's report unanswered", &stopService{activity: true, reported: make(chan struct{})}, 0, false},
		{"polls said to complete unanswered", &stopService{}, 0, true},
		{"polls said to complete unanswered, with a timeout", &stopService{}, 200 * time.Millisecond, true},
		{"polls said to complete, ShutdownWorker unanswered", &stopService{hangShutdown: true}, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			logs := &lines{}
			ran := make(chan struct{})
			w, err := New(Options{Service: c.svc, Namespace: "ns", TaskQueue: "tq", Logger: logging.NewTextLogger(logs, 0),
				FailureConverter: failure.GetDefaultFailureConverter(), Cache: NewStickyCache(10), Engine: loopEngine(),
				StopTimeout: c.timeout, PollCompleteOnShutdown: c.pollComplete,
				Activities: activityFunc(func(context.Context, *ActivityTask) (*commonpb.Payloads, error) {
					close(ran)
					return nil, nil
				})})
			if err != nil {
				t.Fatal(err)
			}
			w.Start()
			waitFor(t, 10*time.Second, "a sticky poll to open", func() bool { return c.svc.stickyPolls.Load() > 0 })
			if c.svc.activity {
				<-ran
			}
			stopWithin(t, w, c.timeout+StopMargin+3*time.Second)

			if c.svc.activity {
				// The report goes on in the background, and ends.
				if !strings.Contains(logs.String(), "did not end within the stop timeout and its margin") {
					t.Errorf("Stop did not say that it left work running:\n%s", logs)
				}
				close(c.svc.reported)
				waitFor(t, 10*time.Second, "the report to end", func() bool { return w.running.idle() })
			}
			if c.svc.hangShutdown && !strings.Contains(logs.String(), "the server did not answer in time that the worker stops") {
				t.Errorf("Stop did not say that the server did not answer ShutdownWorker:\n%s", logs)
			}
		})
	}
}
