package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// Build-ID versioning by version sets (Client.UpdateWorkerBuildIdCompatibility,
// GetWorkerBuildIdCompatibility, GetWorkerTaskReachability): deprecated
// for Worker Deployment Versioning. Temporal servers serve it only where
// the dynamic config frontend.workerVersioningDataAPIs is on, and answer
// PermissionDenied elsewhere.

// UnversionedBuildID is the build ID that stands for the workers without
// one, in GetWorkerTaskReachabilityOptions.BuildIDs and in the answer.
const UnversionedBuildID string = clientapi.UnversionedBuildID

// TaskReachability is a kind of task that may still reach a build ID: the
// filter of GetWorkerTaskReachabilityOptions, and what
// TaskQueueReachability reports (the TaskReachability constants).
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type TaskReachability = clientapi.TaskReachability

// The task reachabilities of GetWorkerTaskReachability.
const (
	// TaskReachabilityUnspecified: no filter. In an answer, the server
	// did not look at the task queue.
	TaskReachabilityUnspecified = clientapi.TaskReachabilityUnspecified
	// TaskReachabilityNewWorkflows: new workflows may start on the build ID.
	TaskReachabilityNewWorkflows = clientapi.TaskReachabilityNewWorkflows
	// TaskReachabilityExistingWorkflows: open or closed workflows ran on it.
	TaskReachabilityExistingWorkflows = clientapi.TaskReachabilityExistingWorkflows
	// TaskReachabilityOpenWorkflows: open workflows run on it.
	TaskReachabilityOpenWorkflows = clientapi.TaskReachabilityOpenWorkflows
	// TaskReachabilityClosedWorkflows: closed workflows ran on it and may
	// still be queried.
	TaskReachabilityClosedWorkflows = clientapi.TaskReachabilityClosedWorkflows
)

// UpdateWorkerBuildIdCompatibilityOptions are the arguments of
// Client.UpdateWorkerBuildIdCompatibility.
//
//   - TaskQueue: the task queue whose version sets change. Required.
//   - Operation: a *BuildIDOpAddNewIDInNewDefaultSet,
//     *BuildIDOpAddNewCompatibleVersion, *BuildIDOpPromoteSet or
//     *BuildIDOpPromoteIDWithinSet. Required.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type UpdateWorkerBuildIdCompatibilityOptions = clientapi.UpdateWorkerBuildIdCompatibilityOptions

// BuildIDOpAddNewIDInNewDefaultSet adds BuildID in a new set of its own
// and makes that set the default, where new workflows start.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type BuildIDOpAddNewIDInNewDefaultSet = clientapi.BuildIDOpAddNewIDInNewDefaultSet

// BuildIDOpAddNewCompatibleVersion adds BuildID to the set that holds
// ExistingCompatibleBuildID, as that set's default; with MakeSetDefault
// the set also becomes the task queue's default.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type BuildIDOpAddNewCompatibleVersion = clientapi.BuildIDOpAddNewCompatibleVersion

// BuildIDOpPromoteSet makes the set that holds BuildID the default set.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type BuildIDOpPromoteSet = clientapi.BuildIDOpPromoteSet

// BuildIDOpPromoteIDWithinSet makes BuildID the default of its set.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type BuildIDOpPromoteIDWithinSet = clientapi.BuildIDOpPromoteIDWithinSet

// GetWorkerBuildIdCompatibilityOptions are the arguments of
// Client.GetWorkerBuildIdCompatibility.
//
//   - TaskQueue: the task queue whose version sets to read. Required.
//   - MaxSets: at most this many sets, the newest; 0 means all.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type GetWorkerBuildIdCompatibilityOptions = clientapi.GetWorkerBuildIdCompatibilityOptions

// WorkerBuildIDVersionSets are the version sets of a task queue, the
// answer of Client.GetWorkerBuildIdCompatibility: Sets, the oldest first,
// each listing its build IDs with its own default last. Default returns
// the build ID new workflows start on.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type WorkerBuildIDVersionSets = clientapi.WorkerBuildIDVersionSets

// GetWorkerTaskReachabilityOptions are the arguments of
// Client.GetWorkerTaskReachability.
//
//   - BuildIDs: the build IDs to report on, at least one;
//     UnversionedBuildID for workers without one (TaskQueues is then
//     required).
//   - TaskQueues: where to look. Default: every task queue the build IDs
//     are known on.
//   - Reachability: the kinds of task to report. Default: all.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type GetWorkerTaskReachabilityOptions = clientapi.GetWorkerTaskReachabilityOptions

// WorkerTaskReachability is the answer of Client.GetWorkerTaskReachability:
// BuildIDReachability, by build ID.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type WorkerTaskReachability = clientapi.WorkerTaskReachability

// BuildIDReachability is the reachability of one build ID:
// TaskQueueReachable by task queue, and UnretrievedTaskQueues, those the
// server did not look at (over its limit of task queues per query).
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type BuildIDReachability = clientapi.BuildIDReachability

// TaskQueueReachability lists, in TaskQueueReachability, the kinds of task
// that may reach a build ID in one task queue; none means nothing will.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type TaskQueueReachability = clientapi.TaskQueueReachability
