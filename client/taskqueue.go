package client

import "github.com/durable-go/sdk/internal"

// The task queue types of DescribeTaskQueueEnhancedOptions and
// TaskQueueVersionInfo.
const (
	TaskQueueTypeUnspecified = internal.TaskQueueTypeUnspecified
	TaskQueueTypeWorkflow    = internal.TaskQueueTypeWorkflow
	TaskQueueTypeActivity    = internal.TaskQueueTypeActivity
	TaskQueueTypeNexus       = internal.TaskQueueTypeNexus
)

// The reachabilities of a build ID in TaskQueueVersionInfo.
const (
	BuildIDTaskReachabilityUnspecified         = internal.BuildIDTaskReachabilityUnspecified
	BuildIDTaskReachabilityReachable           = internal.BuildIDTaskReachabilityReachable
	BuildIDTaskReachabilityClosedWorkflowsOnly = internal.BuildIDTaskReachabilityClosedWorkflowsOnly
	BuildIDTaskReachabilityUnreachable         = internal.BuildIDTaskReachabilityUnreachable
)

type (
	// TaskQueueType is the kind of tasks a task queue carries.
	TaskQueueType = internal.TaskQueueType

	// BuildIDTaskReachability says whether tasks may still reach a build
	// ID.
	BuildIDTaskReachability = internal.BuildIDTaskReachability

	// DescribeTaskQueueEnhancedOptions are the arguments of
	// Client.DescribeTaskQueueEnhanced.
	DescribeTaskQueueEnhancedOptions = internal.DescribeTaskQueueEnhancedOptions

	// TaskQueueVersionSelection chooses the build IDs to describe.
	TaskQueueVersionSelection = internal.TaskQueueVersionSelection

	// TaskQueueDescription is the answer of Client.DescribeTaskQueueEnhanced.
	TaskQueueDescription = internal.TaskQueueDescription

	// TaskQueueVersionInfo describes a task queue for one build ID.
	TaskQueueVersionInfo = internal.TaskQueueVersionInfo

	// TaskQueueTypeInfo describes one type of a task queue.
	TaskQueueTypeInfo = internal.TaskQueueTypeInfo

	// TaskQueuePollerInfo is a worker that polled a task queue recently.
	TaskQueuePollerInfo = internal.TaskQueuePollerInfo

	// TaskQueueStats are a task queue's backlog and rates.
	TaskQueueStats = internal.TaskQueueStats

	// WorkerVersionCapabilities are the build-ID settings a poller
	// announced.
	WorkerVersionCapabilities = internal.WorkerVersionCapabilities
)
