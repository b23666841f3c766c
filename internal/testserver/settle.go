package testserver

import (
	"context"
	"slices"

	commonpb "go.temporal.io/api/common/v1"
)

// A run is settled when its workflow has heard everything sent to it:
// no workflow task is scheduled or running on a queue a worker polls,
// and no event waits in its buffer for one. The test environment waits
// for this after each signal, cancellation or update the test sends, so
// that the workflow handles each before the next arrives, as
// go.temporal.io/sdk's test environment runs the workflow after each.

type settleWaiter struct {
	run *run
	ch  chan struct{}
}

// Settled returns a channel closed once the run (the workflow's newest,
// for an empty run ID) is settled or closed.
func (s *Server) Settled(execution *commonpb.WorkflowExecution) (<-chan struct{}, error) {
	s.lock()
	defer s.unlock()
	r, err := s.runLocked(execution)
	if err != nil {
		return nil, err
	}
	ch := make(chan struct{})
	s.settleWaiters = append(s.settleWaiters, settleWaiter{run: r, ch: ch})
	return ch, nil // unlock checks it
}

// WaitSettled waits until the run (the workflow's newest, for an empty
// run ID) is settled or closed, or ctx ends; then it forgets its waiter,
// so that a wait given up on a run that never settles costs nothing.
func (s *Server) WaitSettled(ctx context.Context, execution *commonpb.WorkflowExecution) error {
	ch, err := s.Settled(execution)
	if err != nil {
		return err
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		s.lock()
		defer s.unlock()
		s.settleWaiters = slices.DeleteFunc(s.settleWaiters, func(w settleWaiter) bool { return w.ch == ch })
		return ctx.Err()
	}
}

func settled(r *run) bool {
	if r.closed {
		return true
	}
	if len(r.buffer) > 0 || r.wftNeeded {
		return false
	}
	// A task no worker polls for (its worker is gone) will not run.
	return r.wft == nil || !r.wft.counted
}

// wakeSettledLocked releases the waiters whose runs settled.
func (s *Server) wakeSettledLocked() {
	waiting := s.settleWaiters[:0]
	for _, w := range s.settleWaiters {
		if settled(w.run) {
			close(w.ch)
			continue
		}
		waiting = append(waiting, w)
	}
	clear(s.settleWaiters[len(waiting):])
	s.settleWaiters = waiting
}
