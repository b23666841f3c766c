package workerimpl

import (
	"github.com/durable-go/sdk/internal/session"
	"github.com/durable-go/sdk/internal/uuid"
	"github.com/durable-go/sdk/internal/workerrt"
)

// sessionWorkers are the two activity workers that run a worker's
// sessions (package session has the protocol): one polls the creation
// queue of the worker's task queue, with a single poller and only while
// there is room for another session; the other polls the worker's own
// resource-specific queue, where its sessions' activities (and the
// completion activity, and the creation activity of a recreated session)
// go. primary is the main worker's runtime options.
func (w *AggregatedWorker) sessionWorkers(primary workerrt.Options) ([]*workerrt.Worker, error) {
	maxSessions := w.options.MaxConcurrentSessionExecutionSize
	if maxSessions <= 0 {
		maxSessions = session.DefaultMaxConcurrentSessions
	}
	host, err := session.NewHost(session.HostOptions{
		ResourceID:            uuid.New(),
		MaxConcurrentSessions: maxSessions,
		DataConverter:         w.clientSettings.DataConverter,
		Signal:                w.client.SignalWorkflow,
		Logger:                w.clientSettings.Logger,
	})
	if err != nil {
		return nil, err
	}
	activityWorker := func(taskQueue string) workerrt.Options {
		o := primary
		o.TaskQueue = taskQueue
		o.Engine, o.Cache = nil, nil
		o.Nexus = nil // Nexus tasks come on the worker's own task queue only
		o.Activities = host.Executor(taskQueue, w.activityExecutor(taskQueue))
		return o
	}
	creation := activityWorker(session.CreationTaskQueue(w.taskQueue))
	creation.ActivityPollers, creation.ActivityPollerScaling = 1, nil
	creation.MaxConcurrentActivities, creation.ActivitySlots = maxSessions, nil
	creation.ActivityPollGate = host.WaitForRoom
	resource := activityWorker(host.TaskQueue())
	resource.Versioning = w.versioning.runtime(true)
	if resource.ActivitySlots, err = w.sessionActivitySlots(); err != nil {
		return nil, err
	}

	var workers []*workerrt.Worker
	for _, o := range []workerrt.Options{creation, resource} {
		rt, err := workerrt.New(o)
		if err != nil {
			return nil, err
		}
		workers = append(workers, rt)
	}
	return workers, nil
}
