package compat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	officialactivity "go.temporal.io/sdk/activity"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	ouractivity "github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	ourtemporal "github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// What a local activity's code learns of itself (activity.GetInfo) is the
// same on both SDKs' workers.

// LocalInfo describes the local activity's activity.Info, but for what
// differs from run to run (IDs and times are compared with the workflow's
// and with each other).
func LocalInfo(ctx context.Context, workflowID, taskQueue string) (string, error) {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	describe := func(taskToken []byte, workflowType, workflowID2, activityID, activityRunID, activityType, taskQueue2, namespace string,
		heartbeat, scheduleToClose, startToClose time.Duration, scheduled, started, deadline time.Time, attempt int32, local bool, retry string) {
		add("task token %d bytes", len(taskToken))
		add("workflow type %q, its workflow's ID: %v", workflowType, workflowID2 == workflowID)
		add("activity ID %q, run ID %q, type %q", activityID, activityRunID, activityType)
		add("task queue is the workflow's: %v; namespace %q", taskQueue2 == taskQueue, namespace)
		add("timeouts: heartbeat %v, schedule-to-close %v, start-to-close %v", heartbeat, scheduleToClose, startToClose)
		add("scheduled <= started: %v; deadline - started about start-to-close: %v", !scheduled.After(started),
			deadline.Sub(started).Round(time.Second) == startToClose)
		add("attempt %d, local %v, retry policy %s", attempt, local, retry)
	}
	if ouractivity.IsActivity(ctx) {
		i := ouractivity.GetInfo(ctx)
		describe(i.TaskToken, i.WorkflowType.Name, i.WorkflowExecution.ID, i.ActivityID, i.ActivityRunID, i.ActivityType.Name,
			i.TaskQueue, i.Namespace, i.HeartbeatTimeout, i.ScheduleToCloseTimeout, i.StartToCloseTimeout, i.ScheduledTime, i.StartedTime, i.Deadline,
			i.Attempt, i.IsLocalActivity, fmt.Sprintf("%+v", *i.RetryPolicy))
	} else {
		i := officialactivity.GetInfo(ctx)
		describe(i.TaskToken, i.WorkflowType.Name, i.WorkflowExecution.ID, i.ActivityID, i.ActivityRunID, i.ActivityType.Name,
			i.TaskQueue, i.Namespace, i.HeartbeatTimeout, i.ScheduleToCloseTimeout, i.StartToCloseTimeout, i.ScheduledTime, i.StartedTime, i.Deadline,
			i.Attempt, i.IsLocalActivity, fmt.Sprintf("%+v", *i.RetryPolicy))
	}
	return strings.Join(lines, "\n"), nil
}

const localInfoName = "LocalActivityInfoWorkflow"

func localInfoOurs(ctx workflow.Context) (string, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 5 * time.Second, ScheduleToCloseTimeout: time.Minute,
		RetryPolicy: &ourtemporal.RetryPolicy{MaximumAttempts: 3}})
	info := workflow.GetInfo(ctx)
	var s string
	err := workflow.ExecuteLocalActivity(ctx, LocalInfo, info.WorkflowExecution.ID, info.TaskQueueName).Get(ctx, &s)
	return s, err
}

func localInfoOfficial(ctx officialworkflow.Context) (string, error) {
	ctx = officialworkflow.WithLocalActivityOptions(ctx, officialworkflow.LocalActivityOptions{StartToCloseTimeout: 5 * time.Second, ScheduleToCloseTimeout: time.Minute,
		RetryPolicy: &officialtemporal.RetryPolicy{MaximumAttempts: 3}})
	info := officialworkflow.GetInfo(ctx)
	var s string
	err := officialworkflow.ExecuteLocalActivity(ctx, LocalInfo, info.WorkflowExecution.ID, info.TaskQueueName).Get(ctx, &s)
	return s, err
}

func TestLocalActivityInfoIsTheSameOnBothSDKs(t *testing.T) {
	c, oc := dialBoth(t)
	stamp := time.Now().UnixNano()
	officialTQ, oursTQ := fmt.Sprintf("la-info-official-%d", stamp), fmt.Sprintf("la-info-ours-%d", stamp)
	ow := officialworker.New(oc, officialTQ, officialworker.Options{})
	ow.RegisterWorkflowWithOptions(localInfoOfficial, officialworkflow.RegisterOptions{Name: localInfoName})
	w := worker.New(c, oursTQ, worker.Options{})
	w.RegisterWorkflowWithOptions(localInfoOurs, workflow.RegisterOptions{Name: localInfoName})
	startBoth(t, w, ow)
	describe := func(tq string) string {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq}, localInfoName)
		if err != nil {
			t.Fatal(err)
		}
		var s string
		if err := run.Get(ctx, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	official, ours := describe(officialTQ), describe(oursTQ)
	t.Logf("a local activity's info, as it describes it:\n%s", ours)
	if ours != official {
		t.Errorf("a local activity's info here:\n%s\non the official SDK:\n%s", ours, official)
	}
}
