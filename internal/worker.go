package internal

import (
	"context"
	"time"

	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/tuning"
	"github.com/durable-go/sdk/internal/workerrt"
)

// WorkflowPanicPolicy says what a panic in workflow code does.
type WorkflowPanicPolicy int

const (
	// BlockWorkflow fails the workflow task; the server retries it, so the
	// workflow waits until fixed code is deployed. The default.
	BlockWorkflow WorkflowPanicPolicy = iota
	// FailWorkflow fails the workflow.
	FailWorkflow
)

// WorkerOptions configure a worker (worker.Options). Zero values take the
// defaults of go.temporal.io/sdk.
type WorkerOptions struct {
	// MaxConcurrentActivityExecutionSize bounds running activities
	// (workerrt.DefaultMaxConcurrentTasks).
	MaxConcurrentActivityExecutionSize int
	// WorkerActivitiesPerSecond bounds how fast this worker starts
	// activities (unlimited).
	WorkerActivitiesPerSecond float64
	// TaskQueueActivitiesPerSecond bounds how fast the server hands out the
	// task queue's activities, across all workers (unlimited).
	TaskQueueActivitiesPerSecond float64
	// MaxConcurrentLocalActivityExecutionSize bounds running local
	// activity attempts (workerrt.DefaultMaxConcurrentTasks).
	MaxConcurrentLocalActivityExecutionSize int
	// WorkerLocalActivitiesPerSecond bounds how fast this worker starts
	// local activity attempts (unlimited).
	WorkerLocalActivitiesPerSecond float64
	// LocalActivityWorkerOnly: the worker runs workflows and their local
	// activities, and polls no activity tasks.
	LocalActivityWorkerOnly bool
	// MaxConcurrentWorkflowTaskExecutionSize bounds running workflow tasks
	// (workerrt.DefaultMaxConcurrentTasks).
	MaxConcurrentWorkflowTaskExecutionSize int
	// MaxConcurrentWorkflowTaskPollers and MaxConcurrentActivityTaskPollers
	// are the long polls kept open (2 each).
	MaxConcurrentWorkflowTaskPollers int
	MaxConcurrentActivityTaskPollers int
	// EnableLoggingInReplay keeps workflow loggers talking during replay.
	EnableLoggingInReplay bool
	// StickyScheduleToStartTimeout is how long a workflow's next task waits
	// for this worker before going to any worker (5s).
	StickyScheduleToStartTimeout time.Duration
	// WorkflowPanicPolicy says what a panic in workflow code does.
	WorkflowPanicPolicy WorkflowPanicPolicy
	// DefaultHeartbeatThrottleInterval is the least time between two
	// heartbeats an activity sends the server when its options set no
	// HeartbeatTimeout (30s); with one, the interval is 80% of it.
	// Heartbeats recorded in between are kept, and the latest is sent at
	// the interval's end.
	DefaultHeartbeatThrottleInterval time.Duration
	// MaxHeartbeatThrottleInterval bounds that interval, whatever the
	// heartbeat timeout (60s).
	MaxHeartbeatThrottleInterval time.Duration
	// BackgroundActivityContext is the parent of every activity context
	// of the worker: its values reach the activities (a way to hand them
	// dependencies, though fields of a struct whose methods are the
	// activities are the clearer one), and its cancellation cancels them.
	BackgroundActivityContext context.Context
	// DisableRegistrationAliasing: a function registered under a name of
	// its own (RegisterOptions.Name) is then scheduled by workflow code
	// (ExecuteActivity, ExecuteLocalActivity, ExecuteChildWorkflow,
	// NewContinueAsNewError) by its function name, not by that name. By
	// default it is scheduled by the registered name, as in
	// go.temporal.io/sdk.
	DisableRegistrationAliasing bool
	// OnFatalError is called once, with the first poll error that retrying
	// will not cure (a namespace deleted after the start, a request the
	// server refuses as invalid, an unsupported client version) after
	// polls have failed with it for two minutes; then the worker stops,
	// and Run returns that error. It runs on a goroutine of its own and
	// may call Stop. A namespace that does not exist when the worker
	// starts fails Start instead.
	OnFatalError func(error)
	// WorkerStopTimeout is how long Stop lets running tasks finish before
	// canceling the activities still running (0 by default, as in
	// go.temporal.io/sdk). Stop then returns without waiting for activity
	// code that ignores its canceled context: it logs the activities
	// still running, and the server retries each after its timeout
	// unless the code returns in time for its result to be reported.
	// Stop returns at most workerrt.StopMargin (0.5 s) after the timeout.
	WorkerStopTimeout time.Duration
	// DisableWorkflowWorker polls only activity tasks.
	DisableWorkflowWorker bool
	// DeploymentOptions opt the worker into Worker Deployment Versioning
	// (see WorkerDeploymentOptions, worker_deployment.go).
	DeploymentOptions WorkerDeploymentOptions
	// PreferredVersionProvider chooses the version a GetVersion call
	// records the first time a run reaches it (see
	// PreferredVersionProvider); nil: its maxSupported.
	PreferredVersionProvider PreferredVersionProvider
	// BuildID is the worker's build ID, which its task completions record
	// (deprecated: DeploymentOptions.Version replaces it). Default: the
	// binary checksum.
	BuildID string
	// UseBuildIDForVersioning opts the worker into build-ID versioning
	// (deprecated: DeploymentOptions.UseVersioning).
	UseBuildIDForVersioning bool
	// Identity names the worker to the server (pid@host@ by default).
	Identity string
	// DeadlockDetectionTimeout is how long workflow code may run without
	// yielding (1s); negative disables detection.
	DeadlockDetectionTimeout time.Duration
	// Interceptors wrap the worker's workflows and activities, the first
	// outermost. The client's interceptors that are also WorkerInterceptors
	// come before them.
	Interceptors []WorkerInterceptor
	// EnableSessionWorker lets the worker run sessions (workflow.CreateSession):
	// it also polls the task queue's session creation queue and a task
	// queue of its own, where its sessions' activities go.
	EnableSessionWorker bool
	// MaxConcurrentSessionExecutionSize bounds the sessions the worker
	// runs at once (1000); with that many open it takes no new one.
	MaxConcurrentSessionExecutionSize int
	// DisablePayloadErrorLimit sends what the worker's tasks produce
	// whatever its size. By default a payload or memo larger than its
	// namespace's limit (which the server reports; 2 MiB unless
	// configured) fails the task instead of reaching the server, which
	// would refuse it and terminate the workflow: the workflow task fails
	// with cause PAYLOADS_TOO_LARGE and is retried, an activity attempt
	// fails, a query answers with an error. (Experimental.)
	DisablePayloadErrorLimit bool
	// Plugins configure the worker and wrap its start and stop, in order
	// (see WorkerPlugin), after the client's plugins that are also worker
	// plugins.
	Plugins []WorkerPlugin
	// Tuner decides how many tasks of each kind run at once (see
	// NewFixedSizeTuner, NewResourceBasedTuner, NewCompositeTuner). Not
	// with the MaxConcurrent...ExecutionSize options, which size the
	// default, fixed-size tuner.
	Tuner tuning.WorkerTuner
	// SysInfoProvider measures the host's CPU and memory use for the
	// worker's heartbeats to the server (contrib/sysinfo.SysInfoProvider,
	// or your own). Unset, a tuner whose workflow task slot supplier
	// measures them (a resource-based tuner) lends its provider; with
	// neither, heartbeats report 0. A provider other than the tuner's
	// panics in worker.New: the two would measure differently.
	SysInfoProvider tuning.SysInfoProvider
	// WorkflowTaskPollerBehavior and ActivityTaskPollerBehavior say how
	// many long polls the worker keeps open (NewPollerBehaviorAutoscaling,
	// NewPollerBehaviorSimpleMaximum); each instead of the
	// MaxConcurrent...TaskPollers option of its kind.
	WorkflowTaskPollerBehavior tuning.PollerBehavior
	ActivityTaskPollerBehavior tuning.PollerBehavior
	// MaxConcurrentNexusTaskExecutionSize bounds the Nexus tasks running
	// at once (workerrt.DefaultMaxConcurrentTasks); not with Tuner.
	MaxConcurrentNexusTaskExecutionSize int
	// MaxConcurrentNexusTaskPollers are the long polls of Nexus tasks
	// kept open (2); NexusTaskPollerBehavior instead says how many
	// (NewPollerBehaviorAutoscaling, NewPollerBehaviorSimpleMaximum). The
	// worker polls Nexus tasks only when a Nexus service is registered
	// (RegisterNexusService).
	MaxConcurrentNexusTaskPollers int
	NexusTaskPollerBehavior       tuning.PollerBehavior
	// DisableEagerActivities stops workflow tasks from asking the server
	// to hand the activities they schedule on this worker's task queue
	// straight back to the worker, in free activity slots, rather than
	// through a poll. Eager activities are also off with
	// TaskQueueActivitiesPerSecond, which the server does not apply to
	// them, and an activity's options can turn them off
	// (ActivityOptions.DisableEagerExecution). The server must allow them
	// (dynamic config system.enableActivityEagerExecution).
	DisableEagerActivities bool
	// MaxEagerActivityReservationsPerWorkflowTask bounds the eager
	// activities one workflow task asks for (nil: 3; must be positive).
	MaxEagerActivityReservationsPerWorkflowTask *int
	// MaxConcurrentEagerActivityExecutionSize bounds the eager activities
	// running at once (0: only the activity slots bound them).
	MaxConcurrentEagerActivityExecutionSize int
}

