//lint:file-ignore SA1019 the control fields are deprecated, but both SDKs still send them and replay by them.

package compat

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	officialworker "go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

// TestChildCommandsMatchTheOfficialSDK runs each child workflow scenario
// once on this SDK's worker and once on go.temporal.io/sdk's, and compares
// what the two parents asked the server for: the same commands in the same
// order, the same attributes on the events that record starting a child,
// signaling and asking to cancel another workflow, and the same SDK flags
// (which a replayer of either SDK follows). Replay checks only the fields
// that identify a command; this checks them all.
//
// Normalized away: run IDs (in arguments too), task queue and workflow ID
// prefixes, and event IDs (both SDKs take them for control and default
// child IDs, which is checked here, but the server may group events
// differently from run to run). A child's cancel request names the child
// by the order it started in, which the server chooses. One known
// difference is ignored: go.temporal.io/sdk sends an empty header where
// this SDK, without interceptors or context propagators, sends none.
func TestChildCommandsMatchTheOfficialSDK(t *testing.T) {
	c, oc := dialBoth(t)
	oursQueue := fmt.Sprintf("cmd-ours-%d", time.Now().UnixNano())
	w := worker.New(c, oursQueue, worker.Options{})
	registerOurs(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	officialQueue := fmt.Sprintf("cmd-official-%d", time.Now().UnixNano())
	ow := officialworker.New(oc, officialQueue, officialworker.Options{})
	registerOfficial(ow)
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	for _, name := range []string{"ChildResultsWorkflow", "ChildCancelWorkflow", "ParentClosePoliciesWorkflow",
		"ChildSignalsWorkflow", "ExternalCancelWorkflow", "DuplicateChildWorkflow", "CancelTogetherWorkflow",
		"BadMemoChildWorkflow", "TakenIDChildWorkflow"} {
		t.Run(name, func(t *testing.T) {
			ours, oursFlags := parentCommands(t, c, name, oursQueue)
			official, officialFlags := parentCommands(t, c, name, officialQueue)
			if !slices.Equal(oursFlags, officialFlags) {
				t.Errorf("this SDK's parent used SDK flags %v, go.temporal.io/sdk's %v", oursFlags, officialFlags)
			}
			if len(ours) != len(official) {
				t.Fatalf("this SDK's parent recorded %d commands, go.temporal.io/sdk's %d:\n ours:     %s\n official: %s",
					len(ours), len(official), eventTypes(ours), eventTypes(official))
			}
			for i := range ours {
				if !proto.Equal(ours[i], official[i]) {
					t.Errorf("command %d differs:\n ours:     %s\n official: %s", i+1, protojson.Format(ours[i]), protojson.Format(official[i]))
				}
			}
		})
	}
}

// parentCommands runs workflowType on taskQueue and returns the events
// that record its commands, normalized for comparison (see
// TestChildCommandsMatchTheOfficialSDK), and the SDK flags its workflow
// tasks used, sorted.
func parentCommands(t *testing.T, c client.Client, workflowType, taskQueue string) ([]*historypb.HistoryEvent, []uint32) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := fmt.Sprintf("%s-%s-%d", taskQueue, workflowType, time.Now().UnixNano())
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, workflowType)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if workflowType == "ParentClosePoliciesWorkflow" {
		checkParentClosePolicies(t, ctx, c, fullHistory(t, c, id))
	}
	return commandsOf(t, c, id)
}

