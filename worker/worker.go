package worker

import (
	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/workerimpl"
	"github.com/durable-go/sdk/workflow"
)

// WorkflowRegistry registers workflows with a Worker or a
// WorkflowReplayer. Registration panics on a function that cannot be a
// workflow, or a name registered twice (see
// workflow.RegisterOptions.DisableAlreadyRegisteredCheck).
type WorkflowRegistry interface {
	// RegisterWorkflow registers the workflow function w under its
	// function name (without the package): a function whose first
	// parameter is a workflow.Context and which returns an error, or a
	// result and an error.
	RegisterWorkflow(w any)
	// RegisterWorkflowWithOptions registers w with options, such as a
	// Name of its own.
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
	// RegisterDynamicWorkflow registers the workflow that runs every
	// workflow type not registered by name: a func(workflow.Context,
	// converter.EncodedValues) returning (result, error) or error. A
	// worker has at most one.
	RegisterDynamicWorkflow(w any, options workflow.DynamicRegisterOptions)
}

// ActivityRegistry registers activities with a Worker. Registration panics
// on a function that cannot be an activity, or a name registered twice
// (see activity.RegisterOptions.DisableAlreadyRegisteredCheck).
type ActivityRegistry interface {
	// RegisterActivity registers a, an activity function, under its
	// function name; or, when a is a pointer to a struct, each of its
	// exported methods under the method's name. A struct holds the
	// activities' dependencies (clients, connections):
	//
	//	w.RegisterActivity(&Activities{DB: db})
	RegisterActivity(a any)
	// RegisterActivityWithOptions registers a with options, such as a
	// Name of its own (for a struct, a prefix of its methods' names).
	RegisterActivityWithOptions(a any, options activity.RegisterOptions)
	// RegisterDynamicActivity registers the activity that runs every
	// activity type not registered by name: a func(context.Context,
	// converter.EncodedValues) returning (result, error) or error.
	RegisterDynamicActivity(a any, options activity.DynamicRegisterOptions)
}

// NexusServiceRegistry registers Nexus services with a Worker.
type NexusServiceRegistry interface {
	// RegisterNexusService registers a Nexus service (nexus.NewService,
	// with its operations registered: temporalnexus.NewWorkflowRunOperation,
	// nexus.NewSyncOperation, ...). The worker then polls the task
	// queue's Nexus tasks and runs the service's operations. Register
	// before the worker starts: registering after, or a service with no
	// name or one registered already, panics.
	RegisterNexusService(service *nexus.Service)
}

// Registry registers workflows, activities and Nexus services.
type Registry interface {
	// WorkflowRegistry registers workflows.
	WorkflowRegistry
	// ActivityRegistry registers activities.
	ActivityRegistry
	// NexusServiceRegistry registers Nexus services.
	NexusServiceRegistry
}

// Worker polls a task queue and runs the workflows and activities
// registered with it. Make one with New; register, then Start or Run.
type Worker interface {
	// Registry registers the worker's workflows and activities, before or
	// after it starts.
	Registry
	// Start begins polling and returns. It fails when the namespace does
	// not exist or the server cannot be reached. Functions may be
	// registered before or after it.
	Start() error
	// Run starts the worker, blocks until interruptCh delivers (see
	// InterruptCh) or the worker hits a fatal error (Options.OnFatalError),
	// then stops it. It returns Start's error, or the fatal error.
	Run(interruptCh <-chan any) error
	// Stop stops polling, lets running tasks finish within
	// Options.WorkerStopTimeout, cancels the activities still running and
	// returns, even when activity code ignores its canceled context (the
	// server then retries that activity after its timeout). It returns
	// within WorkerStopTimeout plus a margin of 0.5 s (milliseconds on a
	// server that answers), plus the time of plugins' StopWorker hooks:
	// the margin is for telling the server that the worker stops and for
	// the worker's own work to end once activities are canceled (workflow
	// tasks, reports of activities that returned). What has not ended by
	// then ends in the background, and a warning says so.
	Stop()
}

// New returns a worker for taskQueue that uses client's connection,
// namespace, data converter, logger, metrics and interceptors. It polls
// nothing until Start or Run. Workers of one process may share a client;
// each task queue needs its own worker. It panics when taskQueue is empty
// or options are invalid (a negative size, a Tuner with the sizes it
// replaces), with a message that names the problem.
func New(client client.Client, taskQueue string, options Options) Worker {
	return workerimpl.NewWorker(client, taskQueue, options)
}

// InterruptCh returns a channel that delivers when the process receives
// SIGINT or SIGTERM, for Worker.Run: the worker then stops gracefully.
func InterruptCh() <-chan any { return workerimpl.InterruptCh() }

// SetStickyWorkflowCacheSize sets how many workflow runs the process keeps
// in memory between their tasks (10000 by default), shared by all its
// workers. A cached run continues from where it was; an evicted one is
// replayed from its full history at its next task. Call it before
// starting any worker.
func SetStickyWorkflowCacheSize(cacheSize int) { workerimpl.SetStickyWorkflowCacheSize(cacheSize) }

// SetBinaryChecksum sets the identifier of this process's binary, which its
// workers send with their workflow polls and task failures (and to servers
// without build-ID versioning, whose reset points it names, with their
// completions) and which workflow.Info.GetBinaryChecksum reports. Without
// it, the checksum is the hex MD5 of the executable (SHA-256 in FIPS 140
// mode), as go.temporal.io/sdk computes it. Call it before starting any
// worker.
//
// Deprecated: servers with build-ID versioning no longer record it; use
// worker build IDs.
func SetBinaryChecksum(checksum string) { internal.SetBinaryChecksum(checksum) }

// PurgeStickyWorkflowCache drops every cached workflow run of the process;
// their next tasks replay them from history. Mostly for tests.
func PurgeStickyWorkflowCache() { workerimpl.PurgeStickyWorkflowCache() }

// ErrWorkerShutdown is the cause (context.Cause) of the cancellation of
// the activities still running when a stopping worker's WorkerStopTimeout
// ends.
var ErrWorkerShutdown = internal.ErrWorkerShutdown

// EnableVerboseLogging makes every worker of the process log, at debug
// level, each long poll that expires empty and each task it receives
// (workflow, run, attempt, activity type), for finding out why a worker
// seems idle or what it is busy with.
func EnableVerboseLogging(enable bool) { workerimpl.EnableVerboseLogging(enable) }
