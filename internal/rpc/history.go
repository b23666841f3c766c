package rpc

import (
	"context"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// HistoryService is the one call history reading needs; the gRPC
// WorkflowServiceClient has it, and so can an in-memory service.
type HistoryService interface {
	GetWorkflowExecutionHistory(ctx context.Context, in *workflowservice.GetWorkflowExecutionHistoryRequest, opts ...grpc.CallOption) (*workflowservice.GetWorkflowExecutionHistoryResponse, error)
}

// HistoryPage reads the page of history that req.NextPageToken names and
// returns its events (decoded when the server sent them serialized) and
// the token of the next page, empty on the last one. Every reader of
// history (the worker, the replayer, the client's iterator) pages through
// this one function.
func HistoryPage(ctx context.Context, service HistoryService, req *workflowservice.GetWorkflowExecutionHistoryRequest) ([]*historypb.HistoryEvent, []byte, error) {
	resp, err := service.GetWorkflowExecutionHistory(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	events, err := responseEvents(resp, req.GetHistoryEventFilterType())
	if err != nil {
		return nil, nil, err
	}
	return events, resp.GetNextPageToken(), nil
}

// HistoryPages returns a fetcher of the pages of one run's whole history,
// for the engine: each call reads the page token names.
func HistoryPages(service HistoryService, namespace string, execution *commonpb.WorkflowExecution) func(ctx context.Context, token []byte) (*historypb.History, []byte, error) {
	return func(ctx context.Context, token []byte) (*historypb.History, []byte, error) {
		events, next, err := HistoryPage(ctx, service, &workflowservice.GetWorkflowExecutionHistoryRequest{
			Namespace: namespace, Execution: execution, NextPageToken: token,
		})
		if err != nil {
			return nil, nil, fmt.Errorf("reading the history of workflow %q (run %s): %w", execution.GetWorkflowId(), execution.GetRunId(), err)
		}
		return &historypb.History{Events: events}, next, nil
	}
}

// responseEvents returns a page's events, decoding them when the server
// sent them serialized (RawHistory).
func responseEvents(resp *workflowservice.GetWorkflowExecutionHistoryResponse, filterType enumspb.HistoryEventFilterType) ([]*historypb.HistoryEvent, error) {
	if len(resp.GetRawHistory()) == 0 {
		return resp.GetHistory().GetEvents(), nil
	}
	var events []*historypb.HistoryEvent
	for _, blob := range resp.GetRawHistory() {
		batch, err := decodeRawHistoryBlob(blob)
		if err != nil {
			return nil, err
		}
		events = append(events, batch...)
	}
	if filterType == enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT && len(events) > 1 {
		events = events[len(events)-1:]
	}
	return events, nil
}

func decodeRawHistoryBlob(blob *commonpb.DataBlob) ([]*historypb.HistoryEvent, error) {
	if len(blob.GetData()) == 0 {
		return nil, nil
	}
	var history historypb.History
	var err error
	switch blob.GetEncodingType() {
	case enumspb.ENCODING_TYPE_PROTO3:
		err = proto.Unmarshal(blob.GetData(), &history)
	case enumspb.ENCODING_TYPE_JSON:
		err = protojson.Unmarshal(blob.GetData(), &history)
	default:
		return nil, fmt.Errorf("raw history batch has unknown encoding %v", blob.GetEncodingType())
	}
	if err != nil {
		return nil, fmt.Errorf("decoding raw history batch: %w", err)
	}
	return history.GetEvents(), nil
}
