package frontend

import (
	"cmp"
	"slices"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/testserver"
)

// A parsed list filter (listfilter.go) made a predicate on runs: each
// name resolved to an attribute of the run (a system one, or one of its
// search attributes, typed as registered), each literal checked against
// the attribute's type, as a server checks them. A condition on an
// attribute the run lacks is neither true nor false (SQL's NULL), which
// NOT keeps: only IS NULL matches it; but a keyword list the run lacks
// holds no values, as in a server's SQL visibility store (so
// Tags != 'x' matches it).

// truth is a condition's value on a run: true, false or unknown.
type truth int8

const (
	truthFalse truth = iota
	truthTrue
	truthUnknown
)

func truthOf(b bool) truth {
	if b {
		return truthTrue
	}
	return truthFalse
}

// visibilityRecord is a run as visibility sees it.
type visibilityRecord struct {
	info  testserver.RunInfo
	attrs map[string]*commonpb.Payload // the run's search attributes
}

// runFilter is a compiled filter: nil matches every run.
type runFilter func(*visibilityRecord) truth

// filterAttribute is an attribute a filter names: its type and how to
// read it from a run (false when the run has none).
type filterAttribute struct {
	name string
	t    enumspb.IndexedValueType
	get  func(*visibilityRecord) (any, bool)
}

// systemFilterAttributes are the attributes a server keeps itself, read
// from the run.
var systemFilterAttributes = map[string]func(*visibilityRecord) (any, bool){
	"WorkflowId":   func(r *visibilityRecord) (any, bool) { return r.info.Execution.GetWorkflowId(), true },
	"RunId":        func(r *visibilityRecord) (any, bool) { return r.info.Execution.GetRunId(), true },
	"WorkflowType": func(r *visibilityRecord) (any, bool) { return r.info.Started.GetWorkflowType().GetName(), true },
	"TaskQueue":    func(r *visibilityRecord) (any, bool) { return r.info.Started.GetTaskQueue().GetName(), true },
	"ExecutionStatus": func(r *visibilityRecord) (any, bool) {
		return r.info.Status, true
	},
	"StartTime":     func(r *visibilityRecord) (any, bool) { return r.info.StartTime, true },
	"ExecutionTime": func(r *visibilityRecord) (any, bool) { return executionTime(r.info), true },
	"CloseTime": func(r *visibilityRecord) (any, bool) {
		return r.info.CloseTime, !r.info.CloseTime.IsZero()
	},
	"ExecutionDuration": func(r *visibilityRecord) (any, bool) {
		if r.info.CloseTime.IsZero() {
			return nil, false
		}
		return int64(r.info.CloseTime.Sub(executionTime(r.info))), true
	},
	"HistoryLength":    func(r *visibilityRecord) (any, bool) { return r.info.HistoryLen, true },
	"HistorySizeBytes": func(r *visibilityRecord) (any, bool) { return r.info.HistorySize, true },
	"ParentWorkflowId": func(r *visibilityRecord) (any, bool) {
		p := r.info.Started.GetParentWorkflowExecution()
		return p.GetWorkflowId(), p != nil
	},
	"ParentRunId": func(r *visibilityRecord) (any, bool) {
		p := r.info.Started.GetParentWorkflowExecution()
		return p.GetRunId(), p != nil
	},
	"RootWorkflowId": func(r *visibilityRecord) (any, bool) { return rootExecution(r.info).GetWorkflowId(), true },
	"RootRunId":      func(r *visibilityRecord) (any, bool) { return rootExecution(r.info).GetRunId(), true },
}

// executionTime is when a run's first workflow task was due: its start,
// after any start delay or cron wait.
func executionTime(info testserver.RunInfo) time.Time {
	return info.StartTime.Add(info.Started.GetFirstWorkflowTaskBackoff().AsDuration())
}

// rootExecution is the run at the root of a run's chain of parents: the
// run itself when it is no child.
func rootExecution(info testserver.RunInfo) *commonpb.WorkflowExecution {
	if root := info.Started.GetRootWorkflowExecution(); root != nil {
		return root
	}
	return info.Execution
}

// resolveAttribute finds the attribute a filter names, as a server does:
// a custom attribute, a system one, or either with its "Temporal" prefix
// added or dropped (ScheduleId stands for WorkflowId).
func resolveAttribute(s *testserver.Server, name string) (filterAttribute, error) {
	candidates := []string{name}
	switch {
	case strings.TrimPrefix(name, "Temporal") == "ScheduleId":
		candidates = append(candidates, "WorkflowId")
	case strings.HasPrefix(name, "Temporal"):
		candidates = append(candidates, strings.TrimPrefix(name, "Temporal"))
	default:
		candidates = append(candidates, "Temporal"+name)
	}
	for _, n := range candidates {
		t, ok := s.SearchAttributeType(n)
		if !ok {
			continue
		}
		if get, system := systemFilterAttributes[n]; system {
			return filterAttribute{name: n, t: t, get: get}, nil
		}
		if testserver.IsSystemSearchAttribute(n) {
			return filterAttribute{}, unsupportedQuery("the embedded server does not keep %s", n)
		}
		return searchAttribute(n, t), nil
	}
	return filterAttribute{}, invalidQuery("invalid search attribute: %s", name)
}

