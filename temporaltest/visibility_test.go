package temporaltest_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	filterpb "go.temporal.io/api/filter/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporaltest"
)

// visibilityAttributes are registered for the visibility tests: one of
// each type.
var visibilityAttributes = map[string]enumspb.IndexedValueType{
	"Color": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "Size": enumspb.INDEXED_VALUE_TYPE_INT,
	"Tags": enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, "Due": enumspb.INDEXED_VALUE_TYPE_DATETIME,
	"Score": enumspb.INDEXED_VALUE_TYPE_DOUBLE, "Urgent": enumspb.INDEXED_VALUE_TYPE_BOOL,
	"Note": enumspb.INDEXED_VALUE_TYPE_TEXT,
}

var (
	tagsKey   = temporal.NewSearchAttributeKeyKeywordList("Tags")
	dueKey    = temporal.NewSearchAttributeKeyTime("Due")
	scoreKey  = temporal.NewSearchAttributeKeyFloat64("Score")
	urgentKey = temporal.NewSearchAttributeKeyBool("Urgent")
	noteKey   = temporal.NewSearchAttributeKeyString("Note")
)

// listIDs lists the workflow IDs a filter matches, page by page, in the
// order listed, and checks that no run is listed twice.
func listIDs(t *testing.T, c client.Client, query string, pageSize int32) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var ids []string
	seen := make(map[string]bool)
	var token []byte
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query, PageSize: pageSize, NextPageToken: token})
		if err != nil {
			t.Fatalf("%q: %v", query, err)
		}
		if pageSize > 0 && len(resp.GetExecutions()) > int(pageSize) {
			t.Fatalf("%q: a page of %d runs, asked for %d", query, len(resp.GetExecutions()), pageSize)
		}
		for _, e := range resp.GetExecutions() {
			key := e.GetExecution().GetRunId()
			if seen[key] {
				t.Fatalf("%q: run %s listed twice", query, key)
			}
			seen[key] = true
			ids = append(ids, e.GetExecution().GetWorkflowId())
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			return ids
		}
	}
}

func sortedIDs(ids []string) string {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	return strings.Join(ids, " ")
}

