package internal

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	sdkpb "go.temporal.io/api/sdk/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/registry"
)

// Built-in query types, answered by every workflow.
const (
	QueryTypeStackTrace       = "__stack_trace"
	QueryTypeOpenSessions     = "__open_sessions"
	QueryTypeWorkflowMetadata = "__temporal_workflow_metadata"
)

// QueryHandlerOptions configure a query handler.
type QueryHandlerOptions struct {
	// Description documents the query in the workflow's metadata.
	Description string
}

type queryHandler struct {
	fn          *registry.Func
	description string
}

// queryHandlers are a run's query handlers by query type.
type queryHandlers map[string]*queryHandler

var errorType = reflect.TypeFor[error]()

// SetQueryHandler registers handler to answer queries of queryType. The
// handler is a function of any serializable arguments that returns
// (result, error); it must not change workflow state or block.
func SetQueryHandler(ctx Context, queryType string, handler any) error {
	return runOf(ctx).outbound.SetQueryHandler(ctx, queryType, handler)
}

// SetQueryHandlerWithOptions is SetQueryHandler with options.
func SetQueryHandlerWithOptions(ctx Context, queryType string, handler any, options QueryHandlerOptions) error {
	return runOf(ctx).outbound.SetQueryHandlerWithOptions(ctx, queryType, handler, options)
}

// setQueryHandler is SetQueryHandlerWithOptions at the end of the
// interceptor chain.
func (r *workflowRun) setQueryHandler(queryType string, handler any, options QueryHandlerOptions) error {
	if strings.HasPrefix(queryType, "__") {
		return fmt.Errorf("query type %q is reserved: names starting with __ belong to the SDK", queryType)
	}
	v := reflect.ValueOf(handler)
	if v.Kind() != reflect.Func {
		return fmt.Errorf("query handler for %q must be a function, got %T", queryType, handler)
	}
	t := v.Type()
	if t.NumOut() != 2 || t.Out(1) != errorType {
		return fmt.Errorf("query handler for %q must return (result, error), it returns %d values", queryType, t.NumOut())
	}
	if r.queries == nil {
		r.queries = make(queryHandlers)
	}
	r.queries[queryType] = &queryHandler{fn: &registry.Func{Name: queryType, Fn: v}, description: options.Description}
	return nil
}

// Query answers a query against the run's current state. Built-in
// queries are answered here; the others go through the run's inbound
// interceptors to their handlers, with arguments decoded for the handler.
func (r *workflowRun) Query(queryType string, args *commonpb.Payloads, header *commonpb.Header) (*commonpb.Payloads, error) {
	switch queryType {
	case QueryTypeStackTrace:
		return r.dc.ToPayloads(r.StackTrace())
	case QueryTypeOpenSessions:
		return r.dc.ToPayloads(r.sessionList())
	case QueryTypeWorkflowMetadata:
		// Encoded with the default converter, as go.temporal.io/sdk does,
		// so the UI can always read it.
		return converter.GetDefaultDataConverter().ToPayloads(r.metadata())
	}
	h := r.queries[queryType]
	if h == nil {
		return nil, r.unknownQuery(queryType)
	}
	values, err := h.fn.DecodeArgs(r.dc, args, "query")
	if err != nil {
		return nil, err
	}
	result, err := r.handleQuery(header, &HandleQueryInput{QueryType: queryType, Args: registry.Interfaces(values)})
	if err != nil {
		return nil, err
	}
	return r.dc.ToPayloads(result)
}

func (r *workflowRun) unknownQuery(queryType string) error {
	return fmt.Errorf("unknown queryType %s. KnownQueryTypes=[%s]", queryType, strings.Join(r.queryTypes(), " "))
}

// handleQuery calls the inbound chain, turning a panic (of a handler, an
// interceptor or a propagator) into an error: a bad query must not break
// the worker.
func (r *workflowRun) handleQuery(header *commonpb.Header, in *HandleQueryInput) (result any, err error) {
	r.setReadOnly(true)
	defer r.setReadOnly(false)
	defer recoverInto(&err, "query handler")
	ctx, err := r.incomingContext(header)
	if err != nil {
		return nil, err
	}
	return r.inbound.HandleQuery(ctx, in)
}

// queryTypes lists the built-in query types, then the run's, sorted.
func (r *workflowRun) queryTypes() []string {
	user := make([]string, 0, len(r.queries))
	for t := range r.queries {
		user = append(user, t)
	}
	slices.Sort(user)
	return append([]string{QueryTypeStackTrace, QueryTypeOpenSessions, QueryTypeWorkflowMetadata}, user...)
}

// metadata describes the run's handlers for the UI.
func (r *workflowRun) metadata() *sdkpb.WorkflowMetadata {
	def := &sdkpb.WorkflowDefinition{Type: r.info.WorkflowType.Name}
	def.QueryDefinitions = []*sdkpb.WorkflowInteractionDefinition{
		{Name: QueryTypeStackTrace, Description: "Current stack trace"},
		{Name: QueryTypeOpenSessions, Description: "Open sessions on the workflow"},
		{Name: QueryTypeWorkflowMetadata, Description: "Metadata about the workflow"},
	}
	for name, h := range r.queries {
		def.QueryDefinitions = append(def.QueryDefinitions, &sdkpb.WorkflowInteractionDefinition{Name: name, Description: h.description})
	}
	for _, c := range r.signals.list {
		if c.requested {
			def.SignalDefinitions = append(def.SignalDefinitions, &sdkpb.WorkflowInteractionDefinition{Name: c.Name(), Description: c.description})
		}
	}
	for name, h := range r.updates.handlers {
		def.UpdateDefinitions = append(def.UpdateDefinitions, &sdkpb.WorkflowInteractionDefinition{Name: name, Description: h.options.Description})
	}
	byName := func(a, b *sdkpb.WorkflowInteractionDefinition) int { return strings.Compare(a.Name, b.Name) }
	slices.SortFunc(def.QueryDefinitions, byName)
	slices.SortFunc(def.SignalDefinitions, byName)
	slices.SortFunc(def.UpdateDefinitions, byName)
	return &sdkpb.WorkflowMetadata{Definition: def, CurrentDetails: r.currentDetails}
}
