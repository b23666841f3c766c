package converter

import (
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
)

// The gRPC interceptors find payloads and failures by walking request and
// response messages with proto reflection, so that they need no generated
// visitor per service message.

// protoVisitor is told about every payload list and failure in a message.
// Either function may be nil.
type protoVisitor struct {
	// payloads replaces a list of payloads; it must return as many as given.
	payloads func([]*commonpb.Payload) ([]*commonpb.Payload, error)
	// failure may change a failure in place; its causes are visited after it.
	failure func(*failurepb.Failure) error
}

var (
	payloadName          = (&commonpb.Payload{}).ProtoReflect().Descriptor().FullName()
	payloadsName         = (&commonpb.Payloads{}).ProtoReflect().Descriptor().FullName()
	failureName          = (&failurepb.Failure{}).ProtoReflect().Descriptor().FullName()
	searchAttributesName = (&commonpb.SearchAttributes{}).ProtoReflect().Descriptor().FullName()
	anyName              = (&anypb.Any{}).ProtoReflect().Descriptor().FullName()
)

// visitProto walks msg, which may be any proto message.
func (v *protoVisitor) visitProto(msg proto.Message) error {
	return v.visitMessage(msg.ProtoReflect())
}

func (v *protoVisitor) visitMessage(m protoreflect.Message) error {
	switch m.Descriptor().FullName() {
	case searchAttributesName:
		return nil // the server indexes these: never encode them
	case payloadsName:
		return v.visitPayloads(m)
	case failureName:
		if v.failure != nil {
			if f, ok := m.Interface().(*failurepb.Failure); ok {
				if err := v.failure(f); err != nil {
					return err
				}
			}
		}
	case anyName:
		return v.visitAny(m)
	}
	// Replacements are applied after Range, which forbids setting fields
	// while it iterates.
	var err error
	var replaced []fieldReplacement
	m.Range(func(fd protoreflect.FieldDescriptor, value protoreflect.Value) bool {
		if fd.Message() == nil {
			return true
		}
		switch {
		case fd.IsList():
			err = v.visitList(value.List())
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				err = v.visitMap(value.Map())
			}
		case fd.Message().FullName() == payloadName:
			var p *commonpb.Payload
			if p, err = v.visitSinglePayload(value.Message()); p != nil {
				replaced = append(replaced, fieldReplacement{fd, p})
			}
		default:
			err = v.visitMessage(value.Message())
		}
		return err == nil
	})
	for _, r := range replaced {
		m.Set(r.field, protoreflect.ValueOfMessage(r.payload.ProtoReflect()))
	}
	return err
}

type fieldReplacement struct {
	field   protoreflect.FieldDescriptor
	payload *commonpb.Payload
}

func (v *protoVisitor) visitList(list protoreflect.List) error {
	for i := 0; i < list.Len(); i++ {
		m := list.Get(i).Message()
		if m.Descriptor().FullName() != payloadName {
			if err := v.visitMessage(m); err != nil {
				return err
			}
			continue
		}
		replaced, err := v.visitSinglePayload(m)
		if err != nil {
			return err
		}
		if replaced != nil {
			list.Set(i, protoreflect.ValueOfMessage(replaced.ProtoReflect()))
		}
	}
	return nil
}

func (v *protoVisitor) visitMap(entries protoreflect.Map) error {
	var err error
	type entry struct {
		key     protoreflect.MapKey
		payload *commonpb.Payload
	}
	var replaced []entry
	entries.Range(func(key protoreflect.MapKey, value protoreflect.Value) bool {
		m := value.Message()
		if m.Descriptor().FullName() != payloadName {
			err = v.visitMessage(m)
			return err == nil
		}
		var p *commonpb.Payload
		if p, err = v.visitSinglePayload(m); p != nil {
			replaced = append(replaced, entry{key, p})
		}
		return err == nil
	})
	for _, e := range replaced {
		entries.Set(e.key, protoreflect.ValueOfMessage(e.payload.ProtoReflect()))
	}
	return err
}

// visitSinglePayload returns the replacement of one payload, or nil when
// payloads are not visited.
func (v *protoVisitor) visitSinglePayload(m protoreflect.Message) (*commonpb.Payload, error) {
	p, ok := m.Interface().(*commonpb.Payload)
	if v.payloads == nil || !ok {
		return nil, nil
	}
	result, err := v.payloads([]*commonpb.Payload{p})
	if err != nil {
		return nil, err
	}
	if len(result) != 1 {
		return nil, fmt.Errorf("payload visitor returned %d payloads for 1", len(result))
	}
	return result[0], nil
}

func (v *protoVisitor) visitPayloads(m protoreflect.Message) error {
	ps, ok := m.Interface().(*commonpb.Payloads)
	if v.payloads == nil || !ok || len(ps.Payloads) == 0 {
		return nil
	}
	result, err := v.payloads(ps.Payloads)
	if err != nil {
		return err
	}
	if len(result) != len(ps.Payloads) {
		return fmt.Errorf("payload visitor returned %d payloads for %d", len(result), len(ps.Payloads))
	}
	ps.Payloads = result
	return nil
}

// visitAny unpacks a known message type, visits it and packs it again.
// Unknown types cannot hold anything we know how to find, so are skipped.
func (v *protoVisitor) visitAny(m protoreflect.Message) error {
	a, ok := m.Interface().(*anypb.Any)
	if !ok {
		return nil
	}
	inner, err := a.UnmarshalNew()
	if err != nil {
		return nil
	}
	if err := v.visitProto(inner); err != nil {
		return err
	}
	return a.MarshalFrom(inner)
}

// visitStatusError visits the details of a gRPC status error (query
// failures carry payloads there) and returns the error rebuilt from them.
func (v *protoVisitor) visitStatusError(err error) error {
	s, ok := status.FromError(err)
	if !ok || len(s.Proto().GetDetails()) == 0 {
		return err
	}
	sp := s.Proto()
	for _, detail := range sp.Details {
		if visitErr := v.visitAny(detail.ProtoReflect()); visitErr != nil {
			return visitErr
		}
	}
	return status.ErrorProto(sp)
}