func TestListAndCountFilterTheRunsAsAServer(t *testing.T) {
	_, c := start(t, temporaltest.ServerOptions{SearchAttributes: visibilityAttributes})
	startWorker(t, c, "visibility", []any{Attributed}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	due := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	startRun := func(id, queue string, attrs ...temporal.SearchAttributeUpdate) client.WorkflowRun {
		t.Helper()
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue,
			TypedSearchAttributes: temporal.NewSearchAttributes(attrs...)}, Attributed, "wait")
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	startRun("a", "visibility", colorKey.ValueSet("red"), sizeKey.ValueSet(1), tagsKey.ValueSet([]string{"x", "y"}),
		dueKey.ValueSet(due), scoreKey.ValueSet(0.5), urgentKey.ValueSet(true), noteKey.ValueSet("call back"))
	b := startRun("b", "visibility", colorKey.ValueSet("blue"), sizeKey.ValueSet(2), tagsKey.ValueSet([]string{"y"}),
		dueKey.ValueSet(due.Add(time.Hour)), scoreKey.ValueSet(2.5), urgentKey.ValueSet(false))
	startRun("c", "visibility", colorKey.ValueSet("red"), sizeKey.ValueSet(3))
	startRun("d", "elsewhere")
	startRun("e", "visibility", colorKey.ValueSet("green"))
	if err := c.SignalWorkflow(ctx, "b", "", "next", "stop"); err != nil {
		t.Fatal(err)
	}
	if err := b.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.TerminateWorkflow(ctx, "c", "", "closed for the test"); err != nil {
		t.Fatal(err)
	}
	// e continues as new: its two runs are listed, the first closed.
	if err := c.SignalWorkflow(ctx, "e", "", "next", "continue"); err != nil {
		t.Fatal(err)
	}
	if err := c.GetWorkflow(ctx, "e", "").Get(ctx, nil); err != nil {
		t.Fatal(err)
	}

	for query, want := range map[string]string{
		"":                                     "a b c d e e",
		"Color = 'red'":                        "a c",
		"Color != 'red'":                       "b e e",
		"NOT Color = 'red'":                    "b e e",
		"Color IS NULL":                        "d",
		"Color IS NOT NULL AND Size > 1":       "b c",
		"Size BETWEEN 2 AND 3":                 "b c",
		"Size NOT BETWEEN 2 AND 3":             "a",
		"Size IN (1, 3)":                       "a c",
		"Size NOT IN (1, 3)":                   "b",
		"Color STARTS_WITH 'r'":                "a c",
		"Color < 'green'":                      "b",
		"Tags = 'y'":                           "a b",
		"Tags IN ('x', 'z')":                   "a",
		"Tags != 'x'":                          "b c d e e", // a run without Tags holds no x, as in SQL visibility
		"Due > '2030-01-02T03:30:00Z'":         "b",
		"Score >= 1":                           "b",
		"Urgent = true":                        "a",
		"Note = 'call back'":                   "a",
		"`Color` = 'red' OR (Size = 2)":        "a b c",
		"ExecutionStatus = 'Running'":          "a d",
		"ExecutionStatus != 'Running'":         "b c e e",
		"ExecutionStatus IN (2, 'Terminated')": "b c e",
		"CloseTime IS NULL":                    "a d",
		"CloseTime IS NOT NULL AND ExecutionDuration >= 0":                               "b c e e",
		"TaskQueue = 'elsewhere'":                                                        "d",
		"WorkflowType = 'Attributed' AND WorkflowId IN ('d', 'e')":                       "d e e",
		"WorkflowId = \"c\"":                                                             "c",
		"HistoryLength > 0 AND RootWorkflowId = 'a'":                                     "a",
		"ParentWorkflowId IS NULL AND WorkflowId = 'a'":                                  "a",
		"StartTime > '2000-01-01T00:00:00Z' AND ExecutionTime <= '2100-01-01T00:00:00Z'": "a b c d e e",
	} {
		if got := sortedIDs(listIDs(t, c, query, 0)); got != want {
			t.Errorf("%q lists %q; want %q", query, got, want)
		}
		if got := sortedIDs(listIDs(t, c, query, 2)); got != want {
			t.Errorf("%q, two runs a page, lists %q; want %q", query, got, want)
		}
		count, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: query})
		if err != nil || int(count.GetCount()) != len(strings.Fields(want)) {
			t.Errorf("%q counts %d, %v; want %d", query, count.GetCount(), err, len(strings.Fields(want)))
		}
	}

	// Open runs first, the newest first; then closed ones by close time,
	// the latest first.
	if got := strings.Join(listIDs(t, c, "", 0), " "); got != "d a e e c b" {
		t.Errorf("runs listed in the order %q; want d a e e c b", got)
	}

	grouped, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: "GROUP BY ExecutionStatus"})
	if err != nil {
		t.Fatal(err)
	}
	groups := make(map[string]int64)
	for _, g := range grouped.GetGroups() {
		var status string
		if err := converter.GetDefaultDataConverter().FromPayload(g.GetGroupValues()[0], &status); err != nil {
			t.Fatal(err)
		}
		groups[status] = g.GetCount()
	}
	if grouped.GetCount() != 6 || fmt.Sprint(groups) != "map[Completed:2 ContinuedAsNew:1 Running:2 Terminated:1]" {
		t.Errorf("counted %d by status: %v", grouped.GetCount(), groups)
	}

	//lint:ignore SA1019 Scan is deprecated but part of the Client interface.
	scanned, err := c.ScanWorkflow(ctx, &workflowservice.ScanWorkflowExecutionsRequest{Query: "Color = 'red'"})
	if err != nil || len(scanned.GetExecutions()) != 2 {
		t.Errorf("scan found %d, %v", len(scanned.GetExecutions()), err)
	}
	open, err := c.ListOpenWorkflow(ctx, &workflowservice.ListOpenWorkflowExecutionsRequest{
		Filters:         &workflowservice.ListOpenWorkflowExecutionsRequest_TypeFilter{TypeFilter: &filterpb.WorkflowTypeFilter{Name: "Attributed"}},
		StartTimeFilter: &filterpb.StartTimeFilter{EarliestTime: timestamppb.New(time.Now().Add(-time.Hour))},
	})
	if err != nil || idsOf(open.GetExecutions()) != "a d" {
		t.Errorf("ListOpenWorkflow: %q, %v", idsOf(open.GetExecutions()), err)
	}
	closed, err := c.ListClosedWorkflow(ctx, &workflowservice.ListClosedWorkflowExecutionsRequest{
		Filters: &workflowservice.ListClosedWorkflowExecutionsRequest_StatusFilter{StatusFilter: &filterpb.StatusFilter{Status: enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED}},
	})
	if err != nil || idsOf(closed.GetExecutions()) != "c" {
		t.Errorf("ListClosedWorkflow: %q, %v", idsOf(closed.GetExecutions()), err)
	}

	// What a listed run says of itself.
	listed, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: "WorkflowId = 'b'"})
	if err != nil {
		t.Fatal(err)
	}
	info := listed.GetExecutions()[0]
	var color string
	if err := converter.GetDefaultDataConverter().FromPayload(info.GetSearchAttributes().GetIndexedFields()["Color"], &color); err != nil || color != "blue" ||
		info.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED || info.GetType().GetName() != "Attributed" ||
		info.GetTaskQueue() != "visibility" || info.GetCloseTime() == nil || info.GetHistoryLength() == 0 {
		t.Errorf("b is listed as %v", info)
	}
}

