package historyfuzz

import (
	"slices"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Edits, one per opcode byte of a fuzz input; their arguments follow it:
// an event index (two bytes, modulo the number of events), and for some a
// second index or a value. An input past its end reads as zeros, so every
// input is a valid list of edits.
const (
	OpDrop              = iota // an event is lost
	OpDuplicate                // an event is delivered twice
	OpSwap                     // two events change places
	OpClearAttributes          // an event loses all its attributes
	OpChangeType               // an event's type changes, its attributes stay
	OpCorruptPayloads          // an event's payloads are damaged
	OpSetID                    // an event's ID goes out of sequence
	OpTruncate                 // history ends early
	OpRenumber                 // IDs are made contiguous again, after drops and duplicates
	OpClearField               // one field, anywhere in an event, is cleared
	OpSetField                 // one scalar field gets another value
	OpForeignAttributes        // an event gets the attributes of another event
	numOps
)

// SeedEdits are one of each edit, for the seed corpus: each is a list of
// opcodes and arguments as the fuzzer would write them.
var SeedEdits = [][]byte{
	{OpDrop, 0, 5},
	{OpDrop, 0, 5, OpRenumber},
	{OpDuplicate, 0, 6},
	{OpDuplicate, 0, 6, OpRenumber},
	{OpSwap, 0, 5, 0, 6},
	{OpSwap, 0, 5, 0, 7, OpRenumber},
	{OpClearAttributes, 0, 4},
	{OpClearAttributes, 0, 0},
	{OpChangeType, 0, 5, 0, 10},
	{OpChangeType, 0, 2, 0, 200}, // a type no server writes
	{OpCorruptPayloads, 0, 0, 1},
	{OpCorruptPayloads, 0, 9, 2},
	{OpSetID, 0, 6, 0, 60},
	{OpTruncate, 0, 3},
	{OpTruncate, 0, 7},
	{OpClearField, 0, 5, 0, 3},
	{OpSetField, 0, 5, 0, 1, 7},
	{OpForeignAttributes, 0, 4, 0, 5},
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

// Edit applies the edits in input to a copy of events.
func Edit(events []*historypb.HistoryEvent, input []byte) []*historypb.HistoryEvent {
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
		case OpDrop:
			evs = slices.Delete(evs, i, i+1)
		case OpDuplicate:
			evs = slices.Insert(evs, i+1, proto.Clone(evs[i]).(*historypb.HistoryEvent))
		case OpSwap:
			j := r.intn(len(evs))
			evs[i], evs[j] = evs[j], evs[i]
		case OpClearAttributes:
			evs[i].Attributes = nil
		case OpChangeType:
			// Beyond the last known type too: a newer server's events.
			evs[i].EventType = enumspb.EventType(r.intn(len(enumspb.EventType_name) + 8))
		case OpCorruptPayloads:
			corruptPayloads(evs[i], r.byte())
		case OpSetID:
			evs[i].EventId = int64(r.intn(1<<16)) - 8
		case OpTruncate:
			evs = evs[:i]
		case OpRenumber:
			for k, ev := range evs {
				ev.EventId = int64(k + 1)
			}
		case OpClearField, OpSetField:
			fields := setFields(evs[i].ProtoReflect(), nil)
			if len(fields) == 0 {
				break
			}
			f := fields[r.intn(len(fields))]
			if op == OpClearField {
				f.msg.Clear(f.fd)
			} else {
				setField(f, r.byte())
			}
		case OpForeignAttributes:
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
