package workerrt

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
)

// PollerScaling makes a worker scale the number of long polls it keeps
// open on a task queue between Min and Max, starting at Initial
// (worker.NewPollerBehaviorAutoscaling). A workflow worker scales its
// polls of the normal and of the sticky queue each within these bounds.
//
// The number grows while polls bring tasks, which means tasks are
// waiting, and shrinks while polls come back empty:
//   - a task that comes with the server's scaling decision (Temporal
//     1.27 and later send one when the queue has a backlog, or when the
//     poll waited long for its task) changes it by the decision's delta;
//   - a task without one, from a server that has never sent one, adds a
//     poll when it came within taskWaitingWithin of asking (it was
//     waiting);
//   - an empty poll (its long poll expired) takes one away;
//   - a ResourceExhausted error halves it (the server is overloaded).
type PollerScaling struct {
	Initial, Min, Max int
}

// taskWaitingWithin is how soon a poll that brings a task must return for
// the task to count as waiting for pollers: the time after which the
// server itself advises fewer pollers (matching.pollerScalingWaitTime).
const taskWaitingWithin = time.Second

// pollerCount is how many polls a pollGroup keeps open: a fixed number,
// or a target that scales.
type pollerCount struct {
	scaling *PollerScaling // nil: fixed at target

	mu            sync.Mutex
	target, open  int
	serverAdvises bool          // a scaling decision has come from the server
	changed       chan struct{} // closed (and replaced) when a poll may open
}

// counts are the polls open and the target.
func (c *pollerCount) counts() (open, target int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.open, c.target
}

func fixedPollers(n int) *pollerCount {
	return &pollerCount{target: n, changed: make(chan struct{})}
}

func scaledPollers(s PollerScaling) *pollerCount {
	return &pollerCount{scaling: &s, target: min(max(s.Initial, s.Min), s.Max), changed: make(chan struct{})}
}

// admit waits until another poll may open, or ctx ends; done must follow
// when the poll returns.
func (c *pollerCount) admit(ctx context.Context) error {
	for {
		c.mu.Lock()
		if c.open < c.target {
			c.open++
			c.mu.Unlock()
			return nil
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// done closes an admitted poll.
func (c *pollerCount) done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.open--
	c.signal()
}

// signal wakes admit; the caller holds c.mu.
func (c *pollerCount) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// gotTask adjusts the target to a poll that brought a task after waiting
// that long, with the server's decision if it sent one.
func (c *pollerCount) gotTask(decision *taskqueuepb.PollerScalingDecision, waited time.Duration) {
	if c.scaling == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case decision != nil:
		c.serverAdvises = true
		c.setTarget(c.target + int(decision.GetPollRequestDeltaSuggestion()))
	case !c.serverAdvises && waited < taskWaitingWithin:
		c.setTarget(c.target + 1)
	}
}

// empty adjusts the target to a poll that expired without a task.
func (c *pollerCount) empty() {
	if c.scaling == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.setTarget(c.target - 1)
}

// failed adjusts the target to a poll that failed.
func (c *pollerCount) failed(err error) {
	var exhausted *serviceerror.ResourceExhausted
	if c.scaling == nil || !errors.As(err, &exhausted) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.setTarget(c.target / 2)
}

// setTarget sets the target within bounds; the caller holds c.mu.
func (c *pollerCount) setTarget(n int) {
	n = min(max(n, c.scaling.Min), c.scaling.Max)
	if n != c.target {
		c.target = n
		c.signal()
	}
}
