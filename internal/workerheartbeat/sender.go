package workerheartbeat

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/durable-go/sdk/log"
)

// Service is the call a Sender makes.
type Service interface {
	RecordWorkerHeartbeat(ctx context.Context, in *workflowservice.RecordWorkerHeartbeatRequest, opts ...grpc.CallOption) (*workflowservice.RecordWorkerHeartbeatResponse, error)
}

// Sender sends the heartbeats of a client's workers, all in one request,
// every Interval while it has workers: the first as the first worker
// joins, then on a ticker. Its methods may be called concurrently.
type Sender struct {
	Service   Service
	Namespace string
	Identity  string
	// GroupingKey names the client: "worker:<key>" is the request's
	// resource ID, as go.temporal.io/sdk sends it.
	GroupingKey string
	Interval    time.Duration
	Logger      log.Logger

	mu          sync.Mutex
	workers     map[string]*Worker // by instance key
	stop        chan struct{}
	done        chan struct{}
	unsupported bool // the server answered Unimplemented
}

// Add makes w's heartbeats part of the next requests, starting the
// sending when w is the first worker.
func (s *Sender) Add(w *Worker) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unsupported {
		return
	}
	if s.workers == nil {
		s.workers = map[string]*Worker{}
	}
	s.workers[w.InstanceKey] = w
	if s.stop == nil {
		s.stop, s.done = make(chan struct{}), make(chan struct{})
		go s.run(s.stop, s.done)
	}
}

// Remove takes w out of the requests, ending the sending when it was the
// last worker; it returns once no request is in flight.
func (s *Sender) Remove(w *Worker) {
	s.mu.Lock()
	delete(s.workers, w.InstanceKey)
	var stop, done chan struct{}
	if len(s.workers) == 0 && s.stop != nil {
		stop, done = s.stop, s.done
		s.stop, s.done = nil, nil
	}
	s.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
}

func (s *Sender) run(stop, done chan struct{}) {
	defer close(done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	ticker := time.NewTicker(s.Interval)
	defer ticker.Stop()
	for {
		if !s.send(ctx) {
			return
		}
		select {
		case <-ticker.C:
		case <-stop:
			return
		}
	}
}

// send sends the workers' heartbeats once; false when the server does
// not take heartbeats, which ends the sending for good.
func (s *Sender) send(ctx context.Context) bool {
	s.mu.Lock()
	workers := make([]*Worker, 0, len(s.workers))
	for _, w := range s.workers {
		workers = append(workers, w)
	}
	s.mu.Unlock()
	if len(workers) == 0 {
		return true
	}
	req := &workflowservice.RecordWorkerHeartbeatRequest{Namespace: s.Namespace, Identity: s.Identity,
		ResourceId: fmt.Sprintf("worker:%s", s.GroupingKey)}
	for _, w := range workers {
		req.WorkerHeartbeat = append(req.WorkerHeartbeat, w.Heartbeat())
	}
	rctx, cancel := context.WithTimeout(ctx, max(s.Interval, 10*time.Second))
	defer cancel()
	_, err := s.Service.RecordWorkerHeartbeat(rctx, req)
	switch {
	case err == nil:
		for _, w := range workers {
			w.accepted()
		}
	case status.Code(err) == codes.Unimplemented:
		s.mu.Lock()
		s.unsupported = true
		s.mu.Unlock()
		s.Logger.Debug("the server does not take worker heartbeats; the client sends no more", "Error", err)
		return false
	case ctx.Err() == nil:
		s.Logger.Warn("sending the workers' heartbeats failed; the next interval sends them again", "Error", err)
	}
	return true
}
