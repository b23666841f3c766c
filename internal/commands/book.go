package commands

import (
	"fmt"
	"slices"
	"strconv"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
)

// Outcome is how a command ended: a result, or a failure to be turned into
// a Go error by the engine's failure converter.
type Outcome struct {
	Result  *commonpb.Payloads
	Failure *failurepb.Failure
}

// canceledOutcome is the outcome of a command that the workflow canceled.
func canceledOutcome(details *commonpb.Payloads) Outcome {
	return Outcome{Failure: &failurepb.Failure{
		Message:     "canceled",
		FailureInfo: &failurepb.Failure_CanceledFailureInfo{CanceledFailureInfo: &failurepb.CanceledFailureInfo{Details: details}},
	}}
}

// machine is what the Book needs of every command machine.
type machine interface {
	// describe names the machine for errors, e.g. `activity "5" (type Charge)`.
	describe() string
	// state is where the machine stands.
	state() State
	// fire applies an input; false means the table has no such transition.
	// The error is the transition action's.
	fire(in Input, ev *historypb.HistoryEvent) (bool, error)
}

// entry is one command in the outbox or in flight.
type entry struct {
	cmd     *commandpb.Command
	owner   machine
	dropped bool // withdrawn before it was sent
	// unmatched: history records it, but replay does not match it to an
	// event (version and mutable side effect markers, whose presence
	// depends on when the code first ran, as in go.temporal.io/sdk).
	unmatched bool
}

// commandLocations are LocateCommands' memory: locate names the workflow
// code producing a command, and of holds each machine's command and its
// location.
type commandLocations struct {
	locate func() string
	of     map[machine]located
}

// get returns m's command and location, if l has them; l may be nil.
func (l *commandLocations) get(m machine) (located, bool) {
	if l == nil {
		return located{}, false
	}
	v, ok := l.of[m]
	return v, ok
}

// located is a command and the workflow code location that produced it.
type located struct {
	cmd      *commandpb.Command
	location string
}

// Book keeps a workflow execution's command machines in command order.
//
// The engine drives it once per workflow task: BeginTask when it reaches the
// task's WorkflowTaskStarted event, then runs the workflow code (which adds
// commands), then TakeCommands when the task ends. Apply feeds it every
// history event that concerns commands.
type Book struct {
	outbox   []*entry // produced and not yet sent, in order
	inflight []*entry // sent and waiting for their event, in order

	// routes finds the machine of a follow-up event by the key the event
	// carries (see Kind.Follow).
	routes map[Key]machine
	// openChildren are the children started and not closed, by workflow ID.
	openChildren map[string]*ChildWorkflow

	// nextEventID predicts the history event ID of the next command's event;
	// it is also the sequence that names activities and timers, so that IDs
	// agree with histories written by other Go SDK workers.
	nextEventID int64
	// seqSkew is how far, in the task being made, go.temporal.io/sdk's
	// sequence counter (the IDs it derives from it: activity and timer
	// IDs, child workflow IDs, Control fields) runs ahead of the event IDs:
	// a Nexus operation canceled before it was sent writes no event, but
	// counts its command and its cancel request there.
	seqSkew int64
	// versionMarkers are version marker events known (from lookahead) to
	// come in the task being replayed, by event ID; true when an upsert of
	// the change-version search attribute follows the marker.
	versionMarkers map[int64]bool
	// readOnly: code that may not make commands runs (see ReadOnlyError).
	readOnly bool

	// locating, when set, remembers each machine's command and where the
	// workflow code made it, so that errors can say where it came from
	// (see LocateCommands); only the replayer asks, so it is not a field
	// of every cached run's Book.
	locating *commandLocations

	// groups are the event group markers of the workflow API call being
	// made (see SetEventGroups); nil, as it nearly always is, costs nothing.
	groups []*sdkpb.EventGroupMarker
}

// SetEventGroups sets the event group markers that the commands a workflow
// API call makes carry (Command.EventGroupMarkers, which the server copies
// to their events), as go.temporal.io/sdk sets them: on the command the call
// makes, and later on the command that cancels it. It returns the markers
// it replaces, for the caller to put back when its call returns. Protocol
// messages and the commands that close the run carry none (ContinueAsNew
// is given its own).
func (b *Book) SetEventGroups(markers []*sdkpb.EventGroupMarker) (previous []*sdkpb.EventGroupMarker) {
	previous, b.groups = b.groups, markers
	return previous
}

// EventGroups are the markers SetEventGroups set last.
func (b *Book) EventGroups() []*sdkpb.EventGroupMarker { return b.groups }

// SetReadOnly forbids (or allows again) new commands.
func (b *Book) SetReadOnly(readOnly bool) { b.readOnly = readOnly }

// NewBook returns an empty Book. Its maps are made when first written: a
// cached run keeps its Book for its whole life, and many runs never need
// some of them.
func NewBook() *Book { return &Book{} }

