package compat

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	activitypb "go.temporal.io/api/activity/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// TestActivityOperationScenariosAreOneSource: the Official half of
// activity_operations_scenarios_test.go, with the SDK renamed, is its Ours
// half.
func TestActivityOperationScenariosAreOneSource(t *testing.T) {
	src, err := os.ReadFile("activity_operations_scenarios_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	start := strings.Index(code, "// OperatedActivitiesOurs")
	split := strings.Index(code, "// OperatedActivitiesOfficial")
	if start < 0 || split < start {
		t.Fatal("activity_operations_scenarios_test.go: the Ours half must come first, then the Official half")
	}
	oursHalf, officialHalf := code[start:split], code[split:]
	renamed := strings.NewReplacer("officialtemporal.", "ourstemporal.", "officialactivity.", "oursactivity.", "officialworkflow.", "oursworkflow.",
		"official.", "ours.", "Official", "Ours").Replace(officialHalf)
	if strings.TrimSpace(renamed) != strings.TrimSpace(oursHalf) {
		t.Error("the two halves of activity_operations_scenarios_test.go differ in more than the SDK they use; make them one source again")
	}
}

// A workflow's running activity paused, its options updated, unpaused
// with jitter, reset, through the service's activity operations, on a
// worker of each SDK; and an asynchronous activity heartbeated by each
// SDK's client while paused: the activities see the same causes
// (activity.ErrActivityPaused, ErrActivityReset), the clients the same
// errors, the workflows the same results.
func TestActivityOperationsMatchTheOfficialSDK(t *testing.T) {
	c, oc := dialBoth(t)
	stamp := time.Now().UnixNano()
	oursQueue, officialQueue := fmt.Sprintf("operated-ours-%d", stamp), fmt.Sprintf("operated-official-%d", stamp)
	oursActs, officialActs := NewOperatedActivitiesOurs(), NewOperatedActivitiesOfficial()
	w := worker.New(c, oursQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(OperatedWorkflowOurs, workflow.RegisterOptions{Name: "OperatedWorkflow"})
	w.RegisterActivity(oursActs)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ow := officialworker.New(oc, officialQueue, officialworker.Options{})
	ow.RegisterWorkflowWithOptions(OperatedWorkflowOfficial, officialworkflow.RegisterOptions{Name: "OperatedWorkflow"})
	ow.RegisterActivity(officialActs)
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var lines [2][]string
	var wg sync.WaitGroup
	for i, queue := range []string{oursQueue, officialQueue} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ids []string
			newID := func() string {
				ids = append(ids, fmt.Sprintf("%s-%d", queue, len(ids)+1))
				return ids[len(ids)-1]
			}
			say := func(format string, args ...any) {
				line := fmt.Sprintf(format, args...)
				for j := len(ids) - 1; j >= 0; j-- {
					line = strings.ReplaceAll(line, ids[j], fmt.Sprintf("<id %d>", j+1))
				}
				lines[i] = append(lines[i], requestIDs.ReplaceAllString(strings.ReplaceAll(line, queue, "<queue>"), "<uuid>"))
			}
			if i == 0 {
				OperatedActivityScenariosOurs(ctx, c, oursActs, queue, newID, say)
			} else {
				OperatedActivityScenariosOfficial(ctx, oc, officialActs, queue, newID, say)
			}
		}()
	}
	wg.Wait()
	compareLines(t, lines[0], lines[1])
}

// compareLines fails for each line of ours that differs from official's.
func compareLines(t *testing.T, ours, official []string) {
	t.Helper()
	for i := range max(len(ours), len(official)) {
		var o, of string
		if i < len(ours) {
			o = ours[i]
		}
		if i < len(official) {
			of = official[i]
		}
		if o != of {
			t.Errorf("line %d differs:\n ours:     %s\n official: %s", i, o, of)
		} else {
			t.Logf("both: %s", of)
		}
	}
}

// activityOperator operates on the activity "op" of a workflow through
// the service's activity operations, which neither SDK's client wraps.
type activityOperator struct {
	service workflowservice.WorkflowServiceClient
}

