package workerrt

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/logging"
)

// failingPolls answers every activity poll with err.
type failingPolls struct {
	Service
	err   error
	polls atomic.Int32
}

func (s *failingPolls) PollActivityTaskQueue(context.Context, *workflowservice.PollActivityTaskQueueRequest, ...grpc.CallOption) (*workflowservice.PollActivityTaskQueueResponse, error) {
	s.polls.Add(1)
	return nil, s.err
}

func startFailingWorker(t *testing.T, svc *failingPolls, onFatal func(error)) *Worker {
	t.Helper()
	w, err := New(Options{Service: svc, TaskQueue: "tq", Logger: logging.NewTextLogger(discard{}, 0),
		Activities:   activityFunc(func(context.Context, *ActivityTask) (*commonpb.Payloads, error) { return nil, nil }),
		OnFatalError: onFatal, FatalErrorGrace: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	w.Start()
	t.Cleanup(w.Stop)
	return w
}

// A poll error that retrying will not cure stops polling once it has
// lasted the grace period, and is reported once; retried until then.
func TestAFatalPollErrorStopsPollingAfterTheGrace(t *testing.T) {
	svc := &failingPolls{err: serviceerror.NewNamespaceNotFound("nope")}
	var mu sync.Mutex
	var reported []error
	var at time.Duration
	start := time.Now()
	startFailingWorker(t, svc, func(err error) {
		mu.Lock()
		defer mu.Unlock()
		reported = append(reported, err)
		at = time.Since(start)
	})
	time.Sleep(2 * time.Second)
	polls := svc.polls.Load()
	time.Sleep(time.Second)
	if after := svc.polls.Load(); after != polls {
		t.Errorf("%d polls after the fatal error, want none", after-polls)
	}
	mu.Lock()
	defer mu.Unlock()
	var notFound *serviceerror.NamespaceNotFound
	if len(reported) != 1 || !errors.As(reported[0], &notFound) {
		t.Fatalf("reported %v, want the NamespaceNotFound error once", reported)
	}
	if at < 500*time.Millisecond || polls < 4 {
		t.Errorf("reported after %v and %d polls: want the polls retried through the 500ms grace first", at, polls)
	}
}

// Errors that may pass (the server unavailable) are retried however long
// they last.
func TestAPassingPollErrorIsRetriedPastTheGrace(t *testing.T) {
	svc := &failingPolls{err: serviceerror.NewUnavailable("down")}
	var reported atomic.Int32
	startFailingWorker(t, svc, func(error) { reported.Add(1) })
	time.Sleep(time.Second)
	polls := svc.polls.Load()
	time.Sleep(3 * time.Second) // the backoff is under 2s so far
	if reported.Load() != 0 {
		t.Error("an Unavailable error was reported as fatal")
	}
	if svc.polls.Load() == polls {
		t.Error("polling stopped on an Unavailable error")
	}
}
