package frontend

import (
	"context"
	"slices"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
)

// maxHistoryPageSize is a server's largest page of history events, and
// its page when none is asked for.
const maxHistoryPageSize = 256

// GetWorkflowExecutionHistoryReverse reads a run's history from its last
// event back, a page at a time; the page token names the event the next
// page starts from.
func (f *Frontend) GetWorkflowExecutionHistoryReverse(_ context.Context, req *workflowservice.GetWorkflowExecutionHistoryReverseRequest) (*workflowservice.GetWorkflowExecutionHistoryReverseResponse, error) {
	s, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	execution := req.GetExecution()
	if execution.GetWorkflowId() == "" {
		return nil, serviceerror.NewInvalidArgument("WorkflowId is not set on request.")
	}
	pageSize := int(req.GetMaximumPageSize())
	if pageSize <= 0 || pageSize > maxHistoryPageSize {
		pageSize = maxHistoryPageSize
	}
	h, err := s.History(execution)
	if err != nil {
		return nil, err
	}
	events := h.GetEvents()
	last := int64(len(events)) // the ID of the first event of this page
	if token := req.GetNextPageToken(); len(token) > 0 {
		if last, err = readPageToken(token); err != nil {
			return nil, err
		}
		if last > int64(len(events)) {
			return nil, serviceerror.NewInvalidArgumentf("invalid history page token %q: the run has %d events", token, len(events))
		}
	}
	first := max(last-int64(pageSize)+1, 1)
	page := slices.Clone(events[first-1 : last])
	slices.Reverse(page)
	resp := &workflowservice.GetWorkflowExecutionHistoryReverseResponse{History: &historypb.History{Events: page}}
	if first > 1 {
		resp.NextPageToken = pageToken(first - 1)
	}
	return resp, nil
}
