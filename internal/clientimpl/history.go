package clientimpl

import (
	"context"
	"errors"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/rpc"
)

// GetWorkflowHistory implements Client.
func (c *workflowClient) GetWorkflowHistory(ctx context.Context, workflowID string, runID string, isLongPoll bool,
	filterType enumspb.HistoryEventFilterType,
) clientapi.HistoryEventIterator {
	return c.interceptor.GetWorkflowHistory(ctx, &clientapi.ClientGetWorkflowHistoryInput{
		WorkflowID: workflowID, RunID: runID, IsLongPoll: isLongPoll, FilterType: filterType,
	}).Iterator
}

// GetWorkflowHistory implements ClientOutboundInterceptor: an iterator
// that reads the history as it is iterated.
func (r *clientRoot) GetWorkflowHistory(ctx context.Context, in *clientapi.ClientGetWorkflowHistoryInput) *clientapi.ClientGetWorkflowHistoryOutput {
	return &clientapi.ClientGetWorkflowHistoryOutput{
		Iterator: r.c.newHistoryIterator(ctx, in.WorkflowID, in.RunID, in.IsLongPoll, in.FilterType),
	}
}

// clientHistoryPageFunc fetches the history page that starts at token.
type clientHistoryPageFunc func(token []byte) ([]*historypb.HistoryEvent, []byte, error)

// clientHistoryIterator pages through a history with fetch.
type clientHistoryIterator struct {
	fetch   clientHistoryPageFunc
	fetched bool // whether the first page has been asked for
	events  []*historypb.HistoryEvent
	next    int
	token   []byte
	err     error
}

func (c *workflowClient) newHistoryIterator(ctx context.Context, workflowID, runID string, isLongPoll bool,
	filterType enumspb.HistoryEventFilterType,
) *clientHistoryIterator {
	request := &workflowservice.GetWorkflowExecutionHistoryRequest{
		Namespace:              c.namespace,
		Execution:              &commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID},
		WaitNewEvent:           isLongPoll,
		HistoryEventFilterType: filterType,
		// A long poll waits for a running workflow, never archived.
		SkipArchival: isLongPoll,
	}
	fetch := func(token []byte) ([]*historypb.HistoryEvent, []byte, error) {
		if err := c.ensureInitialized(ctx); err != nil {
			return nil, nil, err
		}
		for {
			req := proto.CloneOf(request)
			req.NextPageToken = token
			events, next, err := rpc.HistoryPage(ctx, c.service, req)
			if err != nil {
				return nil, nil, wrapCallError(err, "reading history of workflow %q (run %q)", workflowID, runID)
			}
			// A long poll that timed out on the server comes back empty,
			// with a token to poll again from.
			if isLongPoll && len(events) == 0 && len(next) > 0 {
				token = next
				continue
			}
			return events, next, nil
		}
	}
	return &clientHistoryIterator{fetch: fetch}
}

// HasNext implements HistoryEventIterator.
func (it *clientHistoryIterator) HasNext() bool {
	// Pages without events are skipped, however many the server sends.
	for it.next >= len(it.events) && it.err == nil {
		if it.fetched && len(it.token) == 0 {
			return false
		}
		it.fetched = true
		it.events, it.token, it.err = it.fetch(it.token)
		it.next = 0
		if it.err != nil {
			it.events, it.token = nil, nil
		}
	}
	return true
}

// errHistoryNoMoreEvents is returned by HistoryEventIterator.Next when HasNext
// would have returned false.
var errHistoryNoMoreEvents = errors.New("no more history events: call HasNext before Next")

// Next implements HistoryEventIterator. Once it has returned an error,
// HasNext returns false.
func (it *clientHistoryIterator) Next() (*historypb.HistoryEvent, error) {
	if !it.HasNext() {
		return nil, errHistoryNoMoreEvents
	}
	if it.next < len(it.events) {
		event := it.events[it.next]
		it.next++
		return event, nil
	}
	err := it.err
	it.err = nil
	return nil, err
}
