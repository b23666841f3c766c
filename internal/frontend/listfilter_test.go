package frontend

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/internal/testserver"
)

// render shows a parsed filter as a tree; literals other than strings
// show their Go type.
func render(n *filterNode) string {
	if n == nil {
		return "all"
	}
	switch n.op {
	case "AND", "OR":
		return "(" + render(n.children[0]) + " " + n.op + " " + render(n.children[1]) + ")"
	case "NOT":
		return "NOT " + render(n.children[0])
	}
	var values []string
	for _, v := range n.values {
		if s, ok := v.(string); ok {
			values = append(values, "'"+s+"'")
		} else {
			values = append(values, fmt.Sprintf("%T(%v)", v, v))
		}
	}
	op := n.op
	if n.negate {
		op = "NOT " + op
	}
	return strings.TrimSpace(n.name + " " + op + " " + strings.Join(values, ","))
}

func TestParseListFilterReadsTheLanguage(t *testing.T) {
	for query, want := range map[string]string{
		"":                                 "all",
		"WorkflowId = 'a'":                 "WorkflowId = 'a'",
		"`Custom Name` != \"b\"":           "Custom Name != 'b'",
		"A = 'x' AND B = 'y' OR C = 'z'":   "((A = 'x' AND B = 'y') OR C = 'z')",
		"A = 'x' AND (B = 'y' OR C = 'z')": "(A = 'x' AND (B = 'y' OR C = 'z'))",
		"not A = 'x' and not not B = 'y'":  "(NOT A = 'x' AND NOT NOT B = 'y')",
		"A in ('x', 'it''s')":              "A IN 'x','it's'",
		"A NOT IN ('x')":                   "A NOT IN 'x'",
		"A between 'a' and 'b'":            "A BETWEEN 'a','b'",
		"A IS NULL OR B is not null":       "(A IS NULL OR B NOT IS NULL)",
		"A STARTS_WITH 'p'":                "A STARTS_WITH 'p'",
		"B NOT STARTS_WITH 'q'":            "B NOT STARTS_WITH 'q'",
		"A <> 'x'":                         "A != 'x'",
		`A = 'a\'b'`:                       "A = 'a'b'",
		"Ünïcode = 'ü'":                    "Ünïcode = 'ü'",
		"N = -3 AND F > 1.5 AND B = TRUE":  "((N = int64(-3) AND F > float64(1.5)) AND B = bool(true))",
		"N >= 1e3":                         "N >= float64(1000)",
		"A LIKE 'x%'":                      "A LIKE 'x%'",
		"A = 'x' GROUP BY ExecutionStatus": "A = 'x'",
		"   GROUP BY ExecutionStatus":      "all",
	} {
		f, err := parseListFilter(query)
		if err != nil {
			t.Errorf("%q: %v", query, err)
			continue
		}
		if got := render(f.where); got != want {
			t.Errorf("%q parsed as %q; want %q", query, got, want)
		}
	}
	if f, _ := parseListFilter("A = 'x' group by ExecutionStatus"); f.groupBy != "ExecutionStatus" {
		t.Errorf("GROUP BY: %q", f.groupBy)
	}
	for query, want := range map[string]string{
		"A =":                "incomplete expression",
		"A = 'x' AND":        "incomplete expression",
		"A = 'x":             "unterminated string",
		"(A = 'x'":           "a parenthesis is not closed",
		"A = 'x')":           `unexpected ")"`,
		"A ! 'x'":            `unexpected "!"`,
		"A IN 'x'":           "IN needs a parenthesized list",
		"A IN ('x' 'y')":     "expected ',' or ')'",
		"A BETWEEN 1 2":      "BETWEEN needs AND",
		"A IS 'x'":           "'IS' operator can only be used",
		"A = B":              "did you forget to quote",
		"count(A) > 1":       "function count()",
		"A = 'x' ORDER BY B": "'ORDER BY' clause",
		"A = 'x' LIMIT 1":    "'LIMIT' clause",
		"GROUP BY A, B":      "supports only a single field",
		"A NOT = 'x'":        "NOT must be followed by IN, BETWEEN or STARTS_WITH",
		"`A = 'x'":           "unterminated quoted name",
	} {
		_, err := parseListFilter(query)
		var invalid *serviceerror.InvalidArgument
		if !errors.As(err, &invalid) || !strings.HasPrefix(invalid.Message, "invalid query: ") || !strings.Contains(invalid.Message, want) {
			t.Errorf("%q: %v; want InvalidArgument saying %q", query, err, want)
		}
	}
}

