package internal

import (
	"context"
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
)

// DescribeTaskQueueEnhanced: a task queue's pollers, backlog and rates by
// build ID and task type. The worker-deployment parts of the official
// description (TaskQueueDescription.VersioningInfo and
// TaskQueuePollerInfo.WorkerDeploymentPollerOptions) are out of this
// SDK's scope and absent.

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
		WorkerVersionCapabilities *WorkerVersionCapabilities
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
		VersionsInfo map[string]TaskQueueVersionInfo
	}
)

// DescribeTaskQueueEnhanced implements Client.
func (c *workflowClient) DescribeTaskQueueEnhanced(ctx context.Context, options DescribeTaskQueueEnhancedOptions) (TaskQueueDescription, error) {
	if options.TaskQueue == "" {
		return TaskQueueDescription{}, errors.New("DescribeTaskQueueEnhanced: DescribeTaskQueueEnhancedOptions.TaskQueue is empty: name the task queue to describe")
	}
	types := make([]enumspb.TaskQueueType, len(options.TaskQueueTypes))
	for i, t := range options.TaskQueueTypes {
		types[i] = enumspb.TaskQueueType(t)
	}
	request := &workflowservice.DescribeTaskQueueRequest{
		Namespace: c.namespace,
		TaskQueue: &taskqueuepb.TaskQueue{Name: options.TaskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
		// The enhanced mode is deprecated on the server, but it is what
		// this method of the official SDK asks for.
		//lint:ignore SA1019 see above.
		ApiMode: enumspb.DESCRIBE_TASK_QUEUE_MODE_ENHANCED,
		//lint:ignore SA1019 enhanced mode.
		TaskQueueTypes: types,
		//lint:ignore SA1019 enhanced mode.
		ReportPollers: options.ReportPollers,
		//lint:ignore SA1019 enhanced mode.
		ReportTaskReachability: options.ReportTaskReachability,
		ReportStats:            options.ReportStats,
	}
	if v := options.Versions; v != nil {
		//lint:ignore SA1019 enhanced mode.
		request.Versions = &taskqueuepb.TaskQueueVersionSelection{BuildIds: v.BuildIDs, Unversioned: v.Unversioned, AllActive: v.AllActive}
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return TaskQueueDescription{}, err
	}
	resp, err := c.service.DescribeTaskQueue(ctx, request)
	if err != nil {
		return TaskQueueDescription{}, wrapCallError(err, "describing task queue %q", options.TaskQueue)
	}
	//lint:ignore SA1019 enhanced mode.
	versions := resp.GetVersionsInfo()
	//lint:ignore SA1019 a server without the enhanced mode answers in the old form.
	if len(versions) == 0 && (len(resp.GetPollers()) > 0 || resp.GetTaskQueueStatus() != nil) {
		return TaskQueueDescription{}, errors.New("DescribeTaskQueueEnhanced: the server does not support it (it needs Temporal server 1.24 or later)")
	}
	d := TaskQueueDescription{VersionsInfo: make(map[string]TaskQueueVersionInfo, len(versions))}
	for buildID, v := range versions {
		d.VersionsInfo[buildID] = taskQueueVersionInfoFromProto(v)
	}
	return d, nil
}

func taskQueueVersionInfoFromProto(v *taskqueuepb.TaskQueueVersionInfo) TaskQueueVersionInfo {
	info := TaskQueueVersionInfo{
		TypesInfo:        make(map[TaskQueueType]TaskQueueTypeInfo, len(v.GetTypesInfo())),
		TaskReachability: BuildIDTaskReachability(v.GetTaskReachability()),
	}
	for t, typeInfo := range v.GetTypesInfo() {
		pollers := make([]TaskQueuePollerInfo, len(typeInfo.GetPollers()))
		for i, p := range typeInfo.GetPollers() {
			pollers[i] = TaskQueuePollerInfo{
				LastAccessTime: optionalTime(p.GetLastAccessTime()),
				Identity:       p.GetIdentity(),
				RatePerSecond:  p.GetRatePerSecond(),
			}
			//lint:ignore SA1019 build-ID capabilities are what the official description reports.
			if caps := p.GetWorkerVersionCapabilities(); caps != nil {
				pollers[i].WorkerVersionCapabilities = &WorkerVersionCapabilities{
					BuildID:              caps.GetBuildId(),
					UseVersioning:        caps.GetUseVersioning(),
					DeploymentSeriesName: caps.GetDeploymentSeriesName(),
				}
			}
		}
		typeDescription := TaskQueueTypeInfo{Pollers: pollers}
		if s := typeInfo.GetStats(); s != nil {
			typeDescription.Stats = &TaskQueueStats{
				ApproximateBacklogCount: s.GetApproximateBacklogCount(),
				ApproximateBacklogAge:   s.GetApproximateBacklogAge().AsDuration(),
				TasksAddRate:            s.GetTasksAddRate(),
				TasksDispatchRate:       s.GetTasksDispatchRate(),
				BacklogIncreaseRate:     s.GetTasksAddRate() - s.GetTasksDispatchRate(),
			}
		}
		info.TypesInfo[TaskQueueType(t)] = typeDescription
	}
	return info
}
