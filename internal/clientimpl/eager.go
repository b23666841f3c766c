package clientimpl

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"

	deploymentpb "go.temporal.io/api/deployment/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal"
)

// Eager workflow start (StartWorkflowOptions.EnableEagerStart): a client
// starting a workflow on a task queue that one of its own running workers
// polls reserves a workflow task slot in that worker and asks the server
// to hand the workflow's first task back in the start's response, saving
// the worker a poll. Without a free slot, or from a server that does not
// support it, the workflow starts as usual.

// eagerTaskHandoff takes the start's eager workflow task (nil: none came)
// to the worker that reserved a slot for it.
type eagerTaskHandoff = func(*workflowservice.PollWorkflowTaskQueueResponse)

// eagerWorkflowWorkers are a client's running workers that run
// workflows, by task queue.
type eagerWorkflowWorkers struct {
	mu      sync.RWMutex
	byQueue map[string][]internal.EagerWorkflowTaker
}

func (e *eagerWorkflowWorkers) add(taskQueue string, w internal.EagerWorkflowTaker) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.byQueue == nil {
		e.byQueue = map[string][]internal.EagerWorkflowTaker{}
	}
	e.byQueue[taskQueue] = append(e.byQueue[taskQueue], w)
}

func (e *eagerWorkflowWorkers) remove(taskQueue string, w internal.EagerWorkflowTaker) {
	e.mu.Lock()
	defer e.mu.Unlock()
	workers := slices.DeleteFunc(e.byQueue[taskQueue], func(x internal.EagerWorkflowTaker) bool { return x == w })
	if len(workers) == 0 {
		delete(e.byQueue, taskQueue)
	} else {
		e.byQueue[taskQueue] = workers
	}
}

// reserve reserves a workflow task slot in one of the task queue's
// workers, tried in random order so that the load spreads; nil if none
// has one free. It returns the worker's deployment options too.
func (e *eagerWorkflowWorkers) reserve(taskQueue string) (eagerTaskHandoff, *deploymentpb.WorkerDeploymentOptions) {
	e.mu.RLock()
	workers := slices.Clone(e.byQueue[taskQueue])
	e.mu.RUnlock()
	rand.Shuffle(len(workers), func(i, j int) { workers[i], workers[j] = workers[j], workers[i] })
	for _, w := range workers {
		if handoff := w.ReserveEagerWorkflowTask(); handoff != nil {
			return handoff, w.EagerDeploymentOptions()
		}
	}
	return nil, nil
}

// AddEagerWorkflowWorker implements WorkerClient.
func (c *workflowClient) AddEagerWorkflowWorker(taskQueue string, w internal.EagerWorkflowTaker) {
	c.eagerWorkers.add(taskQueue, w)
}

// RemoveEagerWorkflowWorker implements WorkerClient.
func (c *workflowClient) RemoveEagerWorkflowWorker(taskQueue string, w internal.EagerWorkflowTaker) {
	c.eagerWorkers.remove(taskQueue, w)
}

// reserveEagerStart asks for eager execution in a start request when the
// options ask for it, the server supports it and a local worker has room;
// the handoff returned (nil otherwise) must be finished with the response.
func (c *workflowClient) reserveEagerStart(ctx context.Context, enable bool, req *workflowservice.StartWorkflowExecutionRequest) eagerTaskHandoff {
	if !enable {
		return nil
	}
	info, err := c.conn.SystemInfo(ctx)
	if err != nil || !info.GetCapabilities().GetEagerWorkflowStart() {
		return nil
	}
	handoff, deployment := c.eagerWorkers.reserve(req.GetTaskQueue().GetName())
	if handoff != nil {
		// As go.temporal.io/sdk: the worker's version goes with the
		// start, for the server to record the first task as that
		// version's.
		req.RequestEagerExecution, req.EagerWorkerDeploymentOptions = true, deployment
	}
	return handoff
}

// finishEagerStart hands the first workflow task the start's response
// holds to the worker that reserved a slot for it, or, when it holds none
// (the start failed, or the server did not dispatch it eagerly), gives
// the slot back.
func finishEagerStart(handoff eagerTaskHandoff, resp *workflowservice.StartWorkflowExecutionResponse) {
	if handoff != nil {
		handoff(resp.GetEagerWorkflowTask())
	}
}
