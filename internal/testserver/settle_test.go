package testserver

import (
	"context"
	"errors"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
)

// TestAWaitGivenUpLeavesNoWaiter: WaitSettled on a run whose task no
// worker takes ends with its context, and the server forgets the waiter
// (each would otherwise be checked at every call, for good).
func TestAWaitGivenUpLeavesNoWaiter(t *testing.T) {
	srv := New(Options{Clock: NewClock(time.Now())})
	execution, err := srv.StartWorkflow("wf", "", &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType: &commonpb.WorkflowType{Name: "W"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "tq"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := srv.WaitSettled(ctx, execution); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitSettled on a run whose first task is scheduled ended with %v, want the context's deadline", err)
	}
	srv.lock()
	waiters := len(srv.settleWaiters)
	srv.unlock()
	if waiters != 0 {
		t.Fatalf("%d waiters left after the wait was given up", waiters)
	}
}
