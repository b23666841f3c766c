package frontend

import (
	"context"
	"maps"
	"slices"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/testserver"
)

// Search attributes, as a server with SQL visibility (a dev server) keeps
// them: every namespace has the system attributes, and registers its own
// custom ones through the OperatorService. The in-memory server checks
// the attributes of starts and commands against them
// (testserver/searchattr.go).

// GetSearchAttributes lists the search attributes a server knows: the
// system ones and the custom ones, by name. The request names no
// namespace; the custom attributes are those of the namespace the
// frontend started with (Options.Namespace).
func (f *Frontend) GetSearchAttributes(context.Context, *workflowservice.GetSearchAttributesRequest) (*workflowservice.GetSearchAttributesResponse, error) {
	s, err := f.serverOf(f.namespace)
	if err != nil {
		return nil, err
	}
	keys := testserver.SystemSearchAttributes()
	maps.Copy(keys, s.CustomSearchAttributes())
	return &workflowservice.GetSearchAttributesResponse{Keys: keys}, nil
}

// AddSearchAttributes registers custom search attributes in every
// namespace the frontend serves, as `temporal server start-dev
// --search-attribute` registers them in the namespaces it creates at the
// start.
func (f *Frontend) AddSearchAttributes(attrs map[string]enumspb.IndexedValueType) error {
	f.mu.Lock()
	namespaces := slices.Clone(f.namespaceOrder)
	f.mu.Unlock()
	for _, ns := range namespaces {
		if err := ns.server.AddSearchAttributes(attrs); err != nil {
			return err
		}
	}
	return nil
}

// The OperatorService's search attribute calls.

// AddSearchAttributes registers custom search attributes in a namespace.
// A name registered already is left as it is, as a server leaves it.
func (o *Operator) AddSearchAttributes(_ context.Context, req *operatorservice.AddSearchAttributesRequest) (*operatorservice.AddSearchAttributesResponse, error) {
	s, err := o.f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := s.AddSearchAttributes(req.GetSearchAttributes()); err != nil {
		return nil, err
	}
	return &operatorservice.AddSearchAttributesResponse{}, nil
}

// RemoveSearchAttributes unregisters custom search attributes of a
// namespace; names not registered are skipped.
func (o *Operator) RemoveSearchAttributes(_ context.Context, req *operatorservice.RemoveSearchAttributesRequest) (*operatorservice.RemoveSearchAttributesResponse, error) {
	s, err := o.f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := s.RemoveSearchAttributes(req.GetSearchAttributes()); err != nil {
		return nil, err
	}
	return &operatorservice.RemoveSearchAttributesResponse{}, nil
}

// ListSearchAttributes lists a namespace's custom search attributes and
// the system ones.
func (o *Operator) ListSearchAttributes(_ context.Context, req *operatorservice.ListSearchAttributesRequest) (*operatorservice.ListSearchAttributesResponse, error) {
	s, err := o.f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	custom := s.CustomSearchAttributes()
	if custom == nil {
		custom = map[string]enumspb.IndexedValueType{}
	}
	return &operatorservice.ListSearchAttributesResponse{
		CustomAttributes: custom,
		SystemAttributes: testserver.SystemSearchAttributes(),
	}, nil
}
