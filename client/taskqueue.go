package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// TaskQueueType is the kind of tasks a task queue carries: workflow,
// activity or Nexus tasks (the TaskQueueType constants).
type TaskQueueType = clientapi.TaskQueueType

// The task queue types of DescribeTaskQueueEnhancedOptions and
// TaskQueueVersionInfo.
const (
	// TaskQueueTypeUnspecified is the zero TaskQueueType.
	TaskQueueTypeUnspecified = clientapi.TaskQueueTypeUnspecified
	// TaskQueueTypeWorkflow carries workflow tasks.
	TaskQueueTypeWorkflow = clientapi.TaskQueueTypeWorkflow
	// TaskQueueTypeActivity carries activity tasks.
	TaskQueueTypeActivity = clientapi.TaskQueueTypeActivity
	// TaskQueueTypeNexus carries Nexus tasks.
	TaskQueueTypeNexus = clientapi.TaskQueueTypeNexus
)

// BuildIDTaskReachability says whether tasks may still reach a build ID
// (the BuildIDTaskReachability constants).
type BuildIDTaskReachability = clientapi.BuildIDTaskReachability

// The reachabilities of a build ID in TaskQueueVersionInfo.
const (
	// BuildIDTaskReachabilityUnspecified: not reported, or unknown.
	BuildIDTaskReachabilityUnspecified = clientapi.BuildIDTaskReachabilityUnspecified
	// BuildIDTaskReachabilityReachable: new or open workflows, or
	// backlogged activities, may send it tasks.
	BuildIDTaskReachabilityReachable = clientapi.BuildIDTaskReachabilityReachable
	// BuildIDTaskReachabilityClosedWorkflowsOnly: only queries of closed
	// workflows may reach it.
	BuildIDTaskReachabilityClosedWorkflowsOnly = clientapi.BuildIDTaskReachabilityClosedWorkflowsOnly
	// BuildIDTaskReachabilityUnreachable: no task will reach it; its
	// workers may be retired.
	BuildIDTaskReachabilityUnreachable = clientapi.BuildIDTaskReachabilityUnreachable
)

// DescribeTaskQueueEnhancedOptions are the arguments of
// Client.DescribeTaskQueueEnhanced.
//
//   - TaskQueue: the task queue's name. Required.
//   - Versions: the build IDs to describe. Default (nil): unversioned
//     workers only.
//   - TaskQueueTypes: the types to describe. Default: workflow and
//     activity.
//   - ReportPollers: include the pollers seen recently.
//   - ReportTaskReachability: include each build ID's reachability.
//   - ReportStats: include backlog and rates.
type DescribeTaskQueueEnhancedOptions = clientapi.DescribeTaskQueueEnhancedOptions

// TaskQueueVersionSelection chooses the build IDs to describe: BuildIDs
// lists them, Unversioned adds the workers without one, AllActive adds
// every build ID with pollers or backlog.
type TaskQueueVersionSelection = clientapi.TaskQueueVersionSelection

// TaskQueueDescription is the answer of Client.DescribeTaskQueueEnhanced:
// VersionsInfo maps each build ID ("" for unversioned workers) to its
// TaskQueueVersionInfo (build-ID versioning); VersioningInfo says which
// worker deployment versions take the task queue's tasks, nil when
// unversioned workers do (and on server 1.32, which
// reports it only in the plain description of Client.DescribeTaskQueue).
type TaskQueueDescription = clientapi.TaskQueueDescription

// TaskQueueVersionInfo describes a task queue for one build ID: TypesInfo
// by task queue type, and TaskReachability, if asked for.
type TaskQueueVersionInfo = clientapi.TaskQueueVersionInfo

// TaskQueueTypeInfo describes one type of a task queue: its Pollers and
// Stats, each if asked for.
type TaskQueueTypeInfo = clientapi.TaskQueueTypeInfo

// TaskQueuePollerInfo is a worker that polled a task queue recently.
//
//   - LastAccessTime: when it last polled.
//   - Identity: the worker's identity.
//   - RatePerSecond: the rate limit it asked for.
//   - WorkerVersionCapabilities: its build-ID settings, if any
//     (build-ID versioning, which worker deployments replace).
//   - WorkerDeploymentPollerOptions: its worker deployment settings, if
//     any: DeploymentName, BuildID and WorkerVersioningMode.
type TaskQueuePollerInfo = clientapi.TaskQueuePollerInfo

// TaskQueueStats are a task queue's backlog and rates.
//
//   - ApproximateBacklogCount: the tasks waiting.
//   - ApproximateBacklogAge: the age of the oldest waiting task.
//   - TasksAddRate, TasksDispatchRate: tasks per second added and handed
//     to workers, over the last 30 seconds or so.
//   - BacklogIncreaseRate: TasksAddRate less TasksDispatchRate.
type TaskQueueStats = clientapi.TaskQueueStats

// TaskQueueVersioningInfo says which worker deployment versions take a
// task queue's tasks (TaskQueueDescription.VersioningInfo).
//
//   - CurrentVersion: takes new workflows and the tasks of unversioned
//     and auto-upgrade ones; nil means the unversioned workers.
//   - RampingVersion: takes RampingVersionPercentage (0 to 100) of what
//     the current version would; nil means the unversioned workers.
//   - UpdateTime: when this routing last changed.
type TaskQueueVersioningInfo = clientapi.TaskQueueVersioningInfo

// WorkerVersionCapabilities are the build-ID settings a poller announced:
// its BuildID, whether it UseVersioning, and its DeploymentSeriesName.
type WorkerVersionCapabilities = clientapi.WorkerVersionCapabilities
