package workerrt

import (
	"context"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
)

// blockingActivities runs every activity until its release channel closes.
type blockingActivities struct{ release chan struct{} }

func (b blockingActivities) Execute(context.Context, *ActivityTask) (*commonpb.Payloads, error) {
	<-b.release
	return nil, nil
}

func activityTaskOf(activityType, activityID, workflowID string) *ActivityTask {
	return &ActivityTask{Task: &workflowservice.PollActivityTaskQueueResponse{
		ActivityType:      &commonpb.ActivityType{Name: activityType},
		ActivityId:        activityID,
		WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: workflowID},
	}}
}

// A task group tells the tasks that run the worker's own code from the
// activities whose code has not returned: a wait for the former ends
// while the latter run, a wait given up returns, and the activities still
// in their code are named, oldest first.
func TestTaskGroupWaitsForAllButActivityCode(t *testing.T) {
	var g taskGroup
	exec := trackedActivities{ActivityExecutor: blockingActivities{release: make(chan struct{})}, group: &g}
	inner := exec.ActivityExecutor.(blockingActivities)

	// Two activity tasks whose code blocks, and one task of the worker's.
	returned := make(chan struct{}, 2)
	for i, task := range []*ActivityTask{activityTaskOf("Charge", "5", "order-1"), activityTaskOf("Ship", "7", "order-2")} {
		g.Add(1)
		go func() {
			defer g.Done()
			_, _ = exec.Execute(context.Background(), task)
			returned <- struct{}{}
		}()
		// The first one is older: wait until it counts before the next.
		g.waitUntil(func() bool { return len(g.inCode) == i+1 }, nil)
	}
	g.Add(1)
	giveUp := make(chan struct{})
	close(giveUp)
	if g.waitUntil(g.onlyActivityCodeLeft, giveUp) {
		t.Fatal("the wait ended while a task of the worker's own ran")
	}
	g.Done()
	g.waitUntil(g.onlyActivityCodeLeft, nil)

	left := g.activitiesInCode()
	if len(left) != 2 || !strings.HasPrefix(left[0], "Charge (activity ID 5, workflow ID order-1, running for ") ||
		!strings.HasPrefix(left[1], "Ship (activity ID 7, workflow ID order-2, running for ") {
		t.Errorf("activities in their code: %q", left)
	}
	if g.waitUntil(g.idle, giveUp) {
		t.Error("the group was idle while activity code ran")
	}

	close(inner.release)
	g.Wait()
	<-returned
	<-returned
	if left := g.activitiesInCode(); len(left) != 0 {
		t.Errorf("activities still in their code after they returned: %q", left)
	}
}
