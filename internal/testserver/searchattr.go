package testserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
)

// Search attributes as a Temporal server keeps them (1.32, with SQL
// visibility, as on a dev server): the system attributes every namespace
// has, and the custom ones registered per namespace. With
// Options.CheckSearchAttributes the server refuses, as a server does, a
// start, a child, a continue-as-new or an upsert that names an attribute
// it does not know, one users may not set, or a value of the wrong type.

// systemAttributes are the attributes a server keeps itself, which no
// request may set; listed as system attributes.
var systemAttributes = map[string]enumspb.IndexedValueType{
	"WorkflowId": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "RunId": enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	"WorkflowType": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "StartTime": enumspb.INDEXED_VALUE_TYPE_DATETIME,
	"ExecutionTime": enumspb.INDEXED_VALUE_TYPE_DATETIME, "CloseTime": enumspb.INDEXED_VALUE_TYPE_DATETIME,
	"ExecutionStatus": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "TaskQueue": enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	"HistoryLength": enumspb.INDEXED_VALUE_TYPE_INT, "ExecutionDuration": enumspb.INDEXED_VALUE_TYPE_INT,
	"StateTransitionCount": enumspb.INDEXED_VALUE_TYPE_INT, "HistorySizeBytes": enumspb.INDEXED_VALUE_TYPE_INT,
	"ParentWorkflowId": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "ParentRunId": enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	"RootWorkflowId": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "RootRunId": enumspb.INDEXED_VALUE_TYPE_KEYWORD,
}

// predefinedAttributes are the server's own attributes kept among the
// run's search attributes; settable marks those a request may set
// (TemporalChangeVersion is the SDKs' workflow.GetVersion record).
var predefinedAttributes = map[string]struct {
	t        enumspb.IndexedValueType
	settable bool
}{
	"TemporalChangeVersion":                {enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, true},
	"BinaryChecksums":                      {enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, true},
	"BuildIds":                             {enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, true},
	"BatcherNamespace":                     {enumspb.INDEXED_VALUE_TYPE_KEYWORD, true},
	"BatcherUser":                          {enumspb.INDEXED_VALUE_TYPE_KEYWORD, true},
	"TemporalScheduledStartTime":           {enumspb.INDEXED_VALUE_TYPE_DATETIME, true},
	"TemporalScheduledById":                {enumspb.INDEXED_VALUE_TYPE_KEYWORD, true},
	"TemporalSchedulePaused":               {enumspb.INDEXED_VALUE_TYPE_BOOL, true},
	"TemporalNamespaceDivision":            {enumspb.INDEXED_VALUE_TYPE_KEYWORD, true},
	"TemporalPauseInfo":                    {enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, true},
	"TemporalReportedProblems":             {enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, true},
	"TemporalWorkerDeploymentVersion":      {enumspb.INDEXED_VALUE_TYPE_KEYWORD, false},
	"TemporalWorkflowVersioningBehavior":   {enumspb.INDEXED_VALUE_TYPE_KEYWORD, false},
	"TemporalWorkerDeployment":             {enumspb.INDEXED_VALUE_TYPE_KEYWORD, false},
	"TemporalUsedWorkerDeploymentVersions": {enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, false},
	"TemporalExternalPayloadCount":         {enumspb.INDEXED_VALUE_TYPE_INT, false},
	"TemporalExternalPayloadSizeBytes":     {enumspb.INDEXED_VALUE_TYPE_INT, false},
}

// reservedAttributeNames are further names a custom attribute may not
// take: fields of the visibility store.
var reservedAttributeNames = map[string]bool{"NamespaceId": true, "MemoEncoding": true, "Memo": true, "VisibilityTaskKey": true}

// customAttributeSlots is how many custom attributes of each type a
// namespace may have: the columns a server's SQL visibility store
// (a dev server's) allocates for them.
var customAttributeSlots = map[enumspb.IndexedValueType]int{
	enumspb.INDEXED_VALUE_TYPE_BOOL: 3, enumspb.INDEXED_VALUE_TYPE_INT: 3, enumspb.INDEXED_VALUE_TYPE_DOUBLE: 3,
	enumspb.INDEXED_VALUE_TYPE_DATETIME: 3, enumspb.INDEXED_VALUE_TYPE_KEYWORD: 10,
	enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST: 3, enumspb.INDEXED_VALUE_TYPE_TEXT: 3,
}

