package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
)

// checkParentClosePolicies checks that the server applied each child's
// parent close policy once the parent closed: an abandoned child runs on
// (it is terminated here, its part done), a child with TERMINATE is
// terminated, one with REQUEST_CANCEL ends canceled.
func checkParentClosePolicies(ctx context.Context, c client.Client, events []*historypb.HistoryEvent) error {
	policies := map[int64]enumspb.ParentClosePolicy{}
	checked := 0
	for _, ev := range events {
		if a := ev.GetStartChildWorkflowExecutionInitiatedEventAttributes(); a != nil {
			policies[ev.GetEventId()] = a.GetParentClosePolicy()
		}
		a := ev.GetChildWorkflowExecutionStartedEventAttributes()
		if a == nil {
			continue
		}
		child := a.GetWorkflowExecution()
		policy := policies[a.GetInitiatedEventId()]
		want := map[enumspb.ParentClosePolicy]enumspb.WorkflowExecutionStatus{
			enumspb.PARENT_CLOSE_POLICY_ABANDON:        enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING,
			enumspb.PARENT_CLOSE_POLICY_TERMINATE:      enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED,
			enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL: enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED,
		}[policy]
		if err := awaitStatus(ctx, c, child.GetWorkflowId(), child.GetRunId(), want); err != nil {
			return fmt.Errorf("child with %v: %w", policy, err)
		}
		if policy == enumspb.PARENT_CLOSE_POLICY_ABANDON {
			if err := c.TerminateWorkflow(ctx, child.GetWorkflowId(), child.GetRunId(), "recorded"); err != nil {
				return err
			}
		}
		checked++
	}
	if checked != 3 {
		return fmt.Errorf("%d children started, want 3", checked)
	}
	return nil
}

// awaitStatus waits up to 20s for a run to reach status want (the server
// applies parent close policies asynchronously).
func awaitStatus(ctx context.Context, c client.Client, workflowID, runID string, want enumspb.WorkflowExecutionStatus) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		d, err := c.DescribeWorkflow(ctx, workflowID, runID)
		if err != nil {
			return err
		}
		got := d.Status
		if got == want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("workflow %s is %v, want %v", workflowID, got, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// outOfLuckError reports a run that did not take the course its fixture
// is for, where the server chose the course. Such a fixture is recorded
// again.
type outOfLuckError string

func (o outOfLuckError) Error() string { return string(o) }

// checkStartedOutOfOrder wants the parent's children to have started in
// another order than the parent started them (by initiated event ID).
func checkStartedOutOfOrder(_ context.Context, _ client.Client, events []*historypb.HistoryEvent) error {
	var initiated []int64
	for _, ev := range events {
		if a := ev.GetChildWorkflowExecutionStartedEventAttributes(); a != nil {
			initiated = append(initiated, a.GetInitiatedEventId())
		}
	}
	if slices.IsSorted(initiated) {
		return outOfLuckError(fmt.Sprintf("the children started in the order they were started in (initiated events %v)", initiated))
	}
	return nil
}