func (o activityOperator) pending(ctx context.Context, workflowID string) *workflowservice.DescribeWorkflowExecutionResponse {
	resp, err := o.service.DescribeWorkflowExecution(ctx, &workflowservice.DescribeWorkflowExecutionRequest{
		Namespace: "default", Execution: &commonpb.WorkflowExecution{WorkflowId: workflowID}})
	if err != nil {
		return nil
	}
	return resp
}

// waitForHeartbeat waits (20 s at most) for the activity's first heartbeat.
func (o activityOperator) waitForHeartbeat(ctx context.Context, workflowID string) {
	for wait := time.Now().Add(20 * time.Second); ctx.Err() == nil && time.Now().Before(wait); time.Sleep(50 * time.Millisecond) {
		if p := o.pending(ctx, workflowID).GetPendingActivities(); len(p) > 0 && p[0].GetLastHeartbeatTime() != nil {
			return
		}
	}
}

// state waits (10 s at most) for the activity to reach want, and says
// where it is.
func (o activityOperator) state(ctx context.Context, workflowID string, want enumspb.PendingActivityState) string {
	for wait := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		p := o.pending(ctx, workflowID).GetPendingActivities()
		if len(p) == 0 {
			if ctx.Err() != nil || time.Now().After(wait) {
				return "no pending activity"
			}
			continue
		}
		if p[0].GetState() == want || ctx.Err() != nil || time.Now().After(wait) {
			return fmt.Sprintf("%v, attempt %d, paused %v", p[0].GetState(), p[0].GetAttempt(), p[0].GetPaused())
		}
	}
}

func (o activityOperator) pause(ctx context.Context, workflowID string) error {
	_, err := o.service.PauseActivity(ctx, &workflowservice.PauseActivityRequest{Namespace: "default",
		Execution: &commonpb.WorkflowExecution{WorkflowId: workflowID}, Identity: "compat",
		Activity: &workflowservice.PauseActivityRequest_Id{Id: "op"}, Reason: "maintenance"})
	return err
}

func (o activityOperator) unpause(ctx context.Context, workflowID string, jitter time.Duration) error {
	request := &workflowservice.UnpauseActivityRequest{Namespace: "default",
		Execution: &commonpb.WorkflowExecution{WorkflowId: workflowID}, Identity: "compat",
		Activity: &workflowservice.UnpauseActivityRequest_Id{Id: "op"}}
	if jitter > 0 {
		request.Jitter = durationpb.New(jitter)
	}
	_, err := o.service.UnpauseActivity(ctx, request)
	return err
}

func (o activityOperator) reset(ctx context.Context, workflowID string) error {
	_, err := o.service.ResetActivity(ctx, &workflowservice.ResetActivityRequest{Namespace: "default",
		Execution: &commonpb.WorkflowExecution{WorkflowId: workflowID}, Identity: "compat",
		Activity: &workflowservice.ResetActivityRequest_Id{Id: "op"}})
	return err
}

// update sets the activity's heartbeat timeout and says what the server
// answered.
func (o activityOperator) update(ctx context.Context, workflowID string, heartbeatTimeout time.Duration) string {
	resp, err := o.service.UpdateActivityOptions(ctx, &workflowservice.UpdateActivityOptionsRequest{Namespace: "default",
		Execution: &commonpb.WorkflowExecution{WorkflowId: workflowID}, Identity: "compat",
		Activity:        &workflowservice.UpdateActivityOptionsRequest_Id{Id: "op"},
		ActivityOptions: &activitypb.ActivityOptions{HeartbeatTimeout: durationpb.New(heartbeatTimeout)},
		UpdateMask:      &fieldmaskpb.FieldMask{Paths: []string{"heartbeat_timeout"}}})
	if err != nil {
		return describeChain(err)
	}
	return fmt.Sprintf("heartbeat timeout %v, start-to-close %v", resp.GetActivityOptions().GetHeartbeatTimeout().AsDuration(),
		resp.GetActivityOptions().GetStartToCloseTimeout().AsDuration())
}