func idsOf(infos []*workflowpb.WorkflowExecutionInfo) string {
	ids := make([]string, len(infos))
	for i, info := range infos {
		ids[i] = info.GetExecution().GetWorkflowId()
	}
	return sortedIDs(ids)
}

func TestAFilterTheEmbeddedServerDoesNotServeIsRefusedSayingWhatItServes(t *testing.T) {
	_, c := start(t, temporaltest.ServerOptions{SearchAttributes: visibilityAttributes})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for query, want := range map[string]string{
		"NoSuchAttribute = 1":              "invalid query: invalid search attribute: NoSuchAttribute",
		"Size = 'big'":                     `invalid value type for search attribute Size of type Int: "big"`,
		"StartTime > 'yesterday'":          "unable to parse datetime 'yesterday'",
		"ExecutionStatus = 'Sleeping'":     "invalid ExecutionStatus value 'Sleeping'",
		"Note STARTS_WITH 'a'":             "operator 'STARTS_WITH' not supported for Text type search attribute 'Note'",
		"Urgent BETWEEN 1 AND 2":           "cannot do range condition on search attribute 'Urgent' of type Bool",
		"Color = 'red' ORDER BY StartTime": "'ORDER BY' clause",
		"Color LIKE 'r%'":                  "operator 'LIKE' not supported",
		"Color = 'red' AND":                "incomplete expression",
		"(Color = 'red'":                   "a parenthesis is not closed",
		"StateTransitionCount > 1":         "does not keep StateTransitionCount",
		"GROUP BY ExecutionStatus":         "'GROUP BY' clause in a list",
		"Color = red":                      "did you forget to quote",
	} {
		_, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		var invalid *serviceerror.InvalidArgument
		if !errors.As(err, &invalid) || !strings.Contains(invalid.Message, want) {
			t.Errorf("%q: %v; want InvalidArgument saying %q", query, err, want)
		}
	}
	_, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: "Color = 'red' ORDER BY StartTime"})
	if err == nil || !strings.Contains(err.Error(), "temporal server start-dev") || !strings.Contains(err.Error(), "STARTS_WITH") {
		t.Errorf("ORDER BY: %v; want what the embedded server supports and the dev server for the rest", err)
	}
	_, err = c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: "GROUP BY WorkflowType"})
	if err == nil || !strings.Contains(err.Error(), "'GROUP BY' clause is not supported for search attribute WorkflowType") {
		t.Errorf("GROUP BY WorkflowType: %v", err)
	}
}
