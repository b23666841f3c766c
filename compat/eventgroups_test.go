package compat

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// TestEventGroupsWorkflowsAreOneSource: the Official half of
// eventgroups_workflows_test.go, with the SDK renamed, is its Ours half.
func TestEventGroupsWorkflowsAreOneSource(t *testing.T) {
	src, err := os.ReadFile("eventgroups_workflows_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	start := strings.Index(code, "// EventGroupsWorkflowOurs")
	split := strings.Index(code, "// EventGroupsWorkflowOfficial")
	if start < 0 || split < start {
		t.Fatal("eventgroups_workflows_test.go: the Ours half must come first, then the Official half")
	}
	oursHalf, officialHalf := code[start:split], code[split:]
	renamed := strings.NewReplacer("official.", "ours.", "Official", "Ours").Replace(officialHalf)
	if strings.TrimSpace(renamed) != strings.TrimSpace(oursHalf) {
		t.Error("the two halves of eventgroups_workflows_test.go differ in more than the SDK they use; make them one source again")
	}
}

// TestEventGroupsWriteTheSameHistoryOnBothSDKs runs one workflow, that
// makes a command of every kind with event groups (explicit, with and
// without a label, from the context and from options; an update's own;
// continue-as-new's), on a worker of each SDK on the dev server, and
// checks that both histories carry the same markers on the same events;
// then each SDK's replayer replays the other's history.
func TestEventGroupsWriteTheSameHistoryOnBothSDKs(t *testing.T) {
	c, oc := dialBoth(t)
	stamp := time.Now().UnixNano()
	oursQueue, officialQueue := fmt.Sprintf("groups-ours-%d", stamp), fmt.Sprintf("groups-official-%d", stamp)
	w := worker.New(c, oursQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(EventGroupsWorkflowOurs, workflow.RegisterOptions{Name: "EventGroupsWorkflow"})
	w.RegisterWorkflowWithOptions(EventGroupsChildWorkflowOurs, workflow.RegisterOptions{Name: "EventGroupsChildWorkflow"})
	w.RegisterActivity(Greet)
	w.RegisterActivity(Shout)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ow := officialworker.New(oc, officialQueue, officialworker.Options{})
	ow.RegisterWorkflowWithOptions(EventGroupsWorkflowOfficial, officialworkflow.RegisterOptions{Name: "EventGroupsWorkflow"})
	ow.RegisterWorkflowWithOptions(EventGroupsChildWorkflowOfficial, officialworkflow.RegisterOptions{Name: "EventGroupsChildWorkflow"})
	ow.RegisterActivity(Greet)
	ow.RegisterActivity(Shout)
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	oursHistory := runEventGroups(t, c, oursQueue)
	officialHistory := runEventGroups(t, c, officialQueue)
	o, of := groupedEvents(oursHistory), groupedEvents(officialHistory)
	if strings.Join(o, "\n") != strings.Join(of, "\n") {
		t.Errorf("the events with event groups differ:\n ours:\n  %s\n official:\n  %s", strings.Join(o, "\n  "), strings.Join(of, "\n  "))
	}
	for _, want := range []string{"ActivityTaskScheduled", "MarkerRecorded", "TimerStarted", "TimerCanceled", "UpsertWorkflowSearchAttributes",
		"WorkflowPropertiesModified", "StartChildWorkflowExecutionInitiated", "SignalExternalWorkflowExecutionInitiated",
		"RequestCancelExternalWorkflowExecutionInitiated", "WorkflowExecutionContinuedAsNew"} {
		if !strings.Contains(strings.Join(of, "\n"), want+" ") {
			t.Errorf("no %s event carries event groups in the official SDK's history: the test no longer covers it", want)
		}
	}

	oursReplayer := worker.NewWorkflowReplayer()
	oursReplayer.RegisterWorkflowWithOptions(EventGroupsWorkflowOurs, workflow.RegisterOptions{Name: "EventGroupsWorkflow"})
	officialReplayer := officialworker.NewWorkflowReplayer()
	officialReplayer.RegisterWorkflowWithOptions(EventGroupsWorkflowOfficial, officialworkflow.RegisterOptions{Name: "EventGroupsWorkflow"})
	if err := oursReplayer.ReplayWorkflowHistory(nil, officialHistory); err != nil {
		t.Errorf("this SDK's replayer fails on the official SDK's history: %v", err)
	}
	if err := officialReplayer.ReplayWorkflowHistory(quiet{}, oursHistory); err != nil {
		t.Errorf("the official replayer fails on this SDK's history: %v", err)
	}
}

// runEventGroups runs EventGroupsWorkflow on taskQueue, sends its first
// run the update "nap", and returns the first run's history.
func runEventGroups(t *testing.T, c client.Client, taskQueue string) *historypb.History {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := fmt.Sprintf("%s-groups", taskQueue)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, "EventGroupsWorkflow", 0)
	if err != nil {
		t.Fatal(err)
	}
	firstRunID := run.GetRunID() // Get below follows the run's continuation
	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, RunID: firstRunID, UpdateID: "nap-1",
		UpdateName: "nap", WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		t.Fatal(err)
	}
	if err := handle.Get(ctx, nil); err != nil {
		t.Fatalf("the update on %s: %v", taskQueue, err)
	}
	var result string
	if err := run.Get(ctx, &result); err != nil || result != "HELLO, GROUPS!" {
		t.Fatalf("EventGroupsWorkflow on %s: %q, %v", taskQueue, result, err)
	}
	return runHistory(t, c, id, firstRunID)
}

// groupedEvents is, for each event that carries event group markers, its
// type and its markers in JSON.
func groupedEvents(h *historypb.History) []string {
	var out []string
	for _, ev := range h.GetEvents() {
		if len(ev.GetEventGroupMarkers()) == 0 {
			continue
		}
		var markers []string
		for _, m := range ev.GetEventGroupMarkers() {
			markers = append(markers, protojson.Format(m))
		}
		out = append(out, ev.GetEventType().String()+" "+strings.Join(markers, " "))
	}
	return out
}
