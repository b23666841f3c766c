package frontend

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/testserver"
)

// Visibility: the namespace's runs listed and counted through a list
// filter (listfilter.go), as a server with SQL visibility (a dev server)
// lists them: open runs first, then closed ones by close time, the newest
// first, page by page. Unlike a server's, the embedded server's
// visibility is immediately consistent: a run is listed, with its latest
// search attributes, as soon as the call that started or changed it
// returns.

// maxVisibilityPageSize is a server's largest page, and its page when
// none is asked for.
const maxVisibilityPageSize = 1000

// ListWorkflowExecutions lists the runs a filter matches.
func (f *Frontend) ListWorkflowExecutions(_ context.Context, req *workflowservice.ListWorkflowExecutionsRequest) (*workflowservice.ListWorkflowExecutionsResponse, error) {
	s, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	runs, token, err := listRuns(s, req.GetNamespace(), req.GetQuery(), req.GetPageSize(), req.GetNextPageToken())
	if err != nil {
		return nil, err
	}
	return &workflowservice.ListWorkflowExecutionsResponse{Executions: runs, NextPageToken: token}, nil
}

// ScanWorkflowExecutions is ListWorkflowExecutions, as on a server with
// SQL visibility.
//
//lint:ignore SA1019 Scan is deprecated, and still a call of the Client interface.
func (f *Frontend) ScanWorkflowExecutions(_ context.Context, req *workflowservice.ScanWorkflowExecutionsRequest) (*workflowservice.ScanWorkflowExecutionsResponse, error) {
	s, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	runs, token, err := listRuns(s, req.GetNamespace(), req.GetQuery(), req.GetPageSize(), req.GetNextPageToken())
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 see above.
	return &workflowservice.ScanWorkflowExecutionsResponse{Executions: runs, NextPageToken: token}, nil
}

// ListOpenWorkflowExecutions lists the open runs, by start time, type or
// workflow ID, as a server does: through the filter it makes of them.
func (f *Frontend) ListOpenWorkflowExecutions(_ context.Context, req *workflowservice.ListOpenWorkflowExecutionsRequest) (*workflowservice.ListOpenWorkflowExecutionsResponse, error) {
	s, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	query := []string{"ExecutionStatus = 'Running'"}
	timeFilter, err := timeRangeFilter("StartTime", req.GetStartTimeFilter().GetEarliestTime(), req.GetStartTimeFilter().GetLatestTime())
	if err != nil {
		return nil, err
	}
	query = append(query, timeFilter...)
	switch {
	case req.GetExecutionFilter() != nil:
		query = append(query, "WorkflowId = "+quoteLiteral(req.GetExecutionFilter().GetWorkflowId()))
	case req.GetTypeFilter() != nil:
		query = append(query, "WorkflowType = "+quoteLiteral(req.GetTypeFilter().GetName()))
	}
	runs, token, err := listRuns(s, req.GetNamespace(), strings.Join(query, " AND "), req.GetMaximumPageSize(), req.GetNextPageToken())
	if err != nil {
		return nil, err
	}
	return &workflowservice.ListOpenWorkflowExecutionsResponse{Executions: runs, NextPageToken: token}, nil
}

// ListClosedWorkflowExecutions lists the closed runs, by close time,
// type, workflow ID or status, as a server does.
func (f *Frontend) ListClosedWorkflowExecutions(_ context.Context, req *workflowservice.ListClosedWorkflowExecutionsRequest) (*workflowservice.ListClosedWorkflowExecutionsResponse, error) {
	s, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	query := []string{"ExecutionStatus != 'Running'"}
	timeFilter, err := timeRangeFilter("CloseTime", req.GetStartTimeFilter().GetEarliestTime(), req.GetStartTimeFilter().GetLatestTime())
	if err != nil {
		return nil, err
	}
	query = append(query, timeFilter...)
	switch {
	case req.GetExecutionFilter() != nil:
		query = append(query, "WorkflowId = "+quoteLiteral(req.GetExecutionFilter().GetWorkflowId()))
	case req.GetTypeFilter() != nil:
		query = append(query, "WorkflowType = "+quoteLiteral(req.GetTypeFilter().GetName()))
	case req.GetStatusFilter() != nil:
		status := req.GetStatusFilter().GetStatus()
		if status == enumspb.WORKFLOW_EXECUTION_STATUS_UNSPECIFIED || status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			return nil, invalidQuery("StatusFilter must be a status of a closed run, not %v", status)
		}
		query = append(query, fmt.Sprintf("ExecutionStatus = %d", status))
	}
	runs, token, err := listRuns(s, req.GetNamespace(), strings.Join(query, " AND "), req.GetMaximumPageSize(), req.GetNextPageToken())
	if err != nil {
		return nil, err
	}
	return &workflowservice.ListClosedWorkflowExecutionsResponse{Executions: runs, NextPageToken: token}, nil
}