// put sets m[k] = v, making the map first if it is nil.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = make(map[K]V)
	}
	(*m)[k] = v
}

// LocateCommands makes the Book record, for every command, the workflow
// code location that locate returns, and put it in the errors it reports.
// A stack walk per command is too dear for every replay: the replayer
// turns it on only to explain a mismatch it has already found.
func (b *Book) LocateCommands(locate func() string) {
	b.locating = &commandLocations{locate: locate, of: make(map[machine]located)}
}

// BeginTask is called at a WorkflowTaskStarted event. The task's commands
// will be recorded after its WorkflowTaskCompleted event (startedEventID+1),
// in order; commands already produced before the event (by event callbacks)
// come first.
func (b *Book) BeginTask(startedEventID int64) {
	b.nextEventID = startedEventID + 2 + int64(b.pendingCount())
	b.seqSkew = 0
}

// ExpectVersionMarker tells the Book, ahead of replaying a task, that history
// holds a version marker at eventID (followed by a search attribute upsert
// when upserted is true). Such markers are skipped when predicting IDs.
func (b *Book) ExpectVersionMarker(eventID int64, upserted bool) {
	put(&b.versionMarkers, eventID, upserted)
}

// skipVersionMarkers advances the prediction past known version markers.
func (b *Book) skipVersionMarkers() {
	for {
		upserted, ok := b.versionMarkers[b.nextEventID]
		if !ok {
			return
		}
		delete(b.versionMarkers, b.nextEventID)
		b.nextEventID++
		if upserted {
			b.nextEventID++
		}
	}
}

// NextSeq returns the sequence number the next command will be known by,
// without consuming it: the IDs derived from it (activity and timer IDs,
// default child workflow IDs) are go.temporal.io/sdk's. It is the predicted
// event ID of the command's event, but after a Nexus operation taken back
// in the same task (see seqSkew).
func (b *Book) NextSeq() int64 { return b.nextEvent() + b.seqSkew }

// nextEvent returns the predicted event ID of the next command's event:
// the machines' own record of where their command goes.
func (b *Book) nextEvent() int64 {
	b.skipVersionMarkers()
	if b.nextEventID == 0 {
		panic("commands: a command was produced before the first WorkflowTaskStarted event")
	}
	return b.nextEventID
}

// locationOf is where the code made m's command, or "" when the Book does
// not locate commands.
func (b *Book) locationOf(m machine) string {
	l, _ := b.locating.get(m)
	return l.location
}

// add appends a command to the outbox and consumes one sequence number.
func (b *Book) add(cmd *commandpb.Command, owner machine) *entry {
	if b.readOnly {
		panic(&ReadOnlyError{Command: cmd})
	}
	b.skipVersionMarkers()
	e := &entry{cmd: cmd, owner: owner}
	if l := b.locating; l != nil {
		l.of[owner] = located{cmd: cmd, location: l.locate()}
	}
	b.outbox = append(b.outbox, e)
	b.nextEventID++
	return e
}

// pendingCount is the number of commands that will be sent.
func (b *Book) pendingCount() int {
	n := 0
	for _, e := range b.outbox {
		if !e.dropped {
			n++
		}
	}
	return n
}

// TakeCommands returns the commands produced since the last call, in order,
// and marks them sent: their events are expected next in history.
func (b *Book) TakeCommands() []*commandpb.Command {
	return b.send(make([]*commandpb.Command, 0, len(b.outbox)))
}

// SendRecorded marks the commands produced since the last call sent, as
// TakeCommands does, for a replayed task: history already records them.
func (b *Book) SendRecorded() { b.send(nil) }

// send marks the outbox's commands sent and appends them to cmds, unless
// cmds is nil.
func (b *Book) send(cmds []*commandpb.Command) []*commandpb.Command {
	for _, e := range b.outbox {
		if e.dropped {
			continue
		}
		if cmds != nil {
			cmds = append(cmds, e.cmd)
		}
		if !e.unmatched {
			b.inflight = append(b.inflight, e)
		}
		if ok, _ := e.owner.fire(InSent, nil); !ok {
			panic(fmt.Sprintf("commands: %s cannot be sent in state %v", e.owner.describe(), e.owner.state()))
		}
	}
	clear(b.outbox)
	b.outbox = b.outbox[:0]
	return cmds
}

// CheckAllMatched reports an error when commands sent earlier found no event
// in history: the code produced commands the recorded run did not. next is
// the first history event after the command events (nil at the end).
func (b *Book) CheckAllMatched(next *historypb.HistoryEvent) error {
	if len(b.inflight) == 0 {
		return nil
	}
	e := b.inflight[0]
	where := "history ends there"
	if next != nil {
		where = "history goes on with " + DescribeEvent(next)
	}
	return &NondeterminismError{
		Event:        next,
		Command:      e.cmd,
		Reason:       "the workflow code produced " + DescribeCommand(e.cmd) + ", but history has no event for it (" + where + ")",
		CodeLocation: b.locationOf(e.owner),
	}
}

