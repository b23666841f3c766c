package worker_test

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/durable-go/sdk/client"
)

// This file is what the history fuzz targets share: the recorded
// histories they start from, and edits that damage a history the ways a
// buggy server, a broken store or a hostile peer could.

// fuzzFixtures are the recorded histories small enough to replay many
// times a second (sequential1000 and pingpong20000 take milliseconds to
// seconds each and teach the fuzzer nothing the small ones do not).
var fuzzFixtures = []string{
	"activities.json", "timers.json", "signals.json", "sideeffects.json",
	"mutablesideeffects.json", "versions.json", "continueasnew-run1.json",
	"continueasnew-run2.json", "continueasnew-run3.json", "sequential3.json",
	"pingpong10.json",
}

func loadFuzzFixtures(tb testing.TB) []*historypb.History {
	tb.Helper()
	var hs []*historypb.History
	for _, name := range fuzzFixtures {
		f, err := os.Open(filepath.Join(fixtures, name))
		if err != nil {
			tb.Fatal(err)
		}
		h, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
		f.Close()
		if err != nil {
			tb.Fatal(err)
		}
		hs = append(hs, h)
	}
	return hs
}

// Edits, one per opcode byte; their arguments follow in the input.
const (
	opDrop              = iota // an event is lost
	opDuplicate                // an event is delivered twice
	opSwap                     // two events change places
	opClearAttributes          // an event loses all its attributes
	opChangeType               // an event's type changes, its attributes stay
	opCorruptPayloads          // an event's payloads are damaged
	opSetID                    // an event's ID goes out of sequence
	opTruncate                 // history ends early
	opRenumber                 // IDs are made contiguous again, after drops and duplicates
	opClearField               // one field, anywhere in an event, is cleared
	opSetField                 // one scalar field gets another value
	opForeignAttributes        // an event gets the attributes of another event
	numOps
)

// seedEdits are one of each edit, for the seed corpus: each is a list of
// opcodes and arguments as the fuzzer would write them.
var seedEdits = [][]byte{
	{opDrop, 0, 5},
	{opDrop, 0, 5, opRenumber},
	{opDuplicate, 0, 6},
	{opDuplicate, 0, 6, opRenumber},
	{opSwap, 0, 5, 0, 6},
	{opSwap, 0, 5, 0, 7, opRenumber},
	{opClearAttributes, 0, 4},
	{opClearAttributes, 0, 0},
	{opChangeType, 0, 5, 0, 10},
	{opChangeType, 0, 2, 0, 200}, // a type no server writes
	{opCorruptPayloads, 0, 0, 1},
	{opCorruptPayloads, 0, 9, 2},
	{opSetID, 0, 6, 0, 60},
	{opTruncate, 0, 3},
	{opTruncate, 0, 7},
	{opClearField, 0, 5, 0, 3},
	{opSetField, 0, 5, 0, 1, 7},
	{opForeignAttributes, 0, 4, 0, 5},
}

// editReader hands out the fuzz input as edit arguments; past its end it
// gives zeros, so every input is a valid list of edits.
type editReader struct{ b []byte }

func (r *editReader) done() bool { return len(r.b) == 0 }

func (r *editReader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// intn reads two bytes as a number below n (0 when n is 0).
func (r *editReader) intn(n int) int {
	v := int(r.byte())<<8 | int(r.byte())
	if n <= 0 {
		return 0
	}
	return v % n
}

// editHistory applies the edits in input to a copy of events.
func editHistory(events []*historypb.HistoryEvent, input []byte) []*historypb.HistoryEvent {
	evs := make([]*historypb.HistoryEvent, len(events))
	for i, ev := range events {
		evs[i] = proto.Clone(ev).(*historypb.HistoryEvent)
	}
	r := &editReader{b: input}
	for edits := 0; !r.done() && edits < 32; edits++ {
		op := r.byte() % numOps
		if len(evs) == 0 {
			break
		}
		i := r.intn(len(evs))
		switch op {
		case opDrop:
			evs = slices.Delete(evs, i, i+1)
		case opDuplicate:
			evs = slices.Insert(evs, i+1, proto.Clone(evs[i]).(*historypb.HistoryEvent))
		case opSwap:
			j := r.intn(len(evs))
			evs[i], evs[j] = evs[j], evs[i]
		case opClearAttributes:
			evs[i].Attributes = nil
		case opChangeType:
			// Beyond the last known type too: a newer server's events.
			evs[i].EventType = enumspb.EventType(r.intn(len(enumspb.EventType_name) + 8))
		case opCorruptPayloads:
			corruptPayloads(evs[i], r.byte())
		case opSetID:
			evs[i].EventId = int64(r.intn(1<<16)) - 8
		case opTruncate:
			evs = evs[:i]
		case opRenumber:
			for k, ev := range evs {
				ev.EventId = int64(k + 1)
			}
		case opClearField, opSetField:
			fields := setFields(evs[i].ProtoReflect(), nil)
			if len(fields) == 0 {
				break
			}
			f := fields[r.intn(len(fields))]
			if op == opClearField {
				f.msg.Clear(f.fd)
			} else {
				setField(f, r.byte())
			}
		case opForeignAttributes:
			j := r.intn(len(evs))
			evs[i].Attributes = proto.Clone(evs[j]).(*historypb.HistoryEvent).Attributes
		}
	}
	return evs
}

// field is one populated field of a message inside an event.
type field struct {
	msg protoreflect.Message
	fd  protoreflect.FieldDescriptor
}

// setFields lists the populated fields of m and of the messages in it,
// depth first.
func setFields(m protoreflect.Message, out []field) []field {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		out = append(out, field{m, fd})
		switch {
		case fd.IsList() && fd.Message() != nil:
			for k := range v.List().Len() {
				out = setFields(v.List().Get(k).Message(), out)
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				out = setFields(mv.Message(), out)
				return true
			})
		case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
			out = setFields(v.Message(), out)
		}
		return true
	})
	return out
}

