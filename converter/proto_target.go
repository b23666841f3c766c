package converter

import (
	"fmt"
	"reflect"
	"sync"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
)

var protoMessageType = reflect.TypeFor[proto.Message]()

// asProtoMessage returns value as a proto message. A message struct passed
// by value (rare, but accepted by other Go SDK versions) is copied behind a
// pointer. The type check avoids that copy for the common non-proto case.
func asProtoMessage(value any) (proto.Message, bool) {
	if m, ok := value.(proto.Message); ok {
		return m, true
	}
	t := reflect.TypeOf(value)
	if t == nil || t.Kind() == reflect.Pointer || !pointerIsProtoMessage(t) {
		return nil, false
	}
	p := reflect.New(t)
	p.Elem().Set(reflect.ValueOf(value))
	return p.Interface().(proto.Message), true
}

// pointerIsProto caches pointerIsProtoMessage's answer per type.
var pointerIsProto sync.Map // reflect.Type -> bool

// pointerIsProtoMessage reports whether *t is a proto message. The answer
// is cached: reflect.PointerTo resolves *t through the runtime's type
// tables, and on a workflow's small coroutine stack (every activity's
// arguments pass through here) its frames grew the stack, a copy per
// workflow.
func pointerIsProtoMessage(t reflect.Type) bool {
	if is, ok := pointerIsProto.Load(t); ok {
		return is.(bool)
	}
	is := reflect.PointerTo(t).Implements(protoMessageType)
	pointerIsProto.Store(t, is)
	return is
}

// protoTarget returns the message that payload data should be decoded into:
// valuePtr itself (a *Msg), or the *Msg that valuePtr points to (a **Msg),
// allocated when nil.
func protoTarget(valuePtr any) (proto.Message, error) {
	target, err := settableTarget(valuePtr)
	if err != nil {
		return nil, err
	}
	switch target.Kind() {
	case reflect.Interface:
		return nil, fmt.Errorf("value type %s: %w", target.Type(), ErrValuePtrMustConcreteType)
	case reflect.Pointer:
		if !target.Type().Implements(protoMessageType) {
			return nil, fmt.Errorf("type %s: %w", target.Type(), ErrTypeNotImplementProtoMessage)
		}
		if target.IsNil() {
			target.Set(reflect.New(target.Type().Elem()))
		}
		return target.Interface().(proto.Message), nil
	default:
		if m, ok := valuePtr.(proto.Message); ok {
			return m, nil
		}
		return nil, fmt.Errorf("type %T: %w", valuePtr, ErrTypeNotImplementProtoMessage)
	}
}

// newProtoPayload builds a proto payload, naming the message type unless the
// converter was told not to.
func newProtoPayload(data []byte, encoding string, m proto.Message, excludeMessageType bool) *commonpb.Payload {
	p := newPayload(data, encoding)
	if !excludeMessageType {
		p.Metadata[MetadataMessageType] = []byte(m.ProtoReflect().Descriptor().FullName())
	}
	return p
}
