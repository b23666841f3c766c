package workerrt

import (
	"bytes"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
)

// TestANonDeterminismErrorSaysWhereTheCodeIs: the live worker's log line
// and the failure it reports give the workflow code's location that
// Options.LocateNondeterminism finds on the run's history, as the
// replayer's error does; other failures are left as they are.
func TestANonDeterminismErrorSaysWhereTheCodeIs(t *testing.T) {
	changed := append(firstEvents("Loop"), nextEvents(3)...) // events 1-9
	// The code schedules Charge; history says another activity.
	changed[4].GetActivityTaskScheduledEventAttributes().ActivityType = &commonpb.ActivityType{Name: "Refund"}
	for _, c := range []struct {
		name         string
		workflowType string
		located      bool
	}{
		{"non-determinism", "Loop", true},
		{"another failure", "NoSuchType", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			events := append(firstEvents(c.workflowType), changed[3:]...)
			svc := &handingBackService{memoryService: &memoryService{histories: map[string][]*historypb.HistoryEvent{"a": events}}}
			var logs bytes.Buffer
			var replayed []int64 // the events the locator read
			w, err := New(Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Logger: logging.NewTextLogger(&logs, 0),
				FailureConverter: failure.GetDefaultFailureConverter(), Cache: NewStickyCache(10), Engine: loopEngine(),
				LocateNondeterminism: func(src *engine.EventSource, workflowID, runID string, err error) string {
					if workflowID != "wf-a" || runID != "a" {
						t.Errorf("asked to locate %s/%s, want wf-a/a", workflowID, runID)
					}
					for {
						ev, err := src.Next()
						if err != nil || ev == nil {
							break
						}
						replayed = append(replayed, ev.GetEventId())
					}
					return "orders/workflow.go:42"
				}})
			if err != nil {
				t.Fatal(err)
			}
			// A task of the run's tail, for a run no cache holds: the
			// locator replays the history fetched up to it.
			w.handleWorkflowTask(startedAt(workflowTask("a", c.workflowType, events[3:]), 9))
			if len(svc.failures) != 1 {
				t.Fatalf("%d failures reported, want 1", len(svc.failures))
			}
			msg := svc.failures[0].GetFailure().GetMessage()
			const where = "(workflow code at orders/workflow.go:42)"
			if !c.located {
				if strings.Contains(msg, where) || replayed != nil {
					t.Fatalf("a failure that is not non-determinism was located: %q, events %v", msg, replayed)
				}
				return
			}
			if !strings.Contains(msg, "nondeterministic workflow") || !strings.HasSuffix(msg, where) {
				t.Errorf("the failure reported is %q, want it to end with %q", msg, where)
			}
			if len(replayed) != 9 || replayed[0] != 1 || replayed[8] != 9 {
				t.Errorf("the locator read events %v, want the history up to the task, 1 to 9", replayed)
			}
			if !strings.Contains(logs.String(), "workflow code at orders/workflow.go:42") {
				t.Errorf("the log does not say where the code is:\n%s", logs.String())
			}
		})
	}
}