// fuzzStrings are the values a string field may take: names the fixture
// workflows use, numbers that look like IDs, and nothing.
var fuzzStrings = []string{"", "x", "1", "5", "Greet", "Shout", "Increment", "add", "step-2", "config",
	"json/plain", "binary/null", "TemporalChangeVersion", "Version", "SideEffect", "MutableSideEffect", "LocalActivity"}

// setField gives one populated field another value of its own kind.
func setField(f field, b byte) {
	fd := f.fd
	if fd.IsList() || fd.IsMap() {
		f.msg.Clear(fd) // an empty list or map is as interesting as a shorter one
		return
	}
	delta := int64(int8(b)) // small changes around the old value, either way
	old := f.msg.Get(fd)
	var v protoreflect.Value
	switch fd.Kind() {
	case protoreflect.BoolKind:
		v = protoreflect.ValueOfBool(!old.Bool())
	case protoreflect.EnumKind:
		v = protoreflect.ValueOfEnum(protoreflect.EnumNumber(int64(old.Enum()) + delta))
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		v = protoreflect.ValueOfInt32(int32(old.Int() + delta))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		v = protoreflect.ValueOfInt64(old.Int() + delta)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		v = protoreflect.ValueOfUint32(uint32(int64(old.Uint()) + delta))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		v = protoreflect.ValueOfUint64(uint64(int64(old.Uint()) + delta))
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		v = protoreflect.ValueOfFloat64(old.Float() + float64(delta))
	case protoreflect.StringKind:
		v = protoreflect.ValueOfString(fuzzStrings[int(b)%len(fuzzStrings)])
	case protoreflect.BytesKind:
		v = protoreflect.ValueOfBytes(damage(old.Bytes(), b))
	default: // a message
		f.msg.Clear(fd)
		return
	}
	f.msg.Set(fd, v)
}

// damage returns a copy of data with one byte changed or the tail cut off,
// never longer: a damaged number in a payload stays as small as it was, so
// a workflow's loop bound cannot grow past what the fixture recorded.
func damage(data []byte, b byte) []byte {
	if len(data) == 0 {
		return []byte{b}
	}
	out := slices.Clone(data)
	if b&1 == 0 {
		return out[:int(b>>1)%len(out)]
	}
	out[int(b>>1)%len(out)] ^= 0x5a
	return out
}

// corruptPayloads damages every payload in ev: its data, or its encoding.
func corruptPayloads(ev *historypb.HistoryEvent, b byte) {
	visitPayloads(ev.ProtoReflect(), func(p *commonpb.Payload) {
		switch b % 3 {
		case 0:
			p.Data = damage(p.Data, b)
		case 1:
			p.Metadata = nil
		case 2:
			p.Metadata = map[string][]byte{"encoding": []byte("binary/unknown")}
		}
	})
}

var payloadName = (&commonpb.Payload{}).ProtoReflect().Descriptor().FullName()

func visitPayloads(m protoreflect.Message, visit func(*commonpb.Payload)) {
	if m.Descriptor().FullName() == payloadName {
		visit(m.Interface().(*commonpb.Payload))
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			for k := range v.List().Len() {
				visitPayloads(v.List().Get(k).Message(), visit)
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				visitPayloads(mv.Message(), visit)
				return true
			})
		case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
			visitPayloads(v.Message(), visit)
		}
		return true
	})
}

// namesEvent matches what an error must say about where history went
// wrong: an event by its ID, or the event the history lacks.
var namesEvent = regexp.MustCompile(`events? -?\d+|WorkflowExecutionStarted event|history has no event|no WorkflowExecutionStarted`)

// requireEventInError fails t when err does not say which event it is about.
func requireEventInError(t *testing.T, err error) {
	t.Helper()
	if err != nil && !namesEvent.MatchString(err.Error()) {
		t.Fatalf("the error does not name the event it is about:\n%v", err)
	}
}

// runBounded runs fn and fails t if it does not return within limit.
func runBounded(t *testing.T, limit time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		buf := make([]byte, 1<<20)
		t.Fatalf("still running after %v; goroutines:\n%s", limit, buf[:runtime.Stack(buf, true)])
	}
}

// requireNoGoroutineLeak fails t unless the goroutine count comes back to
// at most before within a second: goroutines of finished work may take a
// moment to exit, leaked ones never do.
func requireNoGoroutineLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before: leaked\n%s", runtime.NumGoroutine(), before,
				strings.TrimSpace(string(buf[:runtime.Stack(buf, true)])))
		}
		time.Sleep(time.Millisecond)
	}
}
