package testserver

import (
	"slices"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/proto"
)

// Runs returns the runs the server holds, in the order they started, as
// executions with a copy of their histories.
func (s *Server) Runs() []RunHistory {
	s.lock()
	defer s.unlock()
	out := make([]RunHistory, 0, len(s.runs))
	for _, r := range s.runs {
		out = append(out, RunHistory{Execution: proto.CloneOf(r.execution), Events: cloneEvents(r.history), Closed: r.closed})
	}
	slices.SortStableFunc(out, func(a, b RunHistory) int {
		if c := a.Events[0].GetEventTime().AsTime().Compare(b.Events[0].GetEventTime().AsTime()); c != 0 {
			return c
		}
		return strings.Compare(a.Execution.GetWorkflowId()+"/"+a.Execution.GetRunId(), b.Execution.GetWorkflowId()+"/"+b.Execution.GetRunId())
	})
	return out
}

// RunHistory is a run and its history.
type RunHistory struct {
	Execution *commonpb.WorkflowExecution
	Events    []*historypb.HistoryEvent
	Closed    bool
}