// commandsOf returns the normalized command events and the SDK flags of
// the workflow's current run.
func commandsOf(t *testing.T, c client.Client, id string) ([]*historypb.HistoryEvent, []uint32) {
	t.Helper()
	h := fullHistory(t, c, id)
	originalRunID := h.GetEvents()[0].GetWorkflowExecutionStartedEventAttributes().GetOriginalExecutionRunId()
	startRank := map[string]string{}
	for _, ev := range h.GetEvents() {
		if a := ev.GetChildWorkflowExecutionStartedEventAttributes(); a != nil {
			startRank[a.GetWorkflowExecution().GetWorkflowId()] = fmt.Sprintf("<child started %d.>", len(startRank)+1)
		}
	}
	var commands []*historypb.HistoryEvent
	var flags []uint32
	for _, ev := range h.GetEvents() {
		for _, f := range ev.GetWorkflowTaskCompletedEventAttributes().GetSdkMetadata().GetLangUsedFlags() {
			if !slices.Contains(flags, f) {
				flags = append(flags, f)
			}
		}
		if !recordsACommand(ev.GetEventType()) {
			continue
		}
		ev = proto.CloneOf(ev)
		seq := strconv.FormatInt(ev.GetEventId(), 10)
		ev.EventId, ev.EventTime, ev.TaskId = 0, nil, 0
		// Default child IDs and controls are the event ID; explicit child
		// IDs are made from the original run ID.
		sameSeq := func(s string) string {
			s = strings.ReplaceAll(s, originalRunID, "<original run ID>")
			if strings.HasSuffix(s, "_"+seq) {
				s = strings.TrimSuffix(s, seq) + "<event ID>"
			}
			return s
		}
		switch a := ev.GetAttributes().(type) {
		case *historypb.HistoryEvent_StartChildWorkflowExecutionInitiatedEventAttributes:
			attrs := a.StartChildWorkflowExecutionInitiatedEventAttributes
			attrs.WorkflowId = sameSeq(attrs.GetWorkflowId())
			for _, p := range attrs.GetInput().GetPayloads() {
				p.Data = bytes.ReplaceAll(p.GetData(), []byte(originalRunID), []byte("<original run ID>"))
			}
			attrs.TaskQueue.Name = "<task queue>"
			attrs.WorkflowTaskCompletedEventId = 0
			if len(attrs.GetHeader().GetFields()) == 0 {
				attrs.Header = nil
			}
		case *historypb.HistoryEvent_SignalExternalWorkflowExecutionInitiatedEventAttributes:
			attrs := a.SignalExternalWorkflowExecutionInitiatedEventAttributes
			if attrs.GetControl() != seq {
				t.Errorf("signal recorded at event %s has control %q, want the event ID", seq, attrs.GetControl())
			}
			attrs.Control = "<event ID>"
			attrs.WorkflowExecution.WorkflowId = sameSeq(attrs.GetWorkflowExecution().GetWorkflowId())
			attrs.WorkflowTaskCompletedEventId = 0
			if len(attrs.GetHeader().GetFields()) == 0 {
				attrs.Header = nil
			}
		case *historypb.HistoryEvent_RequestCancelExternalWorkflowExecutionInitiatedEventAttributes:
			attrs := a.RequestCancelExternalWorkflowExecutionInitiatedEventAttributes
			if attrs.GetChildWorkflowOnly() {
				if attrs.GetControl() != "" {
					t.Errorf("a child's cancel request, recorded at event %s, has control %q, want none", seq, attrs.GetControl())
				}
			} else if attrs.GetControl() != seq {
				t.Errorf("cancel request recorded at event %s has control %q, want the event ID", seq, attrs.GetControl())
			}
			attrs.Control = strings.ReplaceAll(attrs.GetControl(), seq, "<event ID>")
			if rank, ok := startRank[attrs.GetWorkflowExecution().GetWorkflowId()]; ok && attrs.GetChildWorkflowOnly() {
				attrs.WorkflowExecution.WorkflowId = rank
			} else {
				attrs.WorkflowExecution.WorkflowId = sameSeq(attrs.GetWorkflowExecution().GetWorkflowId())
			}
			if attrs.GetWorkflowExecution().GetRunId() != "" {
				attrs.WorkflowExecution.RunId = "<run ID>"
			}
			attrs.WorkflowTaskCompletedEventId = 0
		default:
			// Other commands are compared by type.
			ev.Attributes = nil
			ev.UserMetadata = nil
		}
		commands = append(commands, ev)
	}
	slices.Sort(flags)
	return commands, flags
}

// recordsACommand reports whether the server writes events of type t for
// a workflow's commands.
func recordsACommand(t enumspb.EventType) bool {
	switch t {
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
		enumspb.EVENT_TYPE_TIMER_STARTED, enumspb.EVENT_TYPE_TIMER_CANCELED, enumspb.EVENT_TYPE_MARKER_RECORDED,
		enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
		enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
		enumspb.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
		enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES, enumspb.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		return true
	}
	return false
}

func eventTypes(events []*historypb.HistoryEvent) string {
	names := make([]string, len(events))
	for i, ev := range events {
		names[i] = strings.TrimPrefix(ev.GetEventType().String(), "EVENT_TYPE_")
	}
	return strings.Join(names, ", ")
}
