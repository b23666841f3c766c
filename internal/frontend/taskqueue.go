//lint:file-ignore SA1019 the enhanced mode of DescribeTaskQueue and its task queue status are deprecated, and what clients (Client.DescribeTaskQueueEnhanced, older SDKs) ask for.

package frontend

import (
	"context"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/internal/testserver"
)

// DescribeTaskQueue describes a task queue as far as the in-memory server
// knows it: the workers that polled it in the last five minutes (their
// identity and last poll) and, when asked, its backlog (the tasks waiting
// for a worker, and how long the oldest has waited). It has no rate
// limits, partitions or worker versioning: rates are zero and the only
// version is the unversioned one (""). Both modes are served: the
// default (one task queue type) and the enhanced one
// (Client.DescribeTaskQueueEnhanced).
func (f *Frontend) DescribeTaskQueue(_ context.Context, req *workflowservice.DescribeTaskQueueRequest) (*workflowservice.DescribeTaskQueueResponse, error) {
	s, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	name := req.GetTaskQueue().GetName()
	if name == "" {
		return nil, serviceerror.NewInvalidArgument("TaskQueue is not set on request.")
	}
	if req.GetApiMode() == enumspb.DESCRIBE_TASK_QUEUE_MODE_ENHANCED {
		return describeTaskQueueEnhanced(s, req)
	}
	taskType := req.GetTaskQueueType()
	if taskType == enumspb.TASK_QUEUE_TYPE_UNSPECIFIED {
		taskType = enumspb.TASK_QUEUE_TYPE_WORKFLOW
	}
	resp := &workflowservice.DescribeTaskQueueResponse{Pollers: s.Pollers(name, taskType)}
	if req.GetReportStats() {
		resp.Stats = taskQueueStats(s, name, taskType)
	}
	if req.GetReportConfig() {
		resp.Config = &taskqueuepb.TaskQueueConfig{}
	}
	if req.GetIncludeTaskQueueStatus() {
		count, _ := s.Backlog(name, taskType)
		resp.TaskQueueStatus = &taskqueuepb.TaskQueueStatus{BacklogCountHint: count, RatePerSecond: defaultTaskQueueRate, TaskIdBlock: &taskqueuepb.TaskIdBlock{}}
	}
	return resp, nil
}

// defaultTaskQueueRate is the dispatch rate a server reports for a task
// queue that sets none.
const defaultTaskQueueRate = 100000

func describeTaskQueueEnhanced(s *testserver.Server, req *workflowservice.DescribeTaskQueueRequest) (*workflowservice.DescribeTaskQueueResponse, error) {
	if req.GetTaskQueue().GetKind() == enumspb.TASK_QUEUE_KIND_STICKY {
		return nil, serviceerror.NewInvalidArgument("Enhanced DescribeTaskQueue is not valid for a sticky queue, use api_mode=UNSPECIFIED or a normal queue.")
	}
	name := req.GetTaskQueue().GetName()
	types := req.GetTaskQueueTypes()
	if len(types) == 0 {
		types = []enumspb.TaskQueueType{enumspb.TASK_QUEUE_TYPE_WORKFLOW, enumspb.TASK_QUEUE_TYPE_ACTIVITY}
	}
	// Only the unversioned queue has tasks and pollers here; build IDs
	// asked for are described empty.
	buildIDs := []string{""}
	if v := req.GetVersions(); v != nil {
		buildIDs = v.GetBuildIds()
		if v.GetUnversioned() || v.GetAllActive() {
			buildIDs = append([]string{""}, buildIDs...)
		}
	}
	versions := make(map[string]*taskqueuepb.TaskQueueVersionInfo, len(buildIDs))
	for _, buildID := range buildIDs {
		typesInfo := make(map[int32]*taskqueuepb.TaskQueueTypeInfo, len(types))
		for _, t := range types {
			info := &taskqueuepb.TaskQueueTypeInfo{}
			if buildID == "" && req.GetReportPollers() {
				info.Pollers = s.Pollers(name, t)
			}
			if req.GetReportStats() {
				info.Stats = &taskqueuepb.TaskQueueStats{ApproximateBacklogAge: durationpb.New(0)}
				if buildID == "" {
					info.Stats = taskQueueStats(s, name, t)
				}
			}
			typesInfo[int32(t)] = info
		}
		versions[buildID] = &taskqueuepb.TaskQueueVersionInfo{TypesInfo: typesInfo}
	}
	return &workflowservice.DescribeTaskQueueResponse{VersionsInfo: versions}, nil
}

// taskQueueStats is a queue's backlog, as a server reports it.
func taskQueueStats(s *testserver.Server, name string, taskType enumspb.TaskQueueType) *taskqueuepb.TaskQueueStats {
	count, oldest := s.Backlog(name, taskType)
	stats := &taskqueuepb.TaskQueueStats{ApproximateBacklogCount: count, ApproximateBacklogAge: durationpb.New(0)}
	if count > 0 {
		stats.ApproximateBacklogAge = durationpb.New(max(s.Now().Sub(oldest), 0))
	}
	return stats
}
