package frontend

import (
	"strconv"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	schedulepb "go.temporal.io/api/schedule/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/testserver"
)

// listSchedulesFiltered is ListSchedules with a list filter
// (listfilter.go): the schedules it matches by their ID (ScheduleId),
// whether they are paused (TemporalSchedulePaused) and their search
// attributes, in the order ListSchedules lists them.
func listSchedulesFiltered(s *testserver.Server, req *workflowservice.ListSchedulesRequest) (*workflowservice.ListSchedulesResponse, error) {
	filter, err := parseListFilter(req.GetQuery())
	if err != nil {
		return nil, err
	}
	if filter.groupBy != "" {
		return nil, unsupportedQuery("'GROUP BY' clause in a list of schedules")
	}
	match, err := compileFilterWith(func(name string) (filterAttribute, error) { return resolveScheduleAttribute(s, name) }, filter.where)
	if err != nil {
		return nil, err
	}
	from := 0
	if token := req.GetNextPageToken(); len(token) > 0 {
		if from, err = strconv.Atoi(string(token)); err != nil || from < 0 {
			return nil, serviceerror.NewInvalidArgumentf("invalid page token %q: pass the NextPageToken of the previous page", token)
		}
	}
	size := int(req.GetMaximumPageSize())
	if size <= 0 || size > maxVisibilityPageSize {
		size = maxVisibilityPageSize
	}
	var matched []*schedulepb.ScheduleListEntry
	var token []byte
	for {
		page, err := s.ListSchedules(&workflowservice.ListSchedulesRequest{Namespace: req.GetNamespace(), NextPageToken: token})
		if err != nil {
			return nil, err
		}
		for _, e := range page.GetSchedules() {
			if match == nil || match(scheduleRecord(e)) == truthTrue {
				matched = append(matched, e)
			}
		}
		if token = page.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	out := &workflowservice.ListSchedulesResponse{}
	if from < len(matched) {
		out.Schedules = matched[from:min(from+size, len(matched))]
		if from+size < len(matched) {
			out.NextPageToken = []byte(strconv.Itoa(from + size))
		}
	}
	return out, nil
}

// scheduleRecord is a schedule as a filter reads it: its ID in place of
// a workflow ID, and whether it is paused among its search attributes,
// as a server's scheduler upserts it.
func scheduleRecord(e *schedulepb.ScheduleListEntry) *visibilityRecord {
	attrs := make(map[string]*commonpb.Payload, len(e.GetSearchAttributes().GetIndexedFields())+1)
	for k, v := range e.GetSearchAttributes().GetIndexedFields() {
		attrs[k] = v
	}
	paused := "false"
	if e.GetInfo().GetPaused() {
		paused = "true"
	}
	attrs["TemporalSchedulePaused"] = &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(paused)}
	return &visibilityRecord{info: testserver.RunInfo{Execution: &commonpb.WorkflowExecution{WorkflowId: e.GetScheduleId()}}, attrs: attrs}
}

// resolveScheduleAttribute finds what a schedule filter names: ScheduleId,
// TemporalSchedulePaused, or a search attribute.
func resolveScheduleAttribute(s *testserver.Server, name string) (filterAttribute, error) {
	switch strings.TrimPrefix(name, "Temporal") {
	case "ScheduleId":
		return filterAttribute{name: "ScheduleId", t: enumspb.INDEXED_VALUE_TYPE_KEYWORD, get: func(r *visibilityRecord) (any, bool) {
			return r.info.Execution.GetWorkflowId(), true
		}}, nil
	case "SchedulePaused":
		return searchAttribute("TemporalSchedulePaused", enumspb.INDEXED_VALUE_TYPE_BOOL), nil
	}
	t, ok := s.SearchAttributeType(name)
	switch {
	case !ok:
		return filterAttribute{}, invalidQuery("invalid search attribute: %s", name)
	case testserver.IsSystemSearchAttribute(name):
		return filterAttribute{}, unsupportedQuery("the embedded server filters schedules by ScheduleId, TemporalSchedulePaused and their search attributes, not %s", name)
	}
	return searchAttribute(name, t), nil
}
