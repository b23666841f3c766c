package compat

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
)

// checkParentClosePolicies checks that the server applied the parent close
// policy of each child a closed parent started: an abandoned child runs on
// (it is terminated here), a child with TERMINATE is terminated, one with
// REQUEST_CANCEL ends canceled.
func checkParentClosePolicies(t *testing.T, ctx context.Context, c client.Client, parent *historypb.History) {
	t.Helper()
	policies := map[int64]enumspb.ParentClosePolicy{}
	checked := 0
	for _, ev := range parent.GetEvents() {
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
		deadline := time.Now().Add(20 * time.Second)
		for {
			d, err := c.DescribeWorkflowExecution(ctx, child.GetWorkflowId(), child.GetRunId())
			if err != nil {
				t.Fatal(err)
			}
			got := d.GetWorkflowExecutionInfo().GetStatus()
			if got == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the child with %v is %v, want %v", policy, got, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if policy == enumspb.PARENT_CLOSE_POLICY_ABANDON {
			if err := c.TerminateWorkflow(ctx, child.GetWorkflowId(), child.GetRunId(), "checked"); err != nil {
				t.Fatal(err)
			}
		}
		checked++
	}
	if checked != 3 {
		t.Fatalf("%d children started, want 3", checked)
	}
}

// sameJSON reports whether a and b encode to the same JSON value.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	norm := func(v any) string {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back any
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(back)
		return string(out)
	}
	return norm(a) == norm(b)
}