// searchAttribute is an attribute read from a record's search
// attributes, as the type registered for it.
func searchAttribute(name string, t enumspb.IndexedValueType) filterAttribute {
	return filterAttribute{name: name, t: t, get: func(r *visibilityRecord) (any, bool) {
		v, err := testserver.DecodeSearchAttribute(r.attrs[name], t)
		return v, err == nil && v != nil
	}}
}

// operatorsOf says which operators a type takes, as a server says it.
func operatorsOf(attr filterAttribute) []string {
	switch {
	case attr.name == "ExecutionStatus":
		return []string{"=", "!=", "<", "<=", ">", ">=", "IN"}
	case attr.t == enumspb.INDEXED_VALUE_TYPE_KEYWORD:
		return []string{"=", "!=", "<", "<=", ">", ">=", "IN", "STARTS_WITH"}
	case attr.t == enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST:
		return []string{"=", "!=", "IN"}
	case attr.t == enumspb.INDEXED_VALUE_TYPE_TEXT:
		return []string{"=", "!="}
	}
	return []string{"=", "!=", "<", "<=", ">", ">=", "IN"}
}

// attributeResolver finds the attribute a filter names.
type attributeResolver func(name string) (filterAttribute, error)

// compileFilter turns a parsed filter into a predicate on runs.
func compileFilter(s *testserver.Server, n *filterNode) (runFilter, error) {
	return compileFilterWith(func(name string) (filterAttribute, error) { return resolveAttribute(s, name) }, n)
}

// compileFilterWith turns a parsed filter into a predicate on records
// whose attributes resolve finds.
func compileFilterWith(resolve attributeResolver, n *filterNode) (runFilter, error) {
	if n == nil {
		return nil, nil
	}
	switch n.op {
	case "AND", "OR":
		left, err := compileFilterWith(resolve, n.children[0])
		if err != nil {
			return nil, err
		}
		right, err := compileFilterWith(resolve, n.children[1])
		if err != nil {
			return nil, err
		}
		if n.op == "AND" {
			return func(r *visibilityRecord) truth { return and(left(r), right(r)) }, nil
		}
		return func(r *visibilityRecord) truth { return or(left(r), right(r)) }, nil
	case "NOT":
		inner, err := compileFilterWith(resolve, n.children[0])
		if err != nil {
			return nil, err
		}
		return func(r *visibilityRecord) truth { return not(inner(r)) }, nil
	}
	attr, err := resolve(n.name)
	if err != nil {
		return nil, err
	}
	cond, err := compileCondition(attr, n)
	if err != nil {
		return nil, err
	}
	if n.negate {
		return func(r *visibilityRecord) truth { return not(cond(r)) }, nil
	}
	return cond, nil
}

func compileCondition(attr filterAttribute, n *filterNode) (runFilter, error) {
	if n.op == "IS NULL" {
		return func(r *visibilityRecord) truth {
			_, present := attr.get(r)
			return truthOf(!present)
		}, nil
	}
	if n.op == "BETWEEN" {
		switch attr.t {
		case enumspb.INDEXED_VALUE_TYPE_DATETIME, enumspb.INDEXED_VALUE_TYPE_DOUBLE, enumspb.INDEXED_VALUE_TYPE_INT, enumspb.INDEXED_VALUE_TYPE_KEYWORD:
		default:
			return nil, invalidQuery("invalid expression: cannot do range condition on search attribute '%s' of type %s", n.name, attr.t)
		}
	} else if !slices.Contains(operatorsOf(attr), n.op) {
		return nil, invalidQuery("operation is not supported: operator '%s' not supported for %s type search attribute '%s'", n.op, attr.t, n.name)
	}
	values := make([]any, len(n.values))
	for i, v := range n.values {
		typed, err := typedLiteral(attr, n.name, v)
		if err != nil {
			return nil, err
		}
		values[i] = typed
	}
	return func(r *visibilityRecord) truth {
		actual, present := attr.get(r)
		switch {
		case !present && attr.t == enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST:
			actual = []string{} // a run without the list holds none of its values
		case !present:
			return truthUnknown
		}
		return truthOf(holds(n.op, actual, values))
	}, nil
}

