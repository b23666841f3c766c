package frontend

import (
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
)

// maxNameLength is the longest task queue name a server takes (its
// limit.maxIDLength, 1000 by default).
const maxNameLength = 1000

// checkTaskQueue refuses a task queue a server refuses, with its
// messages: a missing or too long name, or a reserved one. A worker
// whose polls a server refuses so stops (worker.Options.OnFatalError).
func checkTaskQueue(tq *taskqueuepb.TaskQueue) error {
	if tq == nil || tq.GetName() == "" {
		return serviceerror.NewInvalidArgument("missing task queue name")
	}
	if err := checkTaskQueueName(tq.GetName(), true); err != nil {
		return err
	}
	if tq.GetKind() == enumspb.TASK_QUEUE_KIND_STICKY && tq.GetNormalName() != "" {
		return checkTaskQueueName(tq.GetNormalName(), false)
	}
	return nil
}

func checkTaskQueueName(name string, root bool) error {
	if len(name) > maxNameLength {
		return serviceerror.NewInvalidArgument("taskQueue length exceeds limit")
	}
	if root && strings.HasPrefix(name, "/_sys/") {
		return serviceerror.NewInvalidArgument("task queue name cannot start with reserved prefix /_sys/")
	}
	return nil
}
