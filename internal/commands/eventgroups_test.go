package commands

import (
	"testing"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
)

func labelMarker(id string) *sdkpb.EventGroupMarker {
	return &sdkpb.EventGroupMarker{Variant: &sdkpb.EventGroupMarker_Label_{Label: &sdkpb.EventGroupMarker_Label{Id: id}}}
}

func groupIDs(cmd *commandpb.Command) []string {
	var ids []string
	for _, m := range cmd.GetEventGroupMarkers() {
		ids = append(ids, m.GetLabel().GetId())
	}
	return ids
}

// The commands a call makes carry the call's groups; the commands that
// cancel them later carry the groups of what they cancel, whatever groups
// are set then; protocol messages and the commands that close the run
// carry none.
func TestEventGroupsGoOnTheCallsCommandsAndTheirCancelRequests(t *testing.T) {
	b := NewBook()
	b.BeginTask(3)

	b.SetEventGroups([]*sdkpb.EventGroupMarker{labelMarker("pay")})
	tm := startTimer(b)
	act := schedule(b, "Charge")
	b.SignalExternal(&commandpb.SignalExternalWorkflowExecutionCommandAttributes{SignalName: "s"}, func(ExternalOutcome) {})
	b.CancelExternal(&commandpb.RequestCancelExternalWorkflowExecutionCommandAttributes{WorkflowId: "w"}, func(ExternalOutcome) {})
	b.UpsertSearchAttributes(&commandpb.UpsertWorkflowSearchAttributesCommandAttributes{})
	b.ModifyProperties(&commandpb.ModifyWorkflowPropertiesCommandAttributes{})
	b.RecordMarker(&commandpb.RecordMarkerCommandAttributes{MarkerName: "SideEffect"}, nil)
	b.RecordUnmatched(&commandpb.Command{CommandType: enumspb.COMMAND_TYPE_RECORD_MARKER,
		Attributes: &commandpb.Command_RecordMarkerCommandAttributes{RecordMarkerCommandAttributes: &commandpb.RecordMarkerCommandAttributes{MarkerName: "Version"}}})
	if previous := b.SetEventGroups(nil); len(previous) != 1 {
		t.Fatalf("SetEventGroups returned %v, want the markers it replaced", previous)
	}

	b.SetEventGroups([]*sdkpb.EventGroupMarker{labelMarker("other")})
	tm.Cancel()
	act.Cancel()
	b.SetEventGroups(nil)
	b.ProtocolMessage("u/accept")
	b.CompleteWorkflow(&commandpb.CompleteWorkflowExecutionCommandAttributes{})

	cmds := b.TakeCommands()
	want := []struct {
		typ    enumspb.CommandType
		groups string
	}{
		{enumspb.COMMAND_TYPE_START_TIMER, "pay"},
		{enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK, "pay"},
		{enumspb.COMMAND_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION, "pay"},
		{enumspb.COMMAND_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION, "pay"},
		{enumspb.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES, "pay"},
		{enumspb.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES, "pay"},
		{enumspb.COMMAND_TYPE_RECORD_MARKER, "pay"},
		{enumspb.COMMAND_TYPE_RECORD_MARKER, "pay"},
		{enumspb.COMMAND_TYPE_CANCEL_TIMER, "pay"},
		{enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK, "pay"},
		{enumspb.COMMAND_TYPE_PROTOCOL_MESSAGE, ""},
		{enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION, ""},
	}
	if len(cmds) != len(want) {
		t.Fatalf("got %d commands, want %d", len(cmds), len(want))
	}
	for i, w := range want {
		ids := groupIDs(cmds[i])
		got := ""
		if len(ids) == 1 {
			got = ids[0]
		} else if len(ids) > 1 {
			t.Fatalf("command %d (%v) carries %v, want one group at most", i, cmds[i].GetCommandType(), ids)
		}
		if cmds[i].GetCommandType() != w.typ || got != w.groups {
			t.Errorf("command %d: %v with group %q, want %v with group %q", i, cmds[i].GetCommandType(), got, w.typ, w.groups)
		}
	}
}

// A child's cancel request, made when it starts, carries the child's
// groups; ContinueAsNew carries the ones it is given.
func TestEventGroupsOfChildCancelAndContinueAsNew(t *testing.T) {
	b := NewBook()
	b.BeginTask(3)
	b.SetEventGroups([]*sdkpb.EventGroupMarker{labelMarker("kids")})
	c := b.StartChildWorkflow(&commandpb.StartChildWorkflowExecutionCommandAttributes{WorkflowId: "child"}, nil, ChildCallbacks{Started: func(string, enumspb.StartChildWorkflowExecutionFailedCause) {}, Done: func(Outcome) {}})
	b.SetEventGroups(nil)
	b.TakeCommands()
	if _, err := b.Apply(&historypb.HistoryEvent{EventId: 5, EventType: enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
		Attributes: &historypb.HistoryEvent_StartChildWorkflowExecutionInitiatedEventAttributes{StartChildWorkflowExecutionInitiatedEventAttributes: &historypb.StartChildWorkflowExecutionInitiatedEventAttributes{WorkflowId: "child"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Apply(&historypb.HistoryEvent{EventId: 6, EventType: enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED,
		Attributes: &historypb.HistoryEvent_ChildWorkflowExecutionStartedEventAttributes{ChildWorkflowExecutionStartedEventAttributes: &historypb.ChildWorkflowExecutionStartedEventAttributes{InitiatedEventId: 5}}}); err != nil {
		t.Fatal(err)
	}
	b.BeginTask(8)
	c.Cancel()
	b.ContinueAsNew(&commandpb.ContinueAsNewWorkflowExecutionCommandAttributes{}, []*sdkpb.EventGroupMarker{labelMarker("next")})
	cmds := b.TakeCommands()
	if len(cmds) != 2 {
		t.Fatalf("got %d commands, want the child's cancel request and the continue-as-new", len(cmds))
	}
	if ids := groupIDs(cmds[0]); cmds[0].GetCommandType() != enumspb.COMMAND_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION || len(ids) != 1 || ids[0] != "kids" {
		t.Errorf("first command %v with groups %v, want the child's cancel request with [kids]", cmds[0].GetCommandType(), ids)
	}
	if ids := groupIDs(cmds[1]); len(ids) != 1 || ids[0] != "next" {
		t.Errorf("continue-as-new carries %v, want [next]", ids)
	}
}