// runFor is a closed run, or an open one when closed is zero, with
// search attributes.
func runFor(id string, started, closed time.Time, attrs map[string]string) testserver.RunInfo {
	info := testserver.RunInfo{
		Execution: &commonpb.WorkflowExecution{WorkflowId: id, RunId: id + "-run"},
		Started:   &historypb.WorkflowExecutionStartedEventAttributes{WorkflowType: &commonpb.WorkflowType{Name: "W"}},
		Status:    enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, StartTime: started, CloseTime: closed,
		SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{}},
	}
	if !closed.IsZero() {
		info.Status = enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED
	}
	for k, v := range attrs {
		info.SearchAttributes.IndexedFields[k] = &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(v)}
	}
	return info
}

func TestAConditionOnAnAttributeARunLacksIsNeitherTrueNorFalse(t *testing.T) {
	srv := testserver.New(testserver.Options{Clock: testserver.NewWallClock(), CheckSearchAttributes: true})
	if err := srv.AddSearchAttributes(map[string]enumspb.IndexedValueType{
		"Color": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "Tags": enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST,
	}); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	red := &visibilityRecord{info: runFor("red", now, time.Time{}, map[string]string{"Color": `"red"`, "Tags": `["x"]`})}
	bare := &visibilityRecord{info: runFor("bare", now, time.Time{}, nil)}
	for _, r := range []*visibilityRecord{red, bare} {
		r.attrs = r.info.SearchAttributes.GetIndexedFields()
	}
	for query, want := range map[string]string{
		"Color = 'red'":                      "red",
		"Color != 'red'":                     "",
		"NOT Color = 'red'":                  "",
		"NOT Color = 'blue'":                 "red",
		"Color = 'blue' OR Color IS NULL":    "bare",
		"Color IS NOT NULL":                  "red",
		"Tags != 'x'":                        "bare", // a missing keyword list holds no values
		"NOT Tags = 'y'":                     "red bare",
		"CloseTime IS NULL":                  "red bare",
		"CloseTime > '2000-01-01T00:00:00Z'": "",
	} {
		f, err := parseListFilter(query)
		if err != nil {
			t.Fatal(err)
		}
		match, err := compileFilter(srv, f.where)
		if err != nil {
			t.Fatalf("%q: %v", query, err)
		}
		var got []string
		for _, r := range []*visibilityRecord{red, bare} {
			if match(r) == truthTrue {
				got = append(got, r.info.Execution.GetWorkflowId())
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%q matches %q; want %q", query, got, want)
		}
	}
}

func TestRunsAreListedAsAServerOrdersThem(t *testing.T) {
	base := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	runs := []testserver.RunInfo{
		runFor("old-open", base, time.Time{}, nil),
		runFor("new-open", base.Add(time.Minute), time.Time{}, nil),
		runFor("closed-early", base, base.Add(time.Hour), nil),
		runFor("closed-late", base.Add(time.Second), base.Add(2*time.Hour), nil),
	}
	keys := make([]listKey, len(runs))
	for i, r := range runs {
		keys[i] = listKeyOf(r)
	}
	order := []int{1, 0, 3, 2}
	for i := 1; i < len(order); i++ {
		if compareListKeys(keys[order[i-1]], keys[order[i]]) >= 0 {
			t.Errorf("%s is not listed before %s", runs[order[i-1]].Execution.GetWorkflowId(), runs[order[i]].Execution.GetWorkflowId())
		}
	}
}
