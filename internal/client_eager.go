package internal

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/workerrt"
)

// Eager workflow start (StartWorkflowOptions.EnableEagerStart): a client
// starting a workflow on a task queue that one of its own running workers
// polls reserves a workflow task slot in that worker and asks the server
// to hand the workflow's first task back in the start's response, saving
// the worker a poll. Without a free slot, or from a server that does not
// support it, the workflow starts as usual.

// eagerWorkflowWorkers are a client's running workers that run
// workflows, by task queue.
type eagerWorkflowWorkers struct {
	mu      sync.RWMutex
	byQueue map[string][]*workerrt.Worker
}

func (e *eagerWorkflowWorkers) add(taskQueue string, w *workerrt.Worker) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.byQueue == nil {
		e.byQueue = map[string][]*workerrt.Worker{}
	}
	e.byQueue[taskQueue] = append(e.byQueue[taskQueue], w)
}

func (e *eagerWorkflowWorkers) remove(taskQueue string, w *workerrt.Worker) {
	e.mu.Lock()
	defer e.mu.Unlock()
	workers := slices.DeleteFunc(e.byQueue[taskQueue], func(x *workerrt.Worker) bool { return x == w })
	if len(workers) == 0 {
		delete(e.byQueue, taskQueue)
	} else {
		e.byQueue[taskQueue] = workers
	}
}

// reserve reserves a workflow task slot in one of the task queue's
// workers, tried in random order so that the load spreads; nil if none
// has one free.
func (e *eagerWorkflowWorkers) reserve(taskQueue string) *workerrt.EagerWorkflowSlot {
	e.mu.RLock()
	workers := slices.Clone(e.byQueue[taskQueue])
	e.mu.RUnlock()
	rand.Shuffle(len(workers), func(i, j int) { workers[i], workers[j] = workers[j], workers[i] })
	for _, w := range workers {
		if slot := w.ReserveEagerWorkflowSlot(); slot != nil {
			return slot
		}
	}
	return nil
}

// reserveEagerStart asks for eager execution in a start request when the
// options ask for it, the server supports it and a local worker has room;
// the slot returned (nil otherwise) must be finished with the response.
func (c *workflowClient) reserveEagerStart(ctx context.Context, enable bool, req *workflowservice.StartWorkflowExecutionRequest) *workerrt.EagerWorkflowSlot {
	if !enable {
		return nil
	}
	info, err := c.conn.SystemInfo(ctx)
	if err != nil || !info.GetCapabilities().GetEagerWorkflowStart() {
		return nil
	}
	slot := c.eagerWorkers.reserve(req.GetTaskQueue().GetName())
	if slot != nil {
		req.RequestEagerExecution = true
	}
	return slot
}

// finishEagerStart runs the first workflow task the start's response
// holds in the reserved slot, or gives the slot back.
func finishEagerStart(slot *workerrt.EagerWorkflowSlot, resp *workflowservice.StartWorkflowExecutionResponse) {
	if slot == nil {
		return
	}
	if task := resp.GetEagerWorkflowTask(); task != nil {
		slot.Run(task)
		return
	}
	slot.Release()
}
