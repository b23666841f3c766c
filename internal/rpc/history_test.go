package rpc

import (
	"context"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// historyPages serves a fixed response and records the request.
type historyPages struct {
	resp *workflowservice.GetWorkflowExecutionHistoryResponse
	got  *workflowservice.GetWorkflowExecutionHistoryRequest
}

func (h *historyPages) GetWorkflowExecutionHistory(_ context.Context, req *workflowservice.GetWorkflowExecutionHistoryRequest, _ ...grpc.CallOption) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	h.got = req
	return h.resp, nil
}

func timerStartedEvent(id int64) *historypb.HistoryEvent {
	return &historypb.HistoryEvent{EventId: id, EventType: enumspb.EVENT_TYPE_TIMER_STARTED}
}

func TestRawHistoryIsDecoded(t *testing.T) {
	batch1, err := proto.Marshal(&historypb.History{Events: []*historypb.HistoryEvent{timerStartedEvent(1), timerStartedEvent(2)}})
	if err != nil {
		t.Fatal(err)
	}
	batch2, err := protojson.Marshal(&historypb.History{Events: []*historypb.HistoryEvent{timerStartedEvent(3)}})
	if err != nil {
		t.Fatal(err)
	}
	svc := &historyPages{resp: &workflowservice.GetWorkflowExecutionHistoryResponse{NextPageToken: []byte("next"), RawHistory: []*commonpb.DataBlob{
		{EncodingType: enumspb.ENCODING_TYPE_PROTO3, Data: batch1},
		{EncodingType: enumspb.ENCODING_TYPE_JSON, Data: batch2},
	}}}

	events, next, err := HistoryPage(t.Context(), svc, &workflowservice.GetWorkflowExecutionHistoryRequest{})
	if err != nil || len(events) != 3 || events[2].GetEventId() != 3 || string(next) != "next" {
		t.Fatalf("got %v, %q, %v; want 3 events ending with event 3 and the next token", events, next, err)
	}

	events, _, err = HistoryPage(t.Context(), svc, &workflowservice.GetWorkflowExecutionHistoryRequest{HistoryEventFilterType: enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT})
	if err != nil || len(events) != 1 || events[0].GetEventId() != 3 {
		t.Fatalf("only the close event is wanted, got %v, %v", events, err)
	}

	svc.resp = &workflowservice.GetWorkflowExecutionHistoryResponse{RawHistory: []*commonpb.DataBlob{{EncodingType: enumspb.ENCODING_TYPE_UNSPECIFIED, Data: []byte{1}}}}
	if _, _, err = HistoryPage(t.Context(), svc, &workflowservice.GetWorkflowExecutionHistoryRequest{}); err == nil || !strings.Contains(err.Error(), "unknown encoding") {
		t.Fatalf("want an unknown encoding error, got %v", err)
	}
}

func TestHistoryPagesAsksForTheRunAndNamesItInErrors(t *testing.T) {
	svc := &historyPages{resp: &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{Events: []*historypb.HistoryEvent{timerStartedEvent(1)}}}}
	fetch := HistoryPages(svc, "ns", &commonpb.WorkflowExecution{WorkflowId: "wf", RunId: "r1"})
	page, next, err := fetch(t.Context(), []byte("tok"))
	if err != nil || len(page.GetEvents()) != 1 || len(next) != 0 {
		t.Fatalf("got %v, %q, %v", page, next, err)
	}
	if svc.got.GetNamespace() != "ns" || svc.got.GetExecution().GetRunId() != "r1" || string(svc.got.GetNextPageToken()) != "tok" {
		t.Fatalf("request %v does not name the namespace, run and token", svc.got)
	}
	svc.resp = &workflowservice.GetWorkflowExecutionHistoryResponse{RawHistory: []*commonpb.DataBlob{{EncodingType: enumspb.ENCODING_TYPE_UNSPECIFIED, Data: []byte{1}}}}
	if _, _, err := fetch(t.Context(), nil); err == nil || !strings.Contains(err.Error(), `workflow "wf" (run r1)`) {
		t.Fatalf("the error must name the run, got %v", err)
	}
}
