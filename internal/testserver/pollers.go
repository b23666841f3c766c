//lint:file-ignore SA1019 a poller's build-ID capabilities are deprecated, and what an older worker's poll reports.

package testserver

import (
	"slices"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// The pollers of each task queue, as a server's DescribeTaskQueue lists
// them: the workers (by identity) that polled it within pollerTTL, each
// with the time of its last poll. A worker whose poll is waiting counts
// as polling now, so that a clock that skips ahead does not age it.

// pollerTTL is how long a server lists a poller after its last poll.
const pollerTTL = 5 * time.Minute

// defaultPollerRate is the rate a server reports for a poller that set
// none (its task dispatch rate limit).
const defaultPollerRate = 100000

type pollerKey struct {
	queue    string
	taskType enumspb.TaskQueueType
	identity string
}

type pollerRecord struct {
	lastAccess   time.Time
	waiting      int // polls not answered yet
	rate         float64
	capabilities *commonpb.WorkerVersionCapabilities
	deployment   *deploymentpb.WorkerDeploymentOptions
}

// pollRequest is what a poll (of workflow, activity or Nexus tasks) says
// of its worker.
type pollRequest interface {
	GetIdentity() string
	GetWorkerVersionCapabilities() *commonpb.WorkerVersionCapabilities
	GetDeploymentOptions() *deploymentpb.WorkerDeploymentOptions
}

// pollStarted records a poll of a task queue; rate is the worker's limit
// on the tasks it takes (0: none set). The returned function records the
// poll's end.
func (s *Server) pollStarted(queue string, taskType enumspb.TaskQueueType, req pollRequest, rate float64) func() {
	key := pollerKey{queue, taskType, req.GetIdentity()}
	s.lock()
	defer s.unlock()
	if s.pollers == nil {
		s.pollers = make(map[pollerKey]*pollerRecord)
	}
	p := s.pollers[key]
	if p == nil {
		p = &pollerRecord{}
		s.pollers[key] = p
	}
	p.lastAccess, p.rate, p.capabilities, p.deployment = s.clock.Now(), rate, req.GetWorkerVersionCapabilities(), req.GetDeploymentOptions()
	if p.rate == 0 {
		p.rate = defaultPollerRate
	}
	p.waiting++
	return func() {
		s.lock()
		defer s.unlock()
		p.waiting--
		p.lastAccess = s.clock.Now()
	}
}

// Pollers lists the workers that polled a task queue for tasks of a type
// within the last five minutes, the most recent first.
func (s *Server) Pollers(queue string, taskType enumspb.TaskQueueType) []*taskqueuepb.PollerInfo {
	s.lock()
	defer s.unlock()
	now := s.clock.Now()
	var out []*taskqueuepb.PollerInfo
	for key, p := range s.pollers {
		if key.queue != queue || key.taskType != taskType {
			continue
		}
		last := p.lastAccess
		if p.waiting > 0 {
			last = now
		}
		if now.Sub(last) > pollerTTL {
			continue
		}
		out = append(out, &taskqueuepb.PollerInfo{
			LastAccessTime: timestamppb.New(last), Identity: key.identity, RatePerSecond: p.rate,
			WorkerVersionCapabilities: p.capabilities, DeploymentOptions: p.deployment,
		})
	}
	slices.SortFunc(out, func(a, b *taskqueuepb.PollerInfo) int {
		if c := b.GetLastAccessTime().AsTime().Compare(a.GetLastAccessTime().AsTime()); c != 0 {
			return c
		}
		return strings.Compare(a.GetIdentity(), b.GetIdentity())
	})
	return out
}

// Backlog is what waits on a task queue for a worker: how many workflow
// or activity tasks (queries left out), and since when the oldest waits
// (zero with none). Nexus requests, which the servers of all namespaces
// share (NexusRouter), are not counted.
func (s *Server) Backlog(queue string, taskType enumspb.TaskQueueType) (count int64, oldest time.Time) {
	s.lock()
	defer s.unlock()
	note := func(scheduled time.Time) {
		count++
		if oldest.IsZero() || scheduled.Before(oldest) {
			oldest = scheduled
		}
	}
	switch taskType {
	case enumspb.TASK_QUEUE_TYPE_WORKFLOW:
		if q := s.workflowQueues[queue]; q != nil {
			for _, t := range q.items {
				if t.query == nil && !t.run.closed && t.scheduledID > 0 {
					note(t.run.history[t.scheduledID-1].GetEventTime().AsTime())
				}
			}
		}
	case enumspb.TASK_QUEUE_TYPE_ACTIVITY:
		if q := s.activityQueues[queue]; q != nil {
			for _, a := range q.items {
				if a.run.activities[a.scheduledID] == a && a.state == activityScheduled {
					note(a.attemptSchedule)
				}
			}
		}
	}
	return count, oldest
}

// Now is the server's time.
func (s *Server) Now() time.Time { return s.clock.Now() }
