package commands

import (
	"fmt"
	"strings"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
)

// ProtocolMessage is the machine of one ProtocolMessage command: it places
// an update's acceptance or completion message among the task's commands
// (go.temporal.io/sdk's flag 3). History records it with the message's
// event, WorkflowExecutionUpdateAccepted or WorkflowExecutionUpdateCompleted.
// Rejections are messages without a command, and leave no event.
type ProtocolMessage struct {
	st    State
	attrs *commandpb.ProtocolMessageCommandAttributes
}

// The message IDs of an update's answers end so: "<update ID>/accept",
// "<update ID>/complete", as go.temporal.io/sdk writes them.
const (
	acceptSuffix   = "/accept"
	completeSuffix = "/complete"
)

// The ProtocolMessage command and its events, for the Book. The command
// names the message; the event names the update and the kind of answer.
var protocolMessageKind = register(&Kind{
	Command:     enumspb.COMMAND_TYPE_PROTOCOL_MESSAGE,
	Recorded:    enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
	RecordedToo: []enumspb.EventType{enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED},
	Identity: []Field{{Name: "update message",
		InCommand: func(c *commandpb.Command) string { return c.GetProtocolMessageCommandAttributes().GetMessageId() },
		InEvent:   updateMessageOf,
	}},
	Describe: func(c *commandpb.Command) string {
		return fmt.Sprintf("message %q", c.GetProtocolMessageCommandAttributes().GetMessageId())
	},
	DescribeEvent: func(e *historypb.HistoryEvent) string { return fmt.Sprintf("update %q", updateIDOf(e)) },
})

// updateMessageOf is the ID of the message an update event records.
func updateMessageOf(e *historypb.HistoryEvent) string {
	switch e.GetEventType() {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
		return updateIDOf(e) + acceptSuffix
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED:
		return updateIDOf(e) + completeSuffix
	}
	return ""
}

func updateIDOf(e *historypb.HistoryEvent) string {
	if a := e.GetWorkflowExecutionUpdateAcceptedEventAttributes(); a != nil {
		return a.GetProtocolInstanceId()
	}
	return e.GetWorkflowExecutionUpdateCompletedEventAttributes().GetMeta().GetUpdateId()
}

// UpdateIDOfMessage is the update a message ID belongs to.
func UpdateIDOfMessage(messageID string) string {
	return strings.TrimSuffix(strings.TrimSuffix(messageID, acceptSuffix), completeSuffix)
}

// ProtocolMessageTable is the protocol message machine's transition table.
var ProtocolMessageTable = NewTable("protocol message",
	Row[*ProtocolMessage]{Created, InSent, CommandSent, nil},
	Row[*ProtocolMessage]{CommandSent, InInitiated, Initiated, nil},
)

// ProtocolMessage adds a ProtocolMessage command for the message with
// messageID.
func (b *Book) ProtocolMessage(messageID string) *ProtocolMessage {
	m := &ProtocolMessage{attrs: &commandpb.ProtocolMessageCommandAttributes{MessageId: messageID}}
	b.add(&commandpb.Command{
		CommandType: protocolMessageKind.Command,
		Attributes:  &commandpb.Command_ProtocolMessageCommandAttributes{ProtocolMessageCommandAttributes: m.attrs},
	}, m)
	return m
}

// State is where the message stands.
func (m *ProtocolMessage) State() State { return m.st }

func (m *ProtocolMessage) state() State { return m.st }

func (m *ProtocolMessage) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return ProtocolMessageTable.fire(m, &m.st, in, ev)
}

func (m *ProtocolMessage) describe() string {
	return fmt.Sprintf("update message %q", m.attrs.GetMessageId())
}