// holds evaluates a condition on a value the run has.
func holds(op string, actual any, values []any) bool {
	if list, ok := actual.([]string); ok { // a keyword list: =, != and IN ask whether it holds a value
		contains := func(v any) bool { return slices.Contains(list, v.(string)) }
		switch op {
		case "=":
			return contains(values[0])
		case "!=":
			return !contains(values[0])
		}
		return slices.ContainsFunc(values, contains)
	}
	switch op {
	case "IN":
		return slices.ContainsFunc(values, func(v any) bool { return compareValues(actual, v) == 0 })
	case "BETWEEN":
		return compareValues(actual, values[0]) >= 0 && compareValues(actual, values[1]) <= 0
	case "STARTS_WITH":
		return strings.HasPrefix(actual.(string), values[0].(string))
	}
	c := compareValues(actual, values[0])
	switch op {
	case "=":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0 // ">="
}

// compareValues orders two values of one attribute's type.
func compareValues(a, b any) int {
	switch a := a.(type) {
	case string:
		return strings.Compare(a, b.(string))
	case time.Time:
		return a.Compare(b.(time.Time))
	case bool:
		return cmp.Compare(boolRank(a), boolRank(b.(bool)))
	case enumspb.WorkflowExecutionStatus:
		return cmp.Compare(a, b.(enumspb.WorkflowExecutionStatus))
	case int64:
		if b, ok := b.(int64); ok {
			return cmp.Compare(a, b)
		}
		return cmp.Compare(float64(a), b.(float64))
	case float64:
		if b, ok := b.(int64); ok {
			return cmp.Compare(a, float64(b))
		}
		return cmp.Compare(a, b.(float64))
	}
	return 0
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// typedLiteral checks a literal against its attribute's type, as a
// server does, and gives it the Go type of the attribute's values.
func typedLiteral(attr filterAttribute, name string, v any) (any, error) {
	wrongType := func() error {
		return invalidQuery("invalid expression: invalid value type for search attribute %s of type %s: %#v (type: %T)", name, attr.t, v, v)
	}
	switch attr.name {
	case "ExecutionStatus":
		switch v := v.(type) {
		case int64:
			if _, ok := enumspb.WorkflowExecutionStatus_name[int32(v)]; ok {
				return enumspb.WorkflowExecutionStatus(v), nil
			}
		case string:
			if status, err := enumspb.WorkflowExecutionStatusFromString(v); err == nil {
				return status, nil
			}
		}
		return nil, invalidQuery("invalid expression: invalid ExecutionStatus value '%v'", v)
	case "ExecutionDuration":
		switch v := v.(type) {
		case int64:
			return v, nil
		case string:
			if d, err := time.ParseDuration(v); err == nil {
				return int64(d), nil
			}
		}
		return nil, invalidQuery("invalid expression: invalid duration value for search attribute ExecutionDuration: %v", v)
	}
	switch attr.t {
	case enumspb.INDEXED_VALUE_TYPE_INT, enumspb.INDEXED_VALUE_TYPE_DOUBLE:
		if _, ok := v.(int64); ok {
			return v, nil
		}
		if _, ok := v.(float64); ok {
			return v, nil
		}
	case enumspb.INDEXED_VALUE_TYPE_BOOL:
		if _, ok := v.(bool); ok {
			return v, nil
		}
	case enumspb.INDEXED_VALUE_TYPE_DATETIME:
		switch t := v.(type) {
		case int64:
			return time.Unix(0, t), nil
		case string:
			tm, err := time.Parse(time.RFC3339Nano, t)
			if err != nil {
				return nil, invalidQuery("invalid expression: unable to parse datetime '%s'", t)
			}
			return tm, nil
		}
	case enumspb.INDEXED_VALUE_TYPE_KEYWORD, enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST:
		if _, ok := v.(string); ok {
			return v, nil
		}
	case enumspb.INDEXED_VALUE_TYPE_TEXT:
		s, ok := v.(string)
		if ok && strings.TrimSpace(s) == "" {
			return nil, invalidQuery("invalid expression: no tokens found filtering on Text type search attribute %s", name)
		}
		if ok {
			return v, nil
		}
	}
	return nil, wrongType()
}

func and(a, b truth) truth {
	switch {
	case a == truthFalse || b == truthFalse:
		return truthFalse
	case a == truthUnknown || b == truthUnknown:
		return truthUnknown
	}
	return truthTrue
}

func or(a, b truth) truth {
	switch {
	case a == truthTrue || b == truthTrue:
		return truthTrue
	case a == truthUnknown || b == truthUnknown:
		return truthUnknown
	}
	return truthFalse
}

func not(a truth) truth {
	switch a {
	case truthTrue:
		return truthFalse
	case truthFalse:
		return truthTrue
	}
	return truthUnknown
}
