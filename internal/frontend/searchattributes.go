package frontend

import (
	"context"
	"maps"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
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
// namespace; the custom attributes are those of the namespace served.
func (f *Frontend) GetSearchAttributes(context.Context, *workflowservice.GetSearchAttributesRequest) (*workflowservice.GetSearchAttributesResponse, error) {
	s, err := f.serverOf(f.namespace)
	if err != nil {
		return nil, err
	}
	keys := testserver.SystemSearchAttributes()
	maps.Copy(keys, s.CustomSearchAttributes())
	return &workflowservice.GetSearchAttributesResponse{Keys: keys}, nil
}

// SearchAttributeOperator serves the OperatorService's search attribute
// calls (add, remove, list) over the frontend's namespaces; the type
// that serves the whole OperatorService forwards them to it.
type SearchAttributeOperator struct{ f *Frontend }

// SearchAttributeOperator returns the frontend's search attribute calls
// of the OperatorService.
func (f *Frontend) SearchAttributeOperator() SearchAttributeOperator {
	return SearchAttributeOperator{f}
}

var errNamespaceNotSet = serviceerror.NewInvalidArgument("Namespace is not set on request.")

func (o SearchAttributeOperator) server(namespace string) (*testserver.Server, error) {
	if namespace == "" {
		return nil, errNamespaceNotSet
	}
	return o.f.serverOf(namespace)
}

// AddSearchAttributes registers custom search attributes in a namespace.
// A name registered already is left as it is, as a server leaves it.
func (o SearchAttributeOperator) AddSearchAttributes(_ context.Context, req *operatorservice.AddSearchAttributesRequest) (*operatorservice.AddSearchAttributesResponse, error) {
	s, err := o.server(req.GetNamespace())
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
func (o SearchAttributeOperator) RemoveSearchAttributes(_ context.Context, req *operatorservice.RemoveSearchAttributesRequest) (*operatorservice.RemoveSearchAttributesResponse, error) {
	s, err := o.server(req.GetNamespace())
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
func (o SearchAttributeOperator) ListSearchAttributes(_ context.Context, req *operatorservice.ListSearchAttributesRequest) (*operatorservice.ListSearchAttributesResponse, error) {
	s, err := o.server(req.GetNamespace())
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

// operatorService is the OperatorService as far as the embedded server
// serves it; the calls it lacks answer Unimplemented.
type operatorService struct {
	operatorservice.UnimplementedOperatorServiceServer
	searchAttributes SearchAttributeOperator
}

// OperatorService is the OperatorService the frontend serves, for
// operatorservice.RegisterOperatorServiceServer.
func (f *Frontend) OperatorService() operatorservice.OperatorServiceServer {
	return operatorService{searchAttributes: f.SearchAttributeOperator()}
}

func (o operatorService) AddSearchAttributes(ctx context.Context, req *operatorservice.AddSearchAttributesRequest) (*operatorservice.AddSearchAttributesResponse, error) {
	return o.searchAttributes.AddSearchAttributes(ctx, req)
}

func (o operatorService) RemoveSearchAttributes(ctx context.Context, req *operatorservice.RemoveSearchAttributesRequest) (*operatorservice.RemoveSearchAttributesResponse, error) {
	return o.searchAttributes.RemoveSearchAttributes(ctx, req)
}

func (o operatorService) ListSearchAttributes(ctx context.Context, req *operatorservice.ListSearchAttributesRequest) (*operatorservice.ListSearchAttributesResponse, error) {
	return o.searchAttributes.ListSearchAttributes(ctx, req)
}
