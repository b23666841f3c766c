package workerrt

import (
	"testing"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
)

// TestCompletionsReportTheSDKOnlyWhenItChanges: a run's first completion
// names the SDK and its version, the next completions of the run (carried
// over here, or cached) do not, as go.temporal.io/sdk reports them.
func TestCompletionsReportTheSDKOnlyWhenItChanges(t *testing.T) {
	svc := &handingBackService{memoryService: &memoryService{histories: map[string][]*historypb.HistoryEvent{"a": firstEvents("Loop")}}}
	svc.handBack = []*workflowservice.PollWorkflowTaskQueueResponse{startedAt(workflowTask("a", "Loop", nextEvents(3)), 9)}
	w, err := New(Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Logger: logging.NewTextLogger(discard{}, 0),
		FailureConverter: failure.GetDefaultFailureConverter(), Cache: NewStickyCache(0), Engine: loopEngine(),
		SDKName: "durable-go", SDKVersion: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	w.handleWorkflowTask(startedAt(workflowTask("a", "Loop", firstEvents("Loop")), 3))
	if len(svc.completions) != 2 {
		t.Fatalf("%d completions, want 2", len(svc.completions))
	}
	first, second := svc.completions[0].GetSdkMetadata(), svc.completions[1].GetSdkMetadata()
	if first.GetSdkName() != "durable-go" || first.GetSdkVersion() != "1.2.3" {
		t.Errorf("the first completion reports SDK %q %q, want durable-go 1.2.3", first.GetSdkName(), first.GetSdkVersion())
	}
	if second.GetSdkName() != "" || second.GetSdkVersion() != "" {
		t.Errorf("the second completion reports SDK %q %q again, want nothing", second.GetSdkName(), second.GetSdkVersion())
	}
}
