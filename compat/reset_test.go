package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// TestResetRunDrawsAsTheOfficialSDK resets a RandomStreamsWorkflow run to
// its second workflow task and lets this SDK's worker finish the reset run.
// The reset run's history holds the base run's first draws and, after the
// reset point, draws seeded from the reset run's ID (its activity IDs say
// which): go.temporal.io/sdk's replayer must accept it, and so must ours.
func TestResetRunDrawsAsTheOfficialSDK(t *testing.T) {
	c, _ := dialBoth(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tq := fmt.Sprintf("reset-%d", time.Now().UnixNano())
	w := worker.New(c, tq, worker.Options{})
	registerOurs(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	id := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	base, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: tq}, "RandomStreamsWorkflow")
	if err != nil {
		t.Fatal(err)
	}
	if err := base.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	baseHistory := fullHistory(t, c, id)
	var completedTasks []int64
	for _, ev := range baseHistory.GetEvents() {
		if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
			completedTasks = append(completedTasks, ev.GetEventId())
		}
	}
	if len(completedTasks) < 2 {
		t.Fatalf("the base run completed %d workflow tasks, want at least 2", len(completedTasks))
	}
	reset, err := c.ResetWorkflowExecution(ctx, &workflowservice.ResetWorkflowExecutionRequest{
		Namespace:                 "default",
		WorkflowExecution:         &commonpb.WorkflowExecution{WorkflowId: id, RunId: base.GetRunID()},
		Reason:                    "test",
		WorkflowTaskFinishEventId: completedTasks[1],
		RequestId:                 fmt.Sprintf("reset-%d", time.Now().UnixNano()),
	})
	if err != nil {
		t.Fatal(err)
	}
	var ran int
	if err := c.GetWorkflow(ctx, id, reset.GetRunId()).Get(ctx, &ran); err != nil || ran != 2 {
		t.Fatalf("the reset run returned %d, %v; want 2, nil", ran, err)
	}
	resetHistory := runHistory(t, c, id, reset.GetRunId())

	activityIDs := func(events []*historypb.HistoryEvent) []string {
		var ids []string
		for _, ev := range events {
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
				ids = append(ids, a.GetActivityId())
			}
		}
		return ids
	}
	baseIDs, resetIDs := activityIDs(baseHistory.GetEvents()), activityIDs(resetHistory.GetEvents())
	if len(baseIDs) != 2 || len(resetIDs) != 2 || baseIDs[0] != resetIDs[0] || baseIDs[1] == resetIDs[1] {
		t.Fatalf("activity IDs: base run %v, reset run %v; want the first kept and the second drawn afresh", baseIDs, resetIDs)
	}

	official := officialworker.NewWorkflowReplayer()
	official.RegisterWorkflowWithOptions(RandomStreamsWorkflowOfficial, officialworkflow.RegisterOptions{Name: "RandomStreamsWorkflow"})
	if err := official.ReplayWorkflowHistory(quiet{}, resetHistory); err != nil {
		t.Errorf("the official replayer rejects the reset run this SDK finished: %v", err)
	}
	ours := worker.NewWorkflowReplayer()
	ours.RegisterWorkflowWithOptions(RandomStreamsWorkflowOurs, workflow.RegisterOptions{Name: "RandomStreamsWorkflow"})
	if err := ours.ReplayWorkflowHistory(nil, resetHistory); err != nil {
		t.Errorf("this SDK's replayer rejects the reset run: %v", err)
	}
}
