package converter

import (
	"context"
	"errors"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// PayloadCodecGRPCClientInterceptorOptions configures
// NewPayloadCodecGRPCClientInterceptor.
type PayloadCodecGRPCClientInterceptorOptions struct {
	// Codecs applied to every payload of requests and responses.
	Codecs []PayloadCodec
}

// NewPayloadCodecGRPCClientInterceptor returns a gRPC client interceptor that
// encodes the payloads of outgoing requests and decodes those of responses
// with the given codecs, as a CodecDataConverter with the same codecs would.
// Search attributes are left alone: the server must read them. Put it after
// NewFailureGRPCClientInterceptor in an interceptor chain, so that encoded
// failure attributes are then encoded by the codecs. Context-aware
// converters get no workflow context this way.
func NewPayloadCodecGRPCClientInterceptor(options PayloadCodecGRPCClientInterceptorOptions) (grpc.UnaryClientInterceptor, error) {
	codecs := options.Codecs
	outbound := &protoVisitor{payloads: func(p []*commonpb.Payload) ([]*commonpb.Payload, error) {
		return encodeWithCodecs(codecs, p)
	}}
	inbound := &protoVisitor{payloads: func(p []*commonpb.Payload) ([]*commonpb.Payload, error) {
		return decodeWithCodecs(codecs, p)
	}}
	return visitingInterceptor(outbound, inbound), nil
}

// NewFailureGRPCClientInterceptorOptions configures NewFailureGRPCClientInterceptor.
type NewFailureGRPCClientInterceptorOptions struct {
	// DataConverter encodes the attributes; the default one when nil.
	DataConverter DataConverter
	// EncodeCommonAttributes must be true: encoding them is what the
	// interceptor does.
	EncodeCommonAttributes bool
}

// NewFailureGRPCClientInterceptor returns a gRPC client interceptor that
// applies EncodeCommonFailureAttributes to every failure in outgoing requests
// and DecodeCommonFailureAttributes to every failure in responses, as a
// failure converter with EncodeCommonAttributes would.
func NewFailureGRPCClientInterceptor(options NewFailureGRPCClientInterceptorOptions) (grpc.UnaryClientInterceptor, error) {
	if !options.EncodeCommonAttributes {
		return nil, errors.New("converter: NewFailureGRPCClientInterceptor requires EncodeCommonAttributes to be set")
	}
	dc := options.DataConverter
	if dc == nil {
		dc = GetDefaultDataConverter()
	}
	outbound := &protoVisitor{failure: func(f *failurepb.Failure) error {
		return EncodeCommonFailureAttributes(dc, f)
	}}
	inbound := &protoVisitor{failure: func(f *failurepb.Failure) error {
		DecodeCommonFailureAttributes(dc, f)
		return nil
	}}
	return visitingInterceptor(outbound, inbound), nil
}

// visitingInterceptor visits the request before sending it, and the response
// and any error details after.
func visitingInterceptor(outbound, inbound *protoVisitor) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if msg, ok := req.(proto.Message); ok {
			if err := outbound.visitProto(msg); err != nil {
				return err
			}
		}
		err := invoker(ctx, method, req, reply, cc, opts...)
		if err != nil {
			return inbound.visitStatusError(err)
		}
		if msg, ok := reply.(proto.Message); ok {
			return inbound.visitProto(msg)
		}
		return nil
	}
}