// A server's default limits on a request's search attributes.
const (
	maxSearchAttributes         = 100
	maxSearchAttributeValueSize = 2 * 1024
	maxSearchAttributesSize     = 40 * 1024
)

// SystemSearchAttributes are the attributes every namespace has, by name:
// those a server keeps itself and its predefined ones, as
// ListSearchAttributes lists them.
func SystemSearchAttributes() map[string]enumspb.IndexedValueType {
	out := maps.Clone(systemAttributes)
	for name, p := range predefinedAttributes {
		out[name] = p.t
	}
	return out
}

// IsSystemSearchAttribute reports whether name is one of the attributes
// a server keeps itself (WorkflowId, StartTime, ...), which visibility
// queries read from the run rather than from its search attributes.
func IsSystemSearchAttribute(name string) bool {
	_, ok := systemAttributes[name]
	return ok
}

// CustomSearchAttributes are the custom attributes registered, by name.
func (s *Server) CustomSearchAttributes() map[string]enumspb.IndexedValueType {
	s.lock()
	defer s.unlock()
	return maps.Clone(s.customAttrs)
}

// SearchAttributeType is the type of a system or custom attribute.
func (s *Server) SearchAttributeType(name string) (enumspb.IndexedValueType, bool) {
	if t, ok := systemAttributes[name]; ok {
		return t, true
	}
	if p, ok := predefinedAttributes[name]; ok {
		return p.t, true
	}
	s.lock()
	defer s.unlock()
	t, ok := s.customAttrs[name]
	return t, ok
}

// AddSearchAttributes registers custom attributes, as a server's
// OperatorService does: a name already registered is left as it is
// (whatever the type asked for), a reserved name or an unknown type is
// refused, and so is an attribute beyond the slots of its type.
func (s *Server) AddSearchAttributes(attrs map[string]enumspb.IndexedValueType) error {
	if len(attrs) == 0 {
		return serviceerror.NewInvalidArgument("SearchAttributes are not set on request.")
	}
	names := sortedNames(attrs)
	for _, name := range names {
		if _, ok := systemAttributes[name]; ok || reservedAttributeNames[name] || isPredefined(name) {
			return serviceerror.NewInvalidArgumentf("Search attribute %s is reserved by system.", name)
		}
		if _, ok := customAttributeSlots[attrs[name]]; !ok {
			return serviceerror.NewInvalidArgumentf("Unknown search attribute type: %v.", attrs[name])
		}
	}
	s.lock()
	defer s.unlock()
	used := make(map[enumspb.IndexedValueType]int)
	for _, t := range s.customAttrs {
		used[t]++
	}
	added := make(map[string]enumspb.IndexedValueType)
	for _, name := range names {
		if _, ok := s.customAttrs[name]; ok {
			continue
		}
		t := attrs[name]
		if used[t] == customAttributeSlots[t] {
			return serviceerror.NewInvalidArgumentf("Unable to create search attributes: cannot have more than %d search attribute of type %s.", used[t], t)
		}
		used[t]++
		added[name] = t
	}
	if s.customAttrs == nil {
		s.customAttrs = make(map[string]enumspb.IndexedValueType)
	}
	maps.Copy(s.customAttrs, added)
	return nil
}

// RemoveSearchAttributes unregisters custom attributes, as a server's
// OperatorService does: names not registered are skipped, and a system
// attribute cannot be removed. Runs keep the values they have.
func (s *Server) RemoveSearchAttributes(names []string) error {
	if len(names) == 0 {
		return serviceerror.NewInvalidArgument("SearchAttributes are not set on request.")
	}
	for _, name := range names {
		if _, ok := systemAttributes[name]; ok || isPredefined(name) {
			return serviceerror.NewInvalidArgumentf("Unable to remove non-custom search attributes: %v.", name)
		}
	}
	s.lock()
	defer s.unlock()
	for _, name := range names {
		delete(s.customAttrs, name)
	}
	return nil
}

func isPredefined(name string) bool {
	_, ok := predefinedAttributes[name]
	return ok
}