// Apply feeds one history event to the machine it concerns. Events that
// record commands must match the oldest command in flight; follow-up
// events find their machine by the key they carry. Events no kind owns are
// not the Book's (handled is false).
func (b *Book) Apply(ev *historypb.HistoryEvent) (handled bool, err error) {
	if IsCommandEvent(ev.GetEventType()) {
		return true, b.applyCommandEvent(ev)
	}
	f := followerOf(ev.GetEventType())
	if f == nil {
		return false, nil
	}
	key := f.follow.Route(ev)
	m := b.routes[key]
	if m == nil && key == ignoreKey {
		return true, nil
	}
	if m == nil {
		return true, &NondeterminismError{Event: ev, Reason: "history has " + DescribeEvent(ev) + ", but the workflow code never produced the command it answers"}
	}
	return true, b.fire(m, f.follow.Input, ev)
}

// route makes key find m; unroute forgets it once m takes no more events.
func (b *Book) route(key Key, m machine) { put(&b.routes, key, m) }

// unroute forgets a route. The map stays, even empty, until Trim: a run
// that opens and closes one command after another (sequential activities)
// would otherwise make a new map for each.
func (b *Book) unroute(key Key) { delete(b.routes, key) }

// Trim drops what the Book holds only while it works: the route map, once
// no command is open. The engine calls it when it hands a task back, so
// that a run waiting in a cache with no command open keeps no map.
func (b *Book) Trim() {
	if len(b.routes) == 0 {
		b.routes = nil
	}
}

func (b *Book) fire(m machine, in Input, ev *historypb.HistoryEvent) error {
	ok, err := m.fire(in, ev)
	if !ok {
		return b.illegal(m, in, ev)
	}
	if nd, isND := err.(*NondeterminismError); isND && nd.Command == nil {
		// A transition's action found the mismatch: name m's command.
		if l, ok := b.locating.get(m); ok {
			nd.Command, nd.CodeLocation = l.cmd, l.location
		}
	}
	return err
}

// illegal is the error for an input m cannot take in its state.
func (b *Book) illegal(m machine, in Input, ev *historypb.HistoryEvent) *IllegalTransitionError {
	err := &IllegalTransitionError{Machine: m.describe(), State: m.state(), Input: in, Event: ev}
	if l, ok := b.locating.get(m); ok {
		err.Command, err.CodeLocation = l.cmd, l.location
	}
	return err
}

// withdraw takes back a command: unsent, it is not sent; sent, its event is
// no longer expected.
func (b *Book) withdraw(e *entry) {
	e.dropped = true
	if i := slices.Index(b.inflight, e); i >= 0 {
		b.inflight = slices.Delete(b.inflight, i, i+1)
	}
}

// eventShifter is a machine that knows the event ID its command will be
// recorded at, and can be told it moved.
type eventShifter interface {
	shiftEvent(delta int64)
}

// takeBack takes back e, a command not yet sent: it is not sent, and the
// commands made after it move up one event. go.temporal.io/sdk counts it
// and its (unsent) cancel request all the same (only a Nexus operation is
// taken back): the sequence numbers of the task's later commands run two
// ahead of their events.
func (b *Book) takeBack(e *entry) {
	i := slices.Index(b.outbox, e)
	if i < 0 {
		panic("commands: only a command not yet sent can be taken back")
	}
	for _, later := range b.outbox[i+1:] {
		if s, ok := later.owner.(eventShifter); ok && !later.dropped {
			s.shiftEvent(-1)
		}
	}
	b.outbox = slices.Delete(b.outbox, i, i+1)
	b.nextEventID--
	b.seqSkew += 2
	if b.locating != nil {
		delete(b.locating.of, e.owner)
	}
}

// applyCommandEvent matches ev to the oldest command in flight.
func (b *Book) applyCommandEvent(ev *historypb.HistoryEvent) error {
	if len(b.inflight) == 0 {
		return &NondeterminismError{Event: ev, Reason: "history has " + DescribeEvent(ev) + ", but the workflow code produced no command there"}
	}
	e := b.inflight[0]
	if why := mismatch(e.cmd, ev); why != "" {
		return &NondeterminismError{Event: ev, Command: e.cmd, Reason: why, CodeLocation: b.locationOf(e.owner)}
	}
	b.inflight[0] = nil
	if len(b.inflight) == 1 {
		// Keep the array: one command after another (sequential
		// activities) then needs no new one for each.
		b.inflight = b.inflight[:0]
	} else {
		b.inflight = b.inflight[1:]
	}
	err := b.fire(e.owner, InInitiated, ev)
	if nd, isND := err.(*NondeterminismError); isND && nd.Command == nil {
		nd.Command = e.cmd // the machine's own check found the mismatch
	}
	return err
}

// seqID formats a sequence number as the string IDs carry.
func seqID(n int64) string { return strconv.FormatInt(n, 10) }
