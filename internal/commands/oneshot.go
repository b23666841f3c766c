package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
)

// OneShot is the machine of a command that is done once its event is in
// history: RecordMarker, UpsertWorkflowSearchAttributes,
// ModifyWorkflowProperties and the commands that close the workflow
// (complete, fail, cancel, continue as new). None can be canceled.
type OneShot struct {
	st  State
	cmd *commandpb.Command
}

// The one-shot commands and their events, for the Book. A marker is known
// by its name; the others by their type alone.
var (
	recordMarkerKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_RECORD_MARKER,
		Recorded: enumspb.EVENT_TYPE_MARKER_RECORDED,
		Identity: []Field{{Name: "marker name",
			InCommand: func(c *commandpb.Command) string { return c.GetRecordMarkerCommandAttributes().GetMarkerName() },
			InEvent:   func(e *historypb.HistoryEvent) string { return e.GetMarkerRecordedEventAttributes().GetMarkerName() }}},
		Describe: func(c *commandpb.Command) string {
			return fmt.Sprintf("marker %q", c.GetRecordMarkerCommandAttributes().GetMarkerName())
		},
		DescribeEvent: func(e *historypb.HistoryEvent) string {
			return fmt.Sprintf("marker %q", e.GetMarkerRecordedEventAttributes().GetMarkerName())
		},
	})
	upsertSearchAttributesKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
		Recorded: enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
	})
	modifyPropertiesKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES,
		Recorded: enumspb.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED,
	})
	completeWorkflowKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION,
		Recorded: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
	})
	failWorkflowKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION,
		Recorded: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
	})
	cancelWorkflowKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION,
		Recorded: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
	})
	continueAsNewKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION,
		Recorded: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
	})
)

// OneShotTable is the transition table shared by one-shot commands.
var OneShotTable = NewTable("one-shot command",
	Row[*OneShot]{Created, InSent, CommandSent, nil},
	Row[*OneShot]{CommandSent, InInitiated, Initiated, nil},
)

// State is where the command stands.
func (o *OneShot) State() State { return o.st }

func (o *OneShot) state() State { return o.st }

func (o *OneShot) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return OneShotTable.fire(o, &o.st, in, ev)
}

func (o *OneShot) describe() string { return DescribeCommand(o.cmd) }

func (b *Book) addOneShot(cmd *commandpb.Command) *OneShot {
	o := &OneShot{cmd: cmd}
	b.add(cmd, o)
	return o
}

// RecordMarker adds a RecordMarker command; metadata (a summary, for the
// UI) may be nil.
func (b *Book) RecordMarker(attrs *commandpb.RecordMarkerCommandAttributes, metadata *sdkpb.UserMetadata) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType:       recordMarkerKind.Command,
		Attributes:        &commandpb.Command_RecordMarkerCommandAttributes{RecordMarkerCommandAttributes: attrs},
		UserMetadata:      metadata,
		EventGroupMarkers: b.groups,
	})
}

// RecordUnmatched adds a command whose event replay does not match: a
// version marker, its change-version search attribute upsert, or a mutable
// side effect marker. The engine skips their events. It carries the call's
// event group markers.
func (b *Book) RecordUnmatched(cmd *commandpb.Command) {
	cmd.EventGroupMarkers = b.groups
	o := &OneShot{cmd: cmd}
	b.add(cmd, o).unmatched = true
}

// UpsertSearchAttributes adds an UpsertWorkflowSearchAttributes command.
func (b *Book) UpsertSearchAttributes(attrs *commandpb.UpsertWorkflowSearchAttributesCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType:       upsertSearchAttributesKind.Command,
		Attributes:        &commandpb.Command_UpsertWorkflowSearchAttributesCommandAttributes{UpsertWorkflowSearchAttributesCommandAttributes: attrs},
		EventGroupMarkers: b.groups,
	})
}

// ModifyProperties adds a ModifyWorkflowProperties command (memo upsert).
func (b *Book) ModifyProperties(attrs *commandpb.ModifyWorkflowPropertiesCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType:       modifyPropertiesKind.Command,
		Attributes:        &commandpb.Command_ModifyWorkflowPropertiesCommandAttributes{ModifyWorkflowPropertiesCommandAttributes: attrs},
		EventGroupMarkers: b.groups,
	})
}

// CompleteWorkflow adds a CompleteWorkflowExecution command.
func (b *Book) CompleteWorkflow(attrs *commandpb.CompleteWorkflowExecutionCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType: completeWorkflowKind.Command,
		Attributes:  &commandpb.Command_CompleteWorkflowExecutionCommandAttributes{CompleteWorkflowExecutionCommandAttributes: attrs},
	})
}

// FailWorkflow adds a FailWorkflowExecution command.
func (b *Book) FailWorkflow(attrs *commandpb.FailWorkflowExecutionCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType: failWorkflowKind.Command,
		Attributes:  &commandpb.Command_FailWorkflowExecutionCommandAttributes{FailWorkflowExecutionCommandAttributes: attrs},
	})
}

// CancelWorkflow adds a CancelWorkflowExecution command.
func (b *Book) CancelWorkflow(attrs *commandpb.CancelWorkflowExecutionCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType: cancelWorkflowKind.Command,
		Attributes:  &commandpb.Command_CancelWorkflowExecutionCommandAttributes{CancelWorkflowExecutionCommandAttributes: attrs},
	})
}

// ContinueAsNew adds a ContinueAsNewWorkflowExecution command; groups
// (nil for none) are the event group markers of the call that made its
// ContinueAsNewError.
func (b *Book) ContinueAsNew(attrs *commandpb.ContinueAsNewWorkflowExecutionCommandAttributes, groups []*sdkpb.EventGroupMarker) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType:       continueAsNewKind.Command,
		Attributes:        &commandpb.Command_ContinueAsNewWorkflowExecutionCommandAttributes{ContinueAsNewWorkflowExecutionCommandAttributes: attrs},
		EventGroupMarkers: groups,
	})
}
