package clientimpl

import (
	"context"
	"errors"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/clientapi"
)

// DescribeTaskQueueEnhanced implements Client.
func (c *workflowClient) DescribeTaskQueueEnhanced(ctx context.Context, options clientapi.DescribeTaskQueueEnhancedOptions) (clientapi.TaskQueueDescription, error) {
	if options.TaskQueue == "" {
		return clientapi.TaskQueueDescription{}, errors.New("DescribeTaskQueueEnhanced: DescribeTaskQueueEnhancedOptions.TaskQueue is empty: name the task queue to describe")
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
		return clientapi.TaskQueueDescription{}, err
	}
	resp, err := c.service.DescribeTaskQueue(ctx, request)
	if err != nil {
		return clientapi.TaskQueueDescription{}, wrapCallError(err, "describing task queue %q", options.TaskQueue)
	}
	//lint:ignore SA1019 enhanced mode.
	versions := resp.GetVersionsInfo()
	//lint:ignore SA1019 a server without the enhanced mode answers in the old form.
	if len(versions) == 0 && (len(resp.GetPollers()) > 0 || resp.GetTaskQueueStatus() != nil) {
		return clientapi.TaskQueueDescription{}, errors.New("DescribeTaskQueueEnhanced: the server does not support it (it needs Temporal server 1.24 or later)")
	}
	d := clientapi.TaskQueueDescription{
		VersionsInfo:   make(map[string]clientapi.TaskQueueVersionInfo, len(versions)),
		VersioningInfo: taskQueueVersioningInfoFromProto(resp.GetVersioningInfo()),
	}
	for buildID, v := range versions {
		d.VersionsInfo[buildID] = taskQueueVersionInfoFromProto(v)
	}
	return d, nil
}

func taskQueueVersionInfoFromProto(v *taskqueuepb.TaskQueueVersionInfo) clientapi.TaskQueueVersionInfo {
	info := clientapi.TaskQueueVersionInfo{
		TypesInfo:        make(map[clientapi.TaskQueueType]clientapi.TaskQueueTypeInfo, len(v.GetTypesInfo())),
		TaskReachability: clientapi.BuildIDTaskReachability(v.GetTaskReachability()),
	}
	for t, typeInfo := range v.GetTypesInfo() {
		pollers := make([]clientapi.TaskQueuePollerInfo, len(typeInfo.GetPollers()))
		for i, p := range typeInfo.GetPollers() {
			pollers[i] = clientapi.TaskQueuePollerInfo{
				LastAccessTime: optionalTime(p.GetLastAccessTime()),
				Identity:       p.GetIdentity(),
				RatePerSecond:  p.GetRatePerSecond(),

				WorkerDeploymentPollerOptions: pollerDeploymentOptionsFromProto(p.GetDeploymentOptions()),
			}
			//lint:ignore SA1019 build-ID capabilities are what the official description reports.
			if caps := p.GetWorkerVersionCapabilities(); caps != nil {
				pollers[i].WorkerVersionCapabilities = &clientapi.WorkerVersionCapabilities{
					BuildID:              caps.GetBuildId(),
					UseVersioning:        caps.GetUseVersioning(),
					DeploymentSeriesName: caps.GetDeploymentSeriesName(),
				}
			}
		}
		typeDescription := clientapi.TaskQueueTypeInfo{Pollers: pollers}
		if s := typeInfo.GetStats(); s != nil {
			typeDescription.Stats = &clientapi.TaskQueueStats{
				ApproximateBacklogCount: s.GetApproximateBacklogCount(),
				ApproximateBacklogAge:   s.GetApproximateBacklogAge().AsDuration(),
				TasksAddRate:            s.GetTasksAddRate(),
				TasksDispatchRate:       s.GetTasksDispatchRate(),
				BacklogIncreaseRate:     s.GetTasksAddRate() - s.GetTasksDispatchRate(),
			}
		}
		info.TypesInfo[clientapi.TaskQueueType(t)] = typeDescription
	}
	return info
}
