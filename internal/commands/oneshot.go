package commands

import (
	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
)

// OneShot is the machine of a command that is done once its event is in
// history: RecordMarker, UpsertWorkflowSearchAttributes,
// ModifyWorkflowProperties and the commands that close the workflow
// (complete, fail, cancel, continue as new). None can be canceled.
type OneShot struct {
	st  State
	cmd *commandpb.Command
}

// OneShotTable is the transition table shared by one-shot commands.
var OneShotTable = NewTable("one-shot command",
	Row[*OneShot]{Created, InSent, CommandSent, nil},
	Row[*OneShot]{CommandSent, InInitiated, Initiated, nil},
)

// State is where the command stands.
func (o *OneShot) State() State { return o.st }

func (o *OneShot) state() State { return o.st }

func (o *OneShot) fire(in Input, arg any) bool { return OneShotTable.fire(o, &o.st, in, arg) }

func (o *OneShot) describe() string { return DescribeCommand(o.cmd) }

func (b *Book) addOneShot(cmd *commandpb.Command) *OneShot {
	o := &OneShot{cmd: cmd}
	b.add(cmd, o)
	return o
}

// RecordMarker adds a RecordMarker command.
func (b *Book) RecordMarker(attrs *commandpb.RecordMarkerCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_RECORD_MARKER,
		Attributes:  &commandpb.Command_RecordMarkerCommandAttributes{RecordMarkerCommandAttributes: attrs},
	})
}

// RecordUnmatched adds a command whose event replay does not match: a
// version marker, its change-version search attribute upsert, or a mutable
// side effect marker. The engine skips their events.
func (b *Book) RecordUnmatched(cmd *commandpb.Command) {
	o := &OneShot{cmd: cmd}
	b.add(cmd, o).unmatched = true
}

// UpsertSearchAttributes adds an UpsertWorkflowSearchAttributes command.
func (b *Book) UpsertSearchAttributes(attrs *commandpb.UpsertWorkflowSearchAttributesCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
		Attributes:  &commandpb.Command_UpsertWorkflowSearchAttributesCommandAttributes{UpsertWorkflowSearchAttributesCommandAttributes: attrs},
	})
}

// ModifyProperties adds a ModifyWorkflowProperties command (memo upsert).
func (b *Book) ModifyProperties(attrs *commandpb.ModifyWorkflowPropertiesCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES,
		Attributes:  &commandpb.Command_ModifyWorkflowPropertiesCommandAttributes{ModifyWorkflowPropertiesCommandAttributes: attrs},
	})
}

// CompleteWorkflow adds a CompleteWorkflowExecution command.
func (b *Book) CompleteWorkflow(attrs *commandpb.CompleteWorkflowExecutionCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION,
		Attributes:  &commandpb.Command_CompleteWorkflowExecutionCommandAttributes{CompleteWorkflowExecutionCommandAttributes: attrs},
	})
}

// FailWorkflow adds a FailWorkflowExecution command.
func (b *Book) FailWorkflow(attrs *commandpb.FailWorkflowExecutionCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION,
		Attributes:  &commandpb.Command_FailWorkflowExecutionCommandAttributes{FailWorkflowExecutionCommandAttributes: attrs},
	})
}

// CancelWorkflow adds a CancelWorkflowExecution command.
func (b *Book) CancelWorkflow(attrs *commandpb.CancelWorkflowExecutionCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION,
		Attributes:  &commandpb.Command_CancelWorkflowExecutionCommandAttributes{CancelWorkflowExecutionCommandAttributes: attrs},
	})
}

// ContinueAsNew adds a ContinueAsNewWorkflowExecution command.
func (b *Book) ContinueAsNew(attrs *commandpb.ContinueAsNewWorkflowExecutionCommandAttributes) *OneShot {
	return b.addOneShot(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION,
		Attributes:  &commandpb.Command_ContinueAsNewWorkflowExecutionCommandAttributes{ContinueAsNewWorkflowExecutionCommandAttributes: attrs},
	})
}