// ErrWorkerShutdown is the cause (context.Cause) of the cancellation of
// the activities still running when a stopping worker's WorkerStopTimeout
// ends.
var ErrWorkerShutdown = workerrt.ErrWorkerShutdown

// ErrActivityPaused and ErrActivityReset are the causes of an activity's
// context canceled because the activity was paused or reset on the server
// (see activity.RecordHeartbeat).
var (
	ErrActivityPaused = workerrt.ErrActivityPaused
	ErrActivityReset  = workerrt.ErrActivityReset
)

// DynamicRegisterWorkflowOptions configure the registration of a dynamic
// workflow (workflow.DynamicRegisterOptions).
type DynamicRegisterWorkflowOptions struct {
	// LoadDynamicRuntimeOptions picks the options of each workflow type the
	// dynamic workflow runs: today only a worker-deployment versioning
	// behavior, which a worker that is versioned, or names a deployment
	// version, asks for as each task of such a type completes (an error
	// leaves the worker's default behavior).
	LoadDynamicRuntimeOptions func(details LoadDynamicRuntimeOptionsDetails) (DynamicRuntimeWorkflowOptions, error)
}

// DynamicRegisterActivityOptions configure the registration of a dynamic
// activity (activity.DynamicRegisterOptions); there are none yet, as in
// go.temporal.io/sdk.
type DynamicRegisterActivityOptions struct{}

// RegisterWorkflowOptions configure a workflow registration
// (workflow.RegisterOptions).
type RegisterWorkflowOptions struct {
	// Name is the workflow type; the function's name by default.
	Name string
	// DisableAlreadyRegisteredCheck allows replacing a registration.
	DisableAlreadyRegisteredCheck bool
	// VersioningBehavior is the type's behavior on a versioned worker
	// (see VersioningBehavior); unspecified: the worker's
	// DeploymentOptions.DefaultVersioningBehavior.
	VersioningBehavior VersioningBehavior
}

// RegisterActivityOptions configure an activity registration
// (activity.RegisterOptions).
type RegisterActivityOptions struct {
	// Name is the activity type (for a struct: the prefix of its methods).
	Name string
	// DisableAlreadyRegisteredCheck allows replacing a registration.
	DisableAlreadyRegisteredCheck bool
	// SkipInvalidStructFunctions skips struct methods that cannot be
	// activities instead of failing.
	SkipInvalidStructFunctions bool
}

// SDKName and SDKVersion identify this SDK in workflow task completions,
// as its clients identify it in their headers.
const (
	SDKName    = rpc.DefaultClientName
	SDKVersion = rpc.DefaultClientVersion
)
