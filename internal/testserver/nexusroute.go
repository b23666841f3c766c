package testserver

import (
	"context"
	"strconv"
	"sync"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
)

// NexusTarget is where an endpoint sends its operations: the handler's
// namespace and task queue, and the endpoint's ID (recorded in
// NexusOperationScheduled events).
type NexusTarget struct {
	EndpointID, Namespace, TaskQueue string
}

// NexusRouter carries Nexus requests from the servers whose workflows
// call operations to the task queues of the namespaces whose workers
// handle them: the servers of one frontend's namespaces share one
// (Options.NexusRouter), so that a caller in one namespace reaches a
// handler in another, and a handler's workflow completes the caller's
// operation by its callback.
//
// Its lock is taken after a server's and never before one: a server
// pushes and drops requests while it holds its own lock, and a handler's
// answer is looked up here, then handled under the calling server's lock.
type NexusRouter struct {
	mu        sync.Mutex
	servers   map[string]*Server // by namespace
	queues    map[nexusQueueKey]*taskQueue[*nexusTask]
	tokens    map[string]*nexusTask
	nextToken int
}

type nexusQueueKey struct{ namespace, queue string }

// NewNexusRouter returns a router for servers to share.
func NewNexusRouter() *NexusRouter {
	return &NexusRouter{
		servers: make(map[string]*Server),
		queues:  make(map[nexusQueueKey]*taskQueue[*nexusTask]),
		tokens:  make(map[string]*nexusTask),
	}
}

func (r *NexusRouter) add(s *Server) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.servers[s.opts.Namespace] = s
}

// server is the server of a namespace, nil if none.
func (r *NexusRouter) server(namespace string) *Server {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.servers[namespace]
}

// push queues a request on its target's task queue.
func (r *NexusRouter) push(t *nexusTask) {
	r.mu.Lock()
	defer r.mu.Unlock()
	queueOf(r.queues, nexusQueueKey{t.namespace, t.queue}).push(t)
}

// drop forgets a request that no longer matters, if it is still queued.
// One handed out stays known until its answer (answered): a handler may
// answer after its operation ended (its workflow's callback came first),
// which is no error on a server.
func (r *NexusRouter) drop(t *nexusTask) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t.token == nil {
		queueOf(r.queues, nexusQueueKey{t.namespace, t.queue}).remove(func(q *nexusTask) bool { return q == t })
	}
}

// answered forgets a request's token once its answer came.
func (r *NexusRouter) answered(t *nexusTask) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.tokens, string(t.token))
}

// handedOut reports whether a worker took the request.
func (r *NexusRouter) handedOut(t *nexusTask) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return t.token != nil
}

// poll hands out the next request of a namespace's task queue, waiting
// for one until ctx ends (then the response is empty).
func (r *NexusRouter) poll(ctx context.Context, namespace, queue string) *workflowservice.PollNexusTaskQueueResponse {
	key := nexusQueueKey{namespace, queue}
	t := pollQueue(ctx, r.mu.Lock, r.mu.Unlock, func() *taskQueue[*nexusTask] { return queueOf(r.queues, key) }, func(t *nexusTask) bool {
		r.nextToken++
		t.token = []byte("nexus-task-" + strconv.Itoa(r.nextToken))
		r.tokens[string(t.token)] = t
		return true
	})
	if t == nil {
		return &workflowservice.PollNexusTaskQueueResponse{}
	}
	return &workflowservice.PollNexusTaskQueueResponse{TaskToken: t.token, Request: t.request}
}

// task finds the request a token of namespace was handed out for.
func (r *NexusRouter) task(namespace string, token []byte) (*nexusTask, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.tokens[string(token)]
	if t == nil || t.namespace != namespace {
		return nil, serviceerror.NewNotFound("the Nexus task is no longer known to the server: it was answered, or its operation ended")
	}
	return t, nil
}
