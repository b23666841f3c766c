package testserver

import (
	"sync"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// clone copies a message that may hold payloads, keeping the data of
// each payload as it was: empty but not nil stays so. A copy by the
// protobuf rules (and the wire) makes an empty byte field nil, so that a
// workflow passing []byte{} to an activity or a mock would hand it nil;
// go.temporal.io/sdk's test environment hands payloads over without
// encoding them, and the slice arrives empty, as it was sent. (Workers on
// a server see nil, in both SDKs: compat's
// TestAnEmptyByteSliceArrivesAsOnGoTemporalIOSDK.)
func clone[T proto.Message](m T) T {
	c := proto.CloneOf(m)
	keepEmptyData(m.ProtoReflect(), c.ProtoReflect())
	return c
}

var payloadName = (&commonpb.Payload{}).ProtoReflect().Descriptor().FullName()

// keepEmptyData gives dst, a copy of src, the empty payload data that
// the copy made nil. It looks only at the fields that may hold a payload
// (most history events hold none).
func keepEmptyData(src, dst protoreflect.Message) {
	md := src.Descriptor()
	if md.FullName() == payloadName {
		p, ok := src.Interface().(*commonpb.Payload)
		if c, isPayload := dst.Interface().(*commonpb.Payload); ok && isPayload && p.Data != nil && len(p.Data) == 0 {
			c.Data = []byte{}
		}
		return
	}
	plan := payloadPlanOf(md)
	for _, fd := range plan.fields {
		if src.Has(fd) {
			keepEmptyDataIn(src, dst, fd)
		}
	}
	for _, od := range plan.oneofs {
		if fd := src.WhichOneof(od); fd != nil && plan.bearing[fd.Number()] {
			keepEmptyDataIn(src, dst, fd)
		}
	}
}

// keepEmptyDataIn does keepEmptyData for the message, list or map in
// field fd, which src has.
func keepEmptyDataIn(src, dst protoreflect.Message, fd protoreflect.FieldDescriptor) {
	switch v := src.Get(fd); {
	case fd.IsMap():
		to := dst.Get(fd).Map()
		v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
			keepEmptyData(mv.Message(), to.Get(k).Message())
			return true
		})
	case fd.IsList():
		from, to := v.List(), dst.Get(fd).List()
		for i := range from.Len() {
			keepEmptyData(from.Get(i).Message(), to.Get(i).Message())
		}
	default:
		keepEmptyData(v.Message(), dst.Get(fd).Message())
	}
}

// payloadPlan lists the fields of a message type that may hold a payload:
// fields outside oneofs, and oneofs with such members (bearing).
type payloadPlan struct {
	fields  []protoreflect.FieldDescriptor
	oneofs  []protoreflect.OneofDescriptor
	bearing map[protoreflect.FieldNumber]bool
}

// payloadPlans caches the plans, by message name.
var payloadPlans sync.Map

func payloadPlanOf(md protoreflect.MessageDescriptor) *payloadPlan {
	if p, ok := payloadPlans.Load(md.FullName()); ok {
		return p.(*payloadPlan)
	}
	plan := &payloadPlan{bearing: make(map[protoreflect.FieldNumber]bool)}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		m := fd.Message()
		if fd.IsMap() {
			m = fd.MapValue().Message()
		}
		if m == nil || !reachesPayload(m, map[protoreflect.FullName]bool{}) {
			continue
		}
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			if len(plan.oneofs) == 0 || plan.oneofs[len(plan.oneofs)-1] != od {
				plan.oneofs = append(plan.oneofs, od) // a oneof's fields are declared together
			}
			plan.bearing[fd.Number()] = true
			continue
		}
		plan.fields = append(plan.fields, fd)
	}
	payloadPlans.Store(md.FullName(), plan)
	return plan
}

// reachesPayload reports whether a message of type m can hold a Payload,
// itself or in a field, however deep; seen holds the types looked at.
func reachesPayload(m protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) bool {
	if m.FullName() == payloadName {
		return true
	}
	if seen[m.FullName()] {
		return false // looked at already: its fields decide there
	}
	seen[m.FullName()] = true
	fields := m.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.IsMap() {
			fd = fd.MapValue()
		}
		if fd.Message() != nil && reachesPayload(fd.Message(), seen) {
			return true
		}
	}
	return false
}
