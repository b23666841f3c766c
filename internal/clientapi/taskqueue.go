package clientapi

import (
	"time"
)

// DescribeTaskQueueEnhanced: a task queue's pollers, backlog and rates by
// build ID and task type, the worker deployment versions its tasks go to
// (TaskQueueDescription.VersioningInfo), and each poller's deployment
// (TaskQueuePollerInfo.WorkerDeploymentPollerOptions).

// TaskQueueType is the kind of tasks a task queue carries.
type TaskQueueType int

// The task queue types; the values are those of enumspb.TaskQueueType.
// Untyped, as in the official SDK.
const (
	TaskQueueTypeUnspecified = iota
	TaskQueueTypeWorkflow
	TaskQueueTypeActivity
	TaskQueueTypeNexus
)

// BuildIDTaskReachability says whether tasks may still reach a build ID.
type BuildIDTaskReachability int

// The reachabilities; the values are those of
// enumspb.BuildIdTaskReachability.
const (
	// BuildIDTaskReachabilityUnspecified: not reported.
	BuildIDTaskReachabilityUnspecified = iota
	// BuildIDTaskReachabilityReachable: new or open workflows, or
	// backlogged activities, may go to the build ID.
	BuildIDTaskReachabilityReachable
	// BuildIDTaskReachabilityClosedWorkflowsOnly: only queries of closed
	// workflows may.
	BuildIDTaskReachabilityClosedWorkflowsOnly
	// BuildIDTaskReachabilityUnreachable: nothing will.
	BuildIDTaskReachabilityUnreachable
)

type (
	// TaskQueueVersionSelection chooses the build IDs to describe.
	TaskQueueVersionSelection struct {
		// BuildIDs to describe.
		BuildIDs []string
		// Unversioned includes the workers that have no build ID.
		Unversioned bool
		// AllActive includes every build ID with pollers or backlog.
		AllActive bool
	}

	// DescribeTaskQueueEnhancedOptions are the arguments of
	// Client.DescribeTaskQueueEnhanced.
	DescribeTaskQueueEnhancedOptions struct {
		// TaskQueue is the task queue's name. Required.
		TaskQueue string
		// Versions chooses the build IDs; unversioned workers only when nil.
		Versions *TaskQueueVersionSelection
		// TaskQueueTypes to describe; workflow and activity when empty.
		TaskQueueTypes []TaskQueueType
		// ReportPollers includes the pollers seen recently.
		ReportPollers bool
		// ReportTaskReachability includes each build ID's reachability.
		ReportTaskReachability bool
		// ReportStats includes backlog and rates.
		ReportStats bool
	}

	// WorkerVersionCapabilities are the build-ID versioning settings a
	// poller announced.
	WorkerVersionCapabilities struct {
		BuildID              string
		UseVersioning        bool
		DeploymentSeriesName string
	}

	// TaskQueuePollerInfo is a worker that polled the task queue recently.
	TaskQueuePollerInfo struct {
		// LastAccessTime is when it last polled.
		LastAccessTime time.Time
		// Identity is the worker's identity.
		Identity string
		// RatePerSecond is the rate limit it asked for.
		RatePerSecond float64
		// WorkerVersionCapabilities are its build-ID settings, if any.
		// Build-ID versioning gives way to worker deployments: see
		// WorkerDeploymentPollerOptions.
		WorkerVersionCapabilities *WorkerVersionCapabilities
		// WorkerDeploymentPollerOptions are its worker deployment
		// settings, if it announced any.
		WorkerDeploymentPollerOptions *WorkerDeploymentPollerOptions
	}

	// WorkerDeploymentPollerOptions are the worker deployment settings a
	// poller announced: the version it belongs to and whether it is
	// versioned.
	WorkerDeploymentPollerOptions struct {
		// DeploymentName is its deployment's name.
		DeploymentName string
		// BuildID is its build ID.
		BuildID string
		// WorkerVersioningMode says whether it is versioned.
		WorkerVersioningMode WorkerVersioningMode
	}

	// TaskQueueVersioningInfo says which worker deployment versions take a
	// task queue's tasks.
	TaskQueueVersioningInfo struct {
		// CurrentVersion takes new workflows and the tasks of unversioned
		// and auto-upgrade ones; nil means the unversioned workers.
		CurrentVersion *WorkerDeploymentVersion
		// RampingVersion takes RampingVersionPercentage of what the
		// current version would take; nil means the unversioned workers
		// (when the percentage is not 0).
		RampingVersion *WorkerDeploymentVersion
		// RampingVersionPercentage, from 0 to 100.
		RampingVersionPercentage float32
		// UpdateTime is when this routing last changed.
		UpdateTime time.Time
	}

	// TaskQueueStats are a task queue's backlog and rates.
	TaskQueueStats struct {
		// ApproximateBacklogCount is the number of tasks waiting.
		ApproximateBacklogCount int64
		// ApproximateBacklogAge is the age of the oldest waiting task.
		ApproximateBacklogAge time.Duration
		// TasksAddRate and TasksDispatchRate are tasks per second added
		// and handed to workers, over the last 30 seconds or so.
		TasksAddRate      float32
		TasksDispatchRate float32
		// BacklogIncreaseRate is TasksAddRate less TasksDispatchRate.
		BacklogIncreaseRate float32
	}

	// TaskQueueTypeInfo describes one type of a task queue.
	TaskQueueTypeInfo struct {
		// Pollers, if reported.
		Pollers []TaskQueuePollerInfo
		// Stats, if reported.
		Stats *TaskQueueStats
	}

	// TaskQueueVersionInfo describes a task queue for one build ID.
	TaskQueueVersionInfo struct {
		// TypesInfo by task queue type.
		TypesInfo map[TaskQueueType]TaskQueueTypeInfo
		// TaskReachability, if reported.
		TaskReachability BuildIDTaskReachability
	}

	// TaskQueueDescription is the answer of
	// Client.DescribeTaskQueueEnhanced.
	TaskQueueDescription struct {
		// VersionsInfo by build ID; "" stands for unversioned workers.
		// Build-ID versioning gives way to worker deployments: see
		// VersioningInfo.
		VersionsInfo map[string]TaskQueueVersionInfo
		// VersioningInfo says which worker deployment versions take the
		// task queue's tasks; nil when they go to unversioned workers.
		// Server 1.32 leaves it out of the enhanced
		// description this method asks for (so it is nil there, as with
		// go.temporal.io/sdk); Client.DescribeTaskQueue's answer has it.
		VersioningInfo *TaskQueueVersioningInfo
	}
)