// CheckSearchAttributes refuses search attributes a server would: too
// many or too large, a name the namespace does not know or one users may
// not set, a value that is not of the attribute's type. The error is
// InvalidArgument with the server's message. Without
// Options.CheckSearchAttributes every attribute passes.
func (s *Server) CheckSearchAttributes(attrs *commonpb.SearchAttributes) error {
	s.lock()
	defer s.unlock()
	return s.checkSearchAttributesLocked(attrs)
}

func (s *Server) checkSearchAttributesLocked(attrs *commonpb.SearchAttributes) error {
	if err := s.checkSearchAttributeNamesLocked(attrs); err != nil {
		return err
	}
	return s.checkSearchAttributeValuesLocked(attrs)
}

// checkSearchAttributeNamesLocked refuses a name that is neither a
// server's attribute nor a custom one registered: a server's first check,
// as it maps names to its store's columns.
func (s *Server) checkSearchAttributeNamesLocked(attrs *commonpb.SearchAttributes) error {
	if !s.opts.CheckSearchAttributes {
		return nil
	}
	for _, name := range sortedNames(attrs.GetIndexedFields()) {
		_, system := systemAttributes[name]
		_, custom := s.customAttrs[name]
		if !system && !custom && !isPredefined(name) {
			return serviceerror.NewInvalidArgumentf("Namespace %s has no mapping defined for search attribute %s", s.opts.Namespace, name)
		}
	}
	return nil
}

// checkSearchAttributeValuesLocked refuses too many attributes, one users
// may not set, and values not of their attribute's type or too large.
func (s *Server) checkSearchAttributeValuesLocked(attrs *commonpb.SearchAttributes) error {
	fields := attrs.GetIndexedFields()
	if !s.opts.CheckSearchAttributes || len(fields) == 0 {
		return nil
	}
	if len(fields) > maxSearchAttributes {
		return serviceerror.NewInvalidArgumentf("number of search attributes %d exceeds limit %d", len(fields), maxSearchAttributes)
	}
	for _, name := range sortedNames(fields) {
		value := fields[name]
		if _, ok := systemAttributes[name]; ok {
			return serviceerror.NewInvalidArgumentf("%s attribute can't be set in SearchAttributes", name)
		}
		t := s.customAttrs[name]
		if p, predefined := predefinedAttributes[name]; predefined {
			if !p.settable {
				return serviceerror.NewInvalidArgumentf("%s attribute can't be set in SearchAttributes", name)
			}
			t = p.t
		}
		if _, err := DecodeSearchAttribute(value, t); err != nil {
			return serviceerror.NewInvalidArgumentf("invalid value for search attribute %s of type %s: %v", name, t, describePayload(value))
		}
		if len(value.GetData()) > maxSearchAttributeValueSize {
			return serviceerror.NewInvalidArgumentf("search attribute %s value size %d exceeds size limit %d", name, len(value.GetData()), maxSearchAttributeValueSize)
		}
	}
	if size := attrs.Size(); size > maxSearchAttributesSize {
		return serviceerror.NewInvalidArgumentf("total size of search attributes %d exceeds size limit %d", size, maxSearchAttributesSize)
	}
	return nil
}

// badSearchAttributes finds the first command whose search attributes a
// server refuses and says why, as the WorkflowTaskFailed event of a
// server says it (cause BAD_SEARCH_ATTRIBUTES).
func (s *Server) badSearchAttributes(cmds []*commandpb.Command) string {
	if !s.opts.CheckSearchAttributes {
		return ""
	}
	for _, cmd := range cmds {
		var err error
		switch cmd.GetCommandType() {
		case enumspb.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
			attrs := cmd.GetUpsertWorkflowSearchAttributesCommandAttributes().GetSearchAttributes()
			if len(attrs.GetIndexedFields()) == 0 {
				err = serviceerror.NewInvalidArgument("IndexedFields is not set on UpsertWorkflowSearchAttributesCommand.")
			} else {
				err = s.checkSearchAttributesLocked(attrs)
			}
		case enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION:
			a := cmd.GetContinueAsNewWorkflowExecutionCommandAttributes()
			if err = s.checkSearchAttributeNamesLocked(a.GetSearchAttributes()); err == nil {
				if err = s.checkSearchAttributeValuesLocked(a.GetSearchAttributes()); err != nil {
					err = fmt.Errorf("invalid SearchAttributes on ContinueAsNewWorkflowExecutionCommand: %w. WorkflowType=%s TaskQueue=%s",
						err, a.GetWorkflowType().GetName(), a.GetTaskQueue().GetName())
				}
			}
		case enumspb.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION:
			a := cmd.GetStartChildWorkflowExecutionCommandAttributes()
			if err = s.checkSearchAttributeNamesLocked(a.GetSearchAttributes()); err == nil {
				if err = s.checkSearchAttributeValuesLocked(a.GetSearchAttributes()); err != nil {
					err = fmt.Errorf("invalid SearchAttributes on StartChildWorkflowCommand: %w. WorkflowId=%s WorkflowType=%s Namespace=%s",
						err, a.GetWorkflowId(), a.GetWorkflowType().GetName(), s.opts.Namespace)
				}
			}
		}
		if err != nil {
			return fmt.Sprintf("%v: %v", enumspb.WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES, err)
		}
	}
	return ""
}

