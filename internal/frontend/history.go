package frontend

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
)

// A history page token names the ID of the first event the next page
// holds.
const pageTokenPrefix = "next-event:"

func pageToken(nextEventID int64) []byte {
	return []byte(pageTokenPrefix + strconv.FormatInt(nextEventID, 10))
}

func readPageToken(token []byte) (int64, error) {
	if len(token) == 0 {
		return 1, nil
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(string(token), pageTokenPrefix), 10, 64)
	if err != nil || !strings.HasPrefix(string(token), pageTokenPrefix) || id < 1 {
		return 0, serviceerror.NewInvalidArgument(fmt.Sprintf("invalid history page token %q", token))
	}
	return id, nil
}

// longPollMargin is how long before a call's deadline a long poll on
// history gives up and answers with no events, so that the answer
// arrives in time; maxLongPoll bounds a wait without a deadline.
const (
	longPollMargin = 500 * time.Millisecond
	maxLongPoll    = 30 * time.Second
)

// GetWorkflowExecutionHistory reads a run's history: all of it from the
// page token on, in one page, or its close event alone (with the close
// event filter). With WaitNewEvent it waits for what it would return: a
// new event, or the close event; a wait that outlasts the call's
// deadline answers with no events and a token to ask again with.
func (f *Frontend) GetWorkflowExecutionHistory(ctx context.Context, req *workflowservice.GetWorkflowExecutionHistoryRequest) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	from, err := readPageToken(req.GetNextPageToken())
	if err != nil {
		return nil, err
	}
	closeOnly := req.GetHistoryEventFilterType() == enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT
	wait := longPollContext(ctx)
	defer wait.cancel()
	for {
		changed := f.changes() // before reading, so no event is missed
		h, err := srv.History(req.GetExecution())
		if err != nil {
			return nil, err
		}
		events := h.GetEvents()
		closed := len(events) > 0 && isCloseEvent(events[len(events)-1].GetEventType())
		var page []*historypb.HistoryEvent
		switch {
		case closeOnly && closed:
			page = events[len(events)-1:]
		case !closeOnly && int64(len(events)) >= from:
			page = events[from-1:]
		}
		if len(page) > 0 || !req.GetWaitNewEvent() || closed {
			resp := &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{Events: page}}
			if req.GetWaitNewEvent() && !closeOnly && !closed {
				resp.NextPageToken = pageToken(int64(len(events)) + 1)
			}
			return resp, nil
		}
		select {
		case <-changed:
		case <-wait.ctx.Done():
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// Nothing yet: the caller asks again from where it was.
			return &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{}, NextPageToken: pageToken(from)}, nil
		}
	}
}

type longPoll struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// longPollContext bounds a long poll to end before ctx's deadline.
func longPollContext(ctx context.Context) longPoll {
	end := time.Now().Add(maxLongPoll)
	if d, ok := ctx.Deadline(); ok && d.Add(-longPollMargin).Before(end) {
		end = d.Add(-longPollMargin)
	}
	c, cancel := context.WithDeadline(ctx, end)
	return longPoll{c, cancel}
}

func isCloseEvent(t enumspb.EventType) bool {
	switch t {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		return true
	}
	return false
}