// timeRangeFilter is the condition of a start time filter on a time
// attribute; the zero time leaves a side open.
func timeRangeFilter(attribute string, earliest, latest *timestamppb.Timestamp) ([]string, error) {
	from, to := earliest.AsTime(), latest.AsTime()
	hasFrom, hasTo := earliest != nil && !from.IsZero() && from.Unix() != 0, latest != nil && !to.IsZero() && to.Unix() != 0
	switch {
	case hasFrom && hasTo && from.After(to):
		return nil, invalidQuery("EarliestTime in StartTimeFilter is later than LatestTime")
	case hasFrom && hasTo:
		return []string{fmt.Sprintf("%s BETWEEN '%s' AND '%s'", attribute, from.Format(time.RFC3339Nano), to.Format(time.RFC3339Nano))}, nil
	case hasFrom:
		return []string{fmt.Sprintf("%s >= '%s'", attribute, from.Format(time.RFC3339Nano))}, nil
	case hasTo:
		return []string{fmt.Sprintf("%s <= '%s'", attribute, to.Format(time.RFC3339Nano))}, nil
	}
	return nil, nil
}

func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// CountWorkflowExecutions counts the runs a filter matches; with GROUP BY
// ExecutionStatus, by status too.
func (f *Frontend) CountWorkflowExecutions(_ context.Context, req *workflowservice.CountWorkflowExecutionsRequest) (*workflowservice.CountWorkflowExecutionsResponse, error) {
	s, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	filter, err := parseListFilter(req.GetQuery())
	if err != nil {
		return nil, err
	}
	if filter.groupBy != "" {
		if attr, err := resolveAttribute(s, filter.groupBy); err != nil || attr.name != "ExecutionStatus" {
			return nil, invalidQuery("operation is not supported: 'GROUP BY' clause is not supported for search attribute %s", filter.groupBy)
		}
	}
	matching, err := matchingRuns(s, filter)
	if err != nil {
		return nil, err
	}
	resp := &workflowservice.CountWorkflowExecutionsResponse{Count: int64(len(matching))}
	if filter.groupBy == "" {
		return resp, nil
	}
	byStatus := make(map[enumspb.WorkflowExecutionStatus]int64)
	for _, r := range matching {
		byStatus[r.info.Status]++
	}
	statuses := make([]enumspb.WorkflowExecutionStatus, 0, len(byStatus))
	for status := range byStatus {
		statuses = append(statuses, status)
	}
	slices.Sort(statuses)
	for _, status := range statuses {
		resp.Groups = append(resp.Groups, &workflowservice.CountWorkflowExecutionsResponse_AggregationGroup{
			GroupValues: []*commonpb.Payload{keywordPayload(status.String())}, Count: byStatus[status], // "Running"
		})
	}
	return resp, nil
}

// keywordPayload is a Keyword value as a server's visibility encodes it.
func keywordPayload(s string) *commonpb.Payload {
	data, _ := json.Marshal(s)
	return &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain"), "type": []byte("Keyword")}, Data: data}
}

// matchingRuns are the namespace's runs a filter matches, in a server's
// order.
func matchingRuns(s *testserver.Server, filter parsedFilter) ([]*visibilityRecord, error) {
	match, err := compileFilter(s, filter.where)
	if err != nil {
		return nil, err
	}
	var out []*visibilityRecord
	for _, info := range s.Executions() {
		r := &visibilityRecord{info: info, attrs: info.SearchAttributes.GetIndexedFields()}
		if match == nil || match(r) == truthTrue {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *visibilityRecord) int { return compareListKeys(listKeyOf(a.info), listKeyOf(b.info)) })
	return out, nil
}

