package converter

import (
	"context"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

func jsonPayload(s string) *commonpb.Payload {
	return newPayload([]byte(`"`+s+`"`), MetadataEncodingJSON)
}

// startedEvent has payloads in every place the interceptor must find them:
// a Payloads field, Payload maps, a failure with details and a cause, and
// search attributes, which it must leave alone.
func startedEvent() *historypb.WorkflowExecutionStartedEventAttributes {
	return &historypb.WorkflowExecutionStartedEventAttributes{
		Input:            &commonpb.Payloads{Payloads: []*commonpb.Payload{jsonPayload("in1"), jsonPayload("in2")}},
		Memo:             &commonpb.Memo{Fields: map[string]*commonpb.Payload{"m": jsonPayload("memo")}},
		Header:           &commonpb.Header{Fields: map[string]*commonpb.Payload{"h": jsonPayload("header")}},
		SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{"sa": jsonPayload("kw")}},
		ContinuedFailure: &failurepb.Failure{
			Message: "outer",
			FailureInfo: &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{
				Details: &commonpb.Payloads{Payloads: []*commonpb.Payload{jsonPayload("detail")}},
			}},
			Cause: &failurepb.Failure{Message: "inner", EncodedAttributes: jsonPayload("attrs")},
		},
	}
}

func TestPayloadCodecInterceptor(t *testing.T) {
	interceptor, err := NewPayloadCodecGRPCClientInterceptor(PayloadCodecGRPCClientInterceptorOptions{
		Codecs: []PayloadCodec{&markerCodec{name: "m"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	req := startedEvent()
	reply := &historypb.WorkflowExecutionStartedEventAttributes{}
	invoker := func(_ context.Context, _ string, req, reply any, _ *grpc.ClientConn, _ ...grpc.CallOption) error {
		sent := req.(*historypb.WorkflowExecutionStartedEventAttributes)
		for _, p := range []*commonpb.Payload{
			sent.Input.Payloads[0], sent.Input.Payloads[1], sent.Memo.Fields["m"], sent.Header.Fields["h"],
			sent.ContinuedFailure.GetApplicationFailureInfo().Details.Payloads[0],
			sent.ContinuedFailure.Cause.EncodedAttributes,
		} {
			if encodingOf(p) != "marker/m" {
				t.Errorf("payload not encoded: %v", p)
			}
		}
		if encodingOf(sent.SearchAttributes.IndexedFields["sa"]) != MetadataEncodingJSON {
			t.Error("search attribute encoded")
		}
		// The "server" answers with what it received.
		proto.Merge(reply.(proto.Message), sent)
		return nil
	}
	if err := interceptor(context.Background(), "/m", req, reply, nil, invoker); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(reply, startedEvent()) {
		t.Errorf("reply not decoded back:\n%v\nwant\n%v", reply, startedEvent())
	}
}

func TestPayloadCodecInterceptorVisitsAnyAndStatusDetails(t *testing.T) {
	interceptor, _ := NewPayloadCodecGRPCClientInterceptor(PayloadCodecGRPCClientInterceptorOptions{
		Codecs: []PayloadCodec{&markerCodec{name: "m"}},
	})
	encoded, _ := (&markerCodec{name: "m"}).Encode([]*commonpb.Payload{jsonPayload("x")})
	inAny, _ := anypb.New(&commonpb.Payloads{Payloads: encoded})
	reply := &spb.Status{Details: []*anypb.Any{inAny}}
	ok := func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error { return nil }
	if err := interceptor(context.Background(), "/m", &spb.Status{}, reply, nil, ok); err != nil {
		t.Fatal(err)
	}
	var got commonpb.Payloads
	if err := reply.Details[0].UnmarshalTo(&got); err != nil || !proto.Equal(got.Payloads[0], jsonPayload("x")) {
		t.Errorf("Any content = %v, %v", &got, err)
	}

	failing := func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error {
		st, _ := status.New(codes.InvalidArgument, "query failed").WithDetails(&commonpb.Payloads{Payloads: encoded})
		return st.Err()
	}
	err := interceptor(context.Background(), "/m", &spb.Status{}, &spb.Status{}, nil, failing)
	st, _ := status.FromError(err)
	if st.Code() != codes.InvalidArgument || len(st.Details()) != 1 ||
		!proto.Equal(st.Details()[0].(*commonpb.Payloads).Payloads[0], jsonPayload("x")) {
		t.Errorf("status error not decoded: %v %v", err, st.Details())
	}
}

func TestFailureInterceptor(t *testing.T) {
	if _, err := NewFailureGRPCClientInterceptor(NewFailureGRPCClientInterceptorOptions{}); err == nil {
		t.Error("interceptor created without EncodeCommonAttributes")
	}
	interceptor, err := NewFailureGRPCClientInterceptor(NewFailureGRPCClientInterceptorOptions{EncodeCommonAttributes: true})
	if err != nil {
		t.Fatal(err)
	}
	req := &historypb.WorkflowExecutionStartedEventAttributes{ContinuedFailure: &failurepb.Failure{
		Message: "outer", StackTrace: "s1", Cause: &failurepb.Failure{Message: "inner"},
	}}
	reply := &historypb.WorkflowExecutionStartedEventAttributes{}
	invoker := func(_ context.Context, _ string, req, reply any, _ *grpc.ClientConn, _ ...grpc.CallOption) error {
		f := req.(*historypb.WorkflowExecutionStartedEventAttributes).ContinuedFailure
		if f.Message != "Encoded failure" || f.StackTrace != "" || f.Cause.Message != "Encoded failure" {
			t.Errorf("request failure not encoded: %v", f)
		}
		proto.Merge(reply.(proto.Message), req.(proto.Message))
		return nil
	}
	if err := interceptor(context.Background(), "/m", req, reply, nil, invoker); err != nil {
		t.Fatal(err)
	}
	f := reply.ContinuedFailure
	if f.Message != "outer" || f.StackTrace != "s1" || f.Cause.Message != "inner" {
		t.Errorf("reply failure not decoded: %v", f)
	}
}
