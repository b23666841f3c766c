package commands

import (
	"fmt"
	"strings"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
)

// Kind describes one command type to the Book. Each machine file declares
// the kinds it serves with register; the Book consults them, so nothing
// outside that file names the command's events.
type Kind struct {
	// Command is the command type; Recorded is the event type that records
	// it in history, or one of RecordedToo (a ProtocolMessage command is
	// recorded by the event of the message it carries).
	Command     enumspb.CommandType
	Recorded    enumspb.EventType
	RecordedToo []enumspb.EventType
	// Identity lists what must agree between a command and the event that
	// records it. Like go.temporal.io/sdk, identity (IDs, type names) is
	// compared, not every argument, so that changing an activity's input or
	// options does not break the replay of histories that recorded the old
	// ones.
	Identity []Field
	// Follow lists the later events of the command's machine.
	Follow []Follow
	// Describe renders what identifies a command of this kind, for errors:
	// `activity "5", type "Charge"`. Nil when the type name says enough.
	Describe func(*commandpb.Command) string
	// DescribeEvent does the same for the kind's events (Recorded and
	// Follow); nil when the event type says enough.
	DescribeEvent func(*historypb.HistoryEvent) string
}

// Field is one part of a command's identity, as the command and as its
// recorded event carry it.
type Field struct {
	Name      string // for messages: "activity type"
	InCommand func(*commandpb.Command) string
	InEvent   func(*historypb.HistoryEvent) string
	// Same compares the two values; nil means equal strings.
	Same func(inHistory, inCode string) bool
}

// Follow is an event that comes after the recorded event: which input it
// is to the machine, and the key by which it finds the machine.
type Follow struct {
	Event enumspb.EventType
	Input Input
	Route func(*historypb.HistoryEvent) Key
}

// Key finds the machine of a follow-up event: most events name their
// command by the ID of its recorded event (ID); timers by timer ID (Name).
type Key struct {
	ID   int64
	Name string
}

// ignoreKey is what a Follow's Route returns for an event that names no
// machine and that go.temporal.io/sdk ignores (a field older servers left
// out): the Book applies nothing.
var ignoreKey = Key{ID: -1, Name: "ignored"}

// follower is an event type's place in a kind.
type follower struct {
	kind   *Kind
	follow Follow
}

// The registry of kinds, filled by register as the package initializes and
// read-only afterwards. Arrays indexed by enum value keep the lookups on
// the replay path to an index.
var (
	kindByCommand [64]*Kind
	kindByEvent   [128]*Kind // by Recorded event type
	followByEvent [128]*follower
)

// register adds a kind to the registry; machine files call it in their
// variable declarations. It panics when two kinds claim one command or
// event type, since kinds are static program text.
func register(k *Kind) *Kind {
	recorded := append([]enumspb.EventType{k.Recorded}, k.RecordedToo...)
	clash := kindByCommand[k.Command] != nil
	for _, t := range recorded {
		clash = clash || kindByEvent[t] != nil || followByEvent[t] != nil
	}
	for _, f := range k.Follow {
		clash = clash || kindByEvent[f.Event] != nil || followByEvent[f.Event] != nil
	}
	if clash {
		panic(fmt.Sprintf("commands: two kinds claim %v or its events", k.Command))
	}
	kindByCommand[k.Command] = k
	for _, t := range recorded {
		kindByEvent[t] = k
	}
	for _, f := range k.Follow {
		followByEvent[f.Event] = &follower{kind: k, follow: f}
	}
	return k
}

func inRange[T ~int32](v T, n int) bool { return v >= 0 && int(v) < n }

// kindOfCommand is the kind of a command type, or nil.
func kindOfCommand(t enumspb.CommandType) *Kind {
	if !inRange(t, len(kindByCommand)) {
		return nil
	}
	return kindByCommand[t]
}

// recordedKind is the kind whose commands ev records, or nil.
func recordedKind(t enumspb.EventType) *Kind {
	if !inRange(t, len(kindByEvent)) {
		return nil
	}
	return kindByEvent[t]
}

// followerOf is the kind and route of a follow-up event, or nil.
func followerOf(t enumspb.EventType) *follower {
	if !inRange(t, len(followByEvent)) {
		return nil
	}
	return followByEvent[t]
}

// Owns reports whether an event type belongs to a command kind: the Book
// takes it. Events no kind owns are the engine's to handle.
func Owns(t enumspb.EventType) bool { return recordedKind(t) != nil || followerOf(t) != nil }

// IsCommandEvent reports whether an event type records a command.
func IsCommandEvent(t enumspb.EventType) bool { return recordedKind(t) != nil }

// mismatch returns why ev cannot be the event that records cmd, or "" when
// it is.
func mismatch(cmd *commandpb.Command, ev *historypb.HistoryEvent) string {
	k := kindOfCommand(cmd.GetCommandType())
	if k == nil || recordedKind(ev.GetEventType()) != k {
		return fmt.Sprintf("history has %s, but the workflow code produced %s at that point",
			DescribeEvent(ev), DescribeCommand(cmd))
	}
	for _, f := range k.Identity {
		inHistory, inCode := f.InEvent(ev), f.InCommand(cmd)
		same := inHistory == inCode
		if f.Same != nil {
			same = f.Same(inHistory, inCode)
		}
		if !same {
			return fmt.Sprintf("history has %s, but the workflow code produced %s: the %s differs (%q in history, %q in code)",
				DescribeEvent(ev), DescribeCommand(cmd), f.Name, inHistory, inCode)
		}
	}
	return ""
}

// sameTypeName compares registered names, ignoring a package path
// ("main.Charge" and "Charge" name the same function), as names derived
// from functions do.
func sameTypeName(a, b string) bool { return lastPart(a) == lastPart(b) }

func lastPart(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

// DescribeEvent renders an event for people: its ID, type and identity.
func DescribeEvent(ev *historypb.HistoryEvent) string {
	if ev == nil {
		return "the end of history"
	}
	s := fmt.Sprintf("event %d %s", ev.GetEventId(), ev.GetEventType())
	k := recordedKind(ev.GetEventType())
	if k == nil {
		if f := followerOf(ev.GetEventType()); f != nil {
			k = f.kind
		}
	}
	if k != nil && k.DescribeEvent != nil {
		s += " (" + k.DescribeEvent(ev) + ")"
	}
	return s
}

// DescribeCommand renders a command for people: its type and identity.
func DescribeCommand(cmd *commandpb.Command) string {
	if cmd == nil {
		return "no command"
	}
	name := cmd.GetCommandType().String() // the API renders it as "ScheduleActivityTask"
	if k := kindOfCommand(cmd.GetCommandType()); k != nil && k.Describe != nil {
		return name + " (" + k.Describe(cmd) + ")"
	}
	return name
}