// listKey orders runs as a server's SQL visibility does: by close time,
// open runs first, then by start time, the newest first, then by run ID.
// A page token names the last run of its page by its key.
type listKey struct {
	Close int64  `json:"close"` // Unix nanoseconds; math.MaxInt64 while open
	Start int64  `json:"start"`
	RunID string `json:"run"`
}

func listKeyOf(info testserver.RunInfo) listKey {
	k := listKey{Close: math.MaxInt64, Start: info.StartTime.UnixNano(), RunID: info.Execution.GetRunId()}
	if !info.CloseTime.IsZero() {
		k.Close = info.CloseTime.UnixNano()
	}
	return k
}

func compareListKeys(a, b listKey) int {
	if c := cmp.Compare(b.Close, a.Close); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Start, a.Start); c != 0 {
		return c
	}
	return strings.Compare(a.RunID, b.RunID)
}

// listRuns is a page of the runs a filter matches, and the token of the
// next page (nil after the last).
func listRuns(s *testserver.Server, namespace, query string, pageSize int32, token []byte) ([]*workflowpb.WorkflowExecutionInfo, []byte, error) {
	filter, err := parseListFilter(query)
	if err != nil {
		return nil, nil, err
	}
	if filter.groupBy != "" {
		return nil, nil, unsupportedQuery("'GROUP BY' clause in a list (it groups counts: CountWorkflowExecutions)")
	}
	if pageSize <= 0 || pageSize > maxVisibilityPageSize {
		pageSize = maxVisibilityPageSize
	}
	var after *listKey
	if len(token) > 0 {
		after = new(listKey)
		if err := json.Unmarshal(token, after); err != nil {
			return nil, nil, invalidQuery("invalid next page token %q: pass the one the previous page returned", token)
		}
	}
	matching, err := matchingRuns(s, filter)
	if err != nil {
		return nil, nil, err
	}
	if after != nil {
		first, _ := slices.BinarySearchFunc(matching, *after, func(r *visibilityRecord, k listKey) int {
			return compareListKeys(listKeyOf(r.info), k)
		})
		for first < len(matching) && compareListKeys(listKeyOf(matching[first].info), *after) <= 0 {
			first++
		}
		matching = matching[first:]
	}
	var next []byte
	if len(matching) > int(pageSize) {
		matching = matching[:pageSize]
		next, _ = json.Marshal(listKeyOf(matching[len(matching)-1].info))
	}
	out := make([]*workflowpb.WorkflowExecutionInfo, len(matching))
	for i, r := range matching {
		out[i] = executionInfo(namespace, r.info)
	}
	return out, next, nil
}

// executionInfo describes a run as DescribeWorkflowExecution and the
// visibility calls do.
func executionInfo(namespace string, info testserver.RunInfo) *workflowpb.WorkflowExecutionInfo {
	started := info.Started
	out := &workflowpb.WorkflowExecutionInfo{
		Execution: info.Execution, Type: started.GetWorkflowType(), StartTime: timestamppb.New(info.StartTime),
		Status: info.Status, HistoryLength: info.HistoryLen, HistorySizeBytes: info.HistorySize,
		ExecutionTime: timestamppb.New(executionTime(info)),
		Memo:          info.Memo, SearchAttributes: info.SearchAttributes, TaskQueue: started.GetTaskQueue().GetName(),
		ParentExecution: started.GetParentWorkflowExecution(), RootExecution: rootExecution(info),
		FirstRunId: started.GetFirstExecutionRunId(), Priority: started.GetPriority(),
	}
	if out.Memo == nil {
		out.Memo = &commonpb.Memo{}
	}
	if out.SearchAttributes == nil {
		out.SearchAttributes = &commonpb.SearchAttributes{}
	}
	if out.ParentExecution != nil {
		out.ParentNamespaceId = namespace
	}
	if !info.CloseTime.IsZero() {
		out.CloseTime = timestamppb.New(info.CloseTime)
		out.ExecutionDuration = durationpb.New(info.CloseTime.Sub(executionTime(info)))
	}
	return out
}
