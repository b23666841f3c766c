package worker

import "github.com/durable-go/sdk/internal"

// Options configure a Worker (New). The zero Options work: every field
// has a default, given below.
//
// Concurrency and rate limits:
//
//   - MaxConcurrentActivityExecutionSize: the most activities running at
//     once. Default: 1000.
//   - WorkerActivitiesPerSecond: the most activities this worker starts
//     per second. Default: unlimited.
//   - TaskQueueActivitiesPerSecond: the most activities the server hands
//     out per second for the whole task queue, across all its workers;
//     it also turns eager activities off. Default: unlimited.
//   - MaxConcurrentLocalActivityExecutionSize: the most local activity
//     attempts running at once. Default: 1000.
//   - WorkerLocalActivitiesPerSecond: the most local activity attempts
//     started per second. Default: unlimited.
//   - MaxConcurrentWorkflowTaskExecutionSize: the most workflow tasks
//     processed at once. Default: 1000.
//   - MaxConcurrentWorkflowTaskPollers, MaxConcurrentActivityTaskPollers:
//     the long polls kept open for each kind of task. Default: 2 each.
//   - WorkflowTaskPollerBehavior, ActivityTaskPollerBehavior: how many
//     long polls to keep open (NewPollerBehaviorAutoscaling,
//     NewPollerBehaviorSimpleMaximum), instead of the option above of
//     their kind.
//   - Tuner: decides how many tasks of each kind run at once
//     (NewFixedSizeTuner, NewResourceBasedTuner, NewCompositeTuner);
//     exclusive with the MaxConcurrent...ExecutionSize options, which
//     size the default, fixed-size tuner.
//
// What the worker runs:
//
//   - LocalActivityWorkerOnly: run workflows and their local activities,
//     and poll no activity tasks.
//   - DisableWorkflowWorker: poll activity tasks only; registering a
//     workflow then panics.
//   - EnableSessionWorker: let the worker run sessions
//     (workflow.CreateSession).
//   - MaxConcurrentSessionExecutionSize: the most sessions open at once on
//     this worker. Default: 1000.
//   - DisableEagerActivities: do not let workflow tasks take the
//     activities they schedule on this task queue straight back to this
//     worker (eager execution, which saves a round trip through the
//     server). Default: false, when the server allows it.
//   - MaxEagerActivityReservationsPerWorkflowTask: the most eager
//     activities one workflow task asks for. Default (nil): 3.
//   - MaxConcurrentEagerActivityExecutionSize: the most eager activities
//     running at once. Default: 0, only the activity slots bound them.
//
// Workflow execution:
//
//   - StickyScheduleToStartTimeout: how long a cached workflow's next
//     task waits for this worker before any worker may take it. Default:
//     5s.
//   - WorkflowPanicPolicy: what a panic in workflow code does
//     (BlockWorkflow or FailWorkflow). Default: BlockWorkflow.
//   - DeadlockDetectionTimeout: how long workflow code may run without
//     blocking before the workflow task fails with a deadlock error
//     naming the coroutine. Default: 1s; negative turns detection off
//     (so does the TEMPORAL_DEBUG environment variable, for debuggers).
//   - EnableLoggingInReplay: let workflow loggers write while the
//     workflow replays history. Default: false, each message is written
//     once.
//   - DisableRegistrationAliasing: workflow code schedules a function
//     registered under a name of its own (RegisterOptions.Name) by its
//     function name rather than by the registered name. Default: false,
//     the registered name, as in go.temporal.io/sdk.
//
// Activity execution:
//
//   - DefaultHeartbeatThrottleInterval: the least time between two
//     heartbeats sent to the server for an activity without a heartbeat
//     timeout (with one, 80% of it). Default: 30s.
//   - MaxHeartbeatThrottleInterval: bounds that interval. Default: 60s.
//   - BackgroundActivityContext: the parent of every activity context:
//     its values reach the activities, and its cancellation cancels them.
//     Default: context.Background().
//
// Nexus tasks (polled only when a Nexus service is registered, see
// RegisterNexusService):
//
//   - MaxConcurrentNexusTaskExecutionSize: how many Nexus tasks run at
//     once. Default: 1000. Not with Tuner.
//   - MaxConcurrentNexusTaskPollers: the long polls of Nexus tasks kept
//     open. Default: 2.
//   - NexusTaskPollerBehavior: how many long polls of Nexus tasks are
//     kept open (NewPollerBehaviorAutoscaling,
//     NewPollerBehaviorSimpleMaximum), instead of
//     MaxConcurrentNexusTaskPollers.
//
// Lifecycle and identity:
//
//   - WorkerStopTimeout: how long Stop lets running tasks finish before it
//     cancels the activities still running; Stop returns at most 0.5 s
//     after it (see Worker.Stop). Default: 0.
//   - OnFatalError: called once, on its own goroutine, with a poll error
//     that retrying will not cure (the namespace deleted, an unsupported
//     client), after which the worker stops and Run returns the error.
//   - Identity: the worker's name on the server (in history and the UI).
//     Default: the client's Identity (pid@host).
//   - Interceptors: wrap the worker's workflows and activities, the first
//     outermost, after the client's interceptors that are also worker
//     interceptors.
//   - Plugins: configure the worker and wrap its start and stop, after
//     the client's plugins that are also worker plugins (see Plugin).
//   - DisablePayloadErrorLimit: send what tasks produce whatever its
//     size. By default a result, argument or memo larger than the
//     namespace's limit (the server reports it; 2 MiB unless configured)
//     fails the task instead of reaching the server, which would refuse
//     it and terminate the workflow: the workflow task fails with cause
//     PAYLOADS_TOO_LARGE and is retried, the activity attempt fails, the
//     query answers with the error. Experimental.
//
// Versioning:
//
//   - DeploymentOptions: Worker Deployment Versioning: the worker's
//     deployment version, whether it takes only that version's tasks,
//     and its workflows' default versioning behavior (see
//     DeploymentOptions and docs/guide/worker-versioning.md).
//   - BuildID: deprecated, DeploymentOptions.Version replaces it: the
//     build ID the worker's polls and completions carry. Default: the
//     binary checksum.
//   - UseBuildIDForVersioning: deprecated, DeploymentOptions.UseVersioning
//     replaces it: build-ID versioning, which takes only the tasks the
//     task queue's build-ID rules route to BuildID. Not with
//     EnableSessionWorker.
//   - PreferredVersionProvider: chooses the version workflow.GetVersion
//     records the first time a run reaches it (see
//     PreferredVersionProvider). Default: GetVersion's maxSupported.
//
// Heartbeats:
//
//   - SysInfoProvider: measures the host's CPU and memory use for the
//     worker's heartbeats (client.Options.WorkerHeartbeatInterval).
//     Default: the provider of a resource-based Tuner, else none (they
//     report 0); one other than the tuner's panics. Experimental.
type Options = internal.WorkerOptions

// WorkflowPanicPolicy says what a panic in workflow code does
// (Options.WorkflowPanicPolicy).
type WorkflowPanicPolicy = internal.WorkflowPanicPolicy

const (
	// BlockWorkflow fails the workflow task, and the server retries it
	// until a worker with fixed code takes it: the workflow waits, nothing
	// is lost. The default.
	BlockWorkflow = internal.BlockWorkflow
	// FailWorkflow fails the workflow, with the panic as its error.
	FailWorkflow = internal.FailWorkflow
)