// describePayload shows a value the way a server's message does: its
// JSON decoded, or the payload itself.
func describePayload(p *commonpb.Payload) string {
	var v any
	if isJSON(p) && json.Unmarshal(p.GetData(), &v) == nil {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("value from <%s>", p.String())
}

func isJSON(p *commonpb.Payload) bool {
	return string(p.GetMetadata()["encoding"]) == "json/plain"
}

// isNullPayload reports a value that stands for no value: an upsert of it
// removes the attribute.
func isNullPayload(p *commonpb.Payload) bool {
	if p == nil || string(p.GetMetadata()["encoding"]) == "binary/null" {
		return true
	}
	d := bytes.TrimSpace(p.GetData())
	return len(d) == 0 || string(d) == "null" || string(d) == "[]"
}

// DecodeSearchAttribute reads a search attribute's value as the type
// registered for it: a string (Keyword, Text), []string (KeywordList),
// int64, float64, bool or time.Time; nil for no value. A list of one
// value stands for the value, as on a server; anything else not of the
// type is an error.
func DecodeSearchAttribute(p *commonpb.Payload, t enumspb.IndexedValueType) (any, error) {
	if isNullPayload(p) {
		return nil, nil
	}
	if !isJSON(p) {
		return nil, fmt.Errorf("a search attribute's value must be JSON (json/plain), not %q", p.GetMetadata()["encoding"])
	}
	switch t {
	case enumspb.INDEXED_VALUE_TYPE_KEYWORD, enumspb.INDEXED_VALUE_TYPE_TEXT:
		return decodeOne[string](p.GetData())
	case enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST:
		var list []string
		if err := json.Unmarshal(p.GetData(), &list); err != nil {
			return nil, err
		}
		return list, nil
	case enumspb.INDEXED_VALUE_TYPE_INT:
		return decodeOne[int64](p.GetData())
	case enumspb.INDEXED_VALUE_TYPE_DOUBLE:
		return decodeOne[float64](p.GetData())
	case enumspb.INDEXED_VALUE_TYPE_BOOL:
		return decodeOne[bool](p.GetData())
	case enumspb.INDEXED_VALUE_TYPE_DATETIME:
		return decodeOne[time.Time](p.GetData())
	}
	return nil, fmt.Errorf("unknown search attribute type %v", t)
}

// decodeOne decodes a value of type T, or a list that holds one.
func decodeOne[T any](data []byte) (any, error) {
	var v T
	if err := json.Unmarshal(data, &v); err == nil {
		return v, nil
	}
	var list []T
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	if len(list) != 1 {
		return nil, fmt.Errorf("a list of %d values where one is expected", len(list))
	}
	return list[0], nil
}

// withoutNulls drops the attributes without a value, as a server does
// from a start's search attributes.
func withoutNulls(attrs *commonpb.SearchAttributes) *commonpb.SearchAttributes {
	for _, v := range attrs.GetIndexedFields() {
		if isNullPayload(v) {
			out := &commonpb.SearchAttributes{IndexedFields: make(map[string]*commonpb.Payload)}
			for k, v := range attrs.GetIndexedFields() {
				if !isNullPayload(v) {
					out.IndexedFields[k] = v
				}
			}
			return out
		}
	}
	return attrs
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
