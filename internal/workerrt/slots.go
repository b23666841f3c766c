package workerrt

import "context"

// slots bounds how many tasks of one kind run at once. A poller takes a
// slot before it polls, so the worker never holds a task it has no room to
// run (the server can give it to another worker instead).
type slots struct{ free chan struct{} }

func newSlots(n int) *slots {
	s := &slots{free: make(chan struct{}, n)}
	for range n {
		s.free <- struct{}{}
	}
	return s
}

// acquire waits for a free slot or for ctx to end.
func (s *slots) acquire(ctx context.Context) error {
	select {
	case <-s.free:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *slots) release() { s.free <- struct{}{} }
