package commands

import (
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
)

func TestRegistryRoutesEveryKindsEvents(t *testing.T) {
	// Each command type the Book can produce has a kind, whose events the
	// Book owns; events of features without a kind are not the Book's.
	for _, c := range []struct {
		cmd      enumspb.CommandType
		recorded enumspb.EventType
	}{
		{enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK, enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED},
		{enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED},
		{enumspb.COMMAND_TYPE_START_TIMER, enumspb.EVENT_TYPE_TIMER_STARTED},
		{enumspb.COMMAND_TYPE_CANCEL_TIMER, enumspb.EVENT_TYPE_TIMER_CANCELED},
		{enumspb.COMMAND_TYPE_RECORD_MARKER, enumspb.EVENT_TYPE_MARKER_RECORDED},
		{enumspb.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES, enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES},
		{enumspb.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES, enumspb.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED},
		{enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED},
		{enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED},
		{enumspb.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED},
		{enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW},
		{enumspb.COMMAND_TYPE_SCHEDULE_NEXUS_OPERATION, enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED},
		{enumspb.COMMAND_TYPE_REQUEST_CANCEL_NEXUS_OPERATION, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED},
	} {
		k := kindOfCommand(c.cmd)
		if k == nil || k.Recorded != c.recorded || recordedKind(c.recorded) != k || !Owns(c.recorded) {
			t.Errorf("%v: kind %+v does not record it as %v", c.cmd, k, c.recorded)
		}
	}
	for _, ev := range []enumspb.EventType{enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED, enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
		enumspb.EVENT_TYPE_TIMER_FIRED, enumspb.EVENT_TYPE_NEXUS_OPERATION_STARTED, enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED,
		enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCELED, enumspb.EVENT_TYPE_NEXUS_OPERATION_TIMED_OUT,
		enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_COMPLETED, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_FAILED} {
		if followerOf(ev) == nil || IsCommandEvent(ev) {
			t.Errorf("%v must be a follow-up event", ev)
		}
	}
	for _, ev := range []enumspb.EventType{enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, enumspb.EventType(999), enumspb.EventType(-1)} {
		if Owns(ev) {
			t.Errorf("%v is the engine's, not the Book's", ev)
		}
	}
}

func TestTwoKindsCannotClaimOneEvent(t *testing.T) {
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "two kinds claim") {
			t.Fatalf("want a panic naming the clash, got %v", p)
		}
	}()
	// The timer's event again, under another command type.
	register(&Kind{Command: enumspb.CommandType(60), Recorded: enumspb.EVENT_TYPE_TIMER_STARTED})
}

func TestUnownedEventsAreNotTheBooks(t *testing.T) {
	b := NewBook()
	b.BeginTask(3)
	handled, err := b.Apply(&historypb.HistoryEvent{EventId: 5, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED})
	if handled || err != nil {
		t.Fatalf("an event no kind owns is left to the engine, got %v, %v", handled, err)
	}
}

// The package doc lists the machines by the commands they make: every
// command type a kind registers is named there.
func TestThePackageDocNamesEveryCommand(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), "fsm.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := file.Doc.Text()
	named := 0
	for _, k := range kindByCommand {
		if k == nil {
			continue
		}
		named++
		if !regexp.MustCompile(`\b` + k.Command.String() + `\b`).MatchString(doc) {
			t.Errorf("the package doc (fsm.go) does not name %s, a command of one of its machines", k.Command)
		}
	}
	if named < 15 {
		t.Errorf("%d kinds registered; the test expects the 15 command types of the machines", named)
	}
}
