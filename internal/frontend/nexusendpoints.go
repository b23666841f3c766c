package frontend

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/testserver"
	"github.com/durable-go/sdk/internal/uuid"
)

// Nexus endpoints, as a server's OperatorService keeps them: the
// server's, not a namespace's; each routes the operations a workflow
// calls through it to a namespace's task queue, where that namespace's
// worker polls them (PollNexusTaskQueue). An endpoint has an ID and a
// version, 1 when created and one more at each update, which must name
// the version it updates. Endpoints with an external target (a URL) are
// refused: the embedded server calls no one.

// nexusEndpoints are the endpoints by ID. The zero value is empty.
type nexusEndpoints struct {
	mu   sync.Mutex
	byID map[string]*nexuspb.Endpoint
}

// endpointName is what a server accepts as an endpoint's name.
var endpointName = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9\-]*[a-zA-Z0-9]$`)

// Limits as a server's defaults set them.
const (
	maxEndpointNameSize   = 200
	maxTaskQueueNameSize  = 1000
	defaultEndpointsPage  = 100
	maxEndpointsPage      = 1000
	endpointURLPrefixRoot = "/nexus/endpoints/"
)

// target resolves an endpoint's name to where its operations go (the
// in-memory servers' Options.NexusEndpoint).
func (e *nexusEndpoints) target(name string) (testserver.NexusTarget, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if ep := e.byNameLocked(name); ep != nil {
		w := ep.GetSpec().GetTarget().GetWorker()
		return testserver.NexusTarget{EndpointID: ep.GetId(), Namespace: w.GetNamespace(), TaskQueue: w.GetTaskQueue()}, true
	}
	return testserver.NexusTarget{}, false
}

func (e *nexusEndpoints) byNameLocked(name string) *nexuspb.Endpoint {
	for _, ep := range e.byID {
		if ep.GetSpec().GetName() == name {
			return ep
		}
	}
	return nil
}

// checkSpec refuses an endpoint spec a server refuses, and one with an
// external target.
func (o *Operator) checkSpec(spec *nexuspb.EndpointSpec) error {
	var issues []string
	name := spec.GetName()
	switch {
	case name == "":
		issues = append(issues, "endpoint name not set")
	case len(name) > maxEndpointNameSize:
		issues = append(issues, fmt.Sprintf("endpoint name exceeds length limit of %d", maxEndpointNameSize))
	case !endpointName.MatchString(name):
		issues = append(issues, fmt.Sprintf("endpoint name must match the regex: %q", endpointName.String()))
	}
	switch target := spec.GetTarget().GetVariant().(type) {
	case nil:
		issues = append(issues, "empty target variant")
	case *nexuspb.EndpointTarget_External_:
		return serviceerror.NewUnimplemented(fmt.Sprintf(
			"the embedded Temporal server does not call Nexus endpoints with an external target (%q): "+
				"give endpoint %q a worker target (a namespace and task queue), or run a Temporal dev server (`temporal server start-dev`)",
			target.External.GetUrl(), name))
	case *nexuspb.EndpointTarget_Worker_:
		if ns := target.Worker.GetNamespace(); ns == "" {
			issues = append(issues, "target namespace not set")
		} else if _, err := o.f.lookupNamespace(ns); err != nil {
			return serviceerror.NewFailedPreconditionf("could not verify namespace referenced by target exists: %v", err)
		}
		switch q := target.Worker.GetTaskQueue(); {
		case q == "":
			issues = append(issues, `invalid target task queue: "taskQueue is not set"`)
		case len(q) > maxTaskQueueNameSize:
			issues = append(issues, fmt.Sprintf("invalid target task queue: %q", fmt.Sprintf("taskQueue length exceeds limit of %d", maxTaskQueueNameSize)))
		}
	}
	if len(issues) > 0 {
		return serviceerror.NewInvalidArgument(strings.Join(issues, ", "))
	}
	return nil
}

// checkEndpointID refuses an ID that cannot be an endpoint's.
func checkEndpointID(id string) error {
	if id == "" {
		return serviceerror.NewInvalidArgument("endpoint ID not set")
	}
	if !isUUID(id) {
		return serviceerror.NewInvalidArgument(fmt.Sprintf("malformed endpoint ID: %q", "not a UUID: "+id))
	}
	return nil
}

// isUUID reports whether s is a UUID in its textual form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case !strings.ContainsRune("0123456789abcdefABCDEF", c):
			return false
		}
	}
	return true
}

// CreateNexusEndpoint creates an endpoint, at version 1.
func (o *Operator) CreateNexusEndpoint(_ context.Context, req *operatorservice.CreateNexusEndpointRequest) (*operatorservice.CreateNexusEndpointResponse, error) {
	if err := o.checkSpec(req.GetSpec()); err != nil {
		return nil, err
	}
	e := &o.f.endpoints
	e.mu.Lock()
	defer e.mu.Unlock()
	name := req.GetSpec().GetName()
	if e.byNameLocked(name) != nil {
		return nil, serviceerror.NewAlreadyExistsf("error creating Nexus endpoint. Endpoint with name %v already registered", name)
	}
	id := uuid.New()
	ep := &nexuspb.Endpoint{
		Version: 1, Id: id, Spec: proto.CloneOf(req.GetSpec()),
		CreatedTime: timestamppb.New(o.f.clock.Now()), UrlPrefix: endpointURLPrefixRoot + id + "/services",
	}
	if e.byID == nil {
		e.byID = make(map[string]*nexuspb.Endpoint)
	}
	e.byID[id] = ep
	return &operatorservice.CreateNexusEndpointResponse{Endpoint: proto.CloneOf(ep)}, nil
}

// UpdateNexusEndpoint replaces an endpoint's spec, if the request names
// its current version; the version goes up by one.
func (o *Operator) UpdateNexusEndpoint(_ context.Context, req *operatorservice.UpdateNexusEndpointRequest) (*operatorservice.UpdateNexusEndpointResponse, error) {
	if err := o.checkSpec(req.GetSpec()); err != nil {
		return nil, err
	}
	if err := checkEndpointID(req.GetId()); err != nil {
		return nil, err
	}
	e := &o.f.endpoints
	e.mu.Lock()
	defer e.mu.Unlock()
	ep := e.byID[req.GetId()]
	if ep == nil {
		return nil, serviceerror.NewNotFoundf("error updating Nexus endpoint. endpoint ID %v not found", req.GetId())
	}
	if req.GetVersion() != ep.GetVersion() {
		return nil, serviceerror.NewFailedPreconditionf("nexus endpoint version mismatch. received: %v expected %v", req.GetVersion(), ep.GetVersion())
	}
	// Unlike a server, which lets an update take another endpoint's name
	// and then routes that name to either, the name stays one endpoint's.
	if other := e.byNameLocked(req.GetSpec().GetName()); other != nil && other != ep {
		return nil, serviceerror.NewAlreadyExistsf("error updating Nexus endpoint. Endpoint with name %v already registered", req.GetSpec().GetName())
	}
	ep.Spec = proto.CloneOf(req.GetSpec())
	ep.Version++
	ep.LastModifiedTime = timestamppb.New(o.f.clock.Now())
	return &operatorservice.UpdateNexusEndpointResponse{Endpoint: proto.CloneOf(ep)}, nil
}

// DeleteNexusEndpoint deletes an endpoint. As on a server, the version
// must be positive but need not be the endpoint's.
func (o *Operator) DeleteNexusEndpoint(_ context.Context, req *operatorservice.DeleteNexusEndpointRequest) (*operatorservice.DeleteNexusEndpointResponse, error) {
	if err := checkEndpointID(req.GetId()); err != nil {
		return nil, err
	}
	if req.GetVersion() <= 0 {
		return nil, serviceerror.NewInvalidArgument("endpoint version is non-positive")
	}
	e := &o.f.endpoints
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.byID[req.GetId()] == nil {
		return nil, serviceerror.NewNotFoundf("error deleting nexus endpoint with ID: %v", req.GetId())
	}
	delete(e.byID, req.GetId())
	return &operatorservice.DeleteNexusEndpointResponse{}, nil
}

// GetNexusEndpoint reads an endpoint by ID.
func (o *Operator) GetNexusEndpoint(_ context.Context, req *operatorservice.GetNexusEndpointRequest) (*operatorservice.GetNexusEndpointResponse, error) {
	if err := checkEndpointID(req.GetId()); err != nil {
		return nil, err
	}
	e := &o.f.endpoints
	e.mu.Lock()
	defer e.mu.Unlock()
	ep := e.byID[req.GetId()]
	if ep == nil {
		return nil, serviceerror.NewNotFoundf("Nexus endpoint with ID `%v` not found", req.GetId())
	}
	return &operatorservice.GetNexusEndpointResponse{Endpoint: proto.CloneOf(ep)}, nil
}

// ListNexusEndpoints lists the endpoints in the order of their IDs, a
// page at a time (the page token is the next page's first ID), or the
// one of the name asked for (none if there is none).
func (o *Operator) ListNexusEndpoints(_ context.Context, req *operatorservice.ListNexusEndpointsRequest) (*operatorservice.ListNexusEndpointsResponse, error) {
	e := &o.f.endpoints
	e.mu.Lock()
	defer e.mu.Unlock()
	if name := req.GetName(); name != "" {
		resp := &operatorservice.ListNexusEndpointsResponse{}
		if ep := e.byNameLocked(name); ep != nil {
			resp.Endpoints = []*nexuspb.Endpoint{proto.CloneOf(ep)}
		}
		return resp, nil
	}
	size := int(req.GetPageSize())
	switch {
	case size < 0:
		return nil, serviceerror.NewInvalidArgument("page_size is negative")
	case size > maxEndpointsPage:
		return nil, serviceerror.NewInvalidArgumentf("page_size exceeds limit of %d", maxEndpointsPage)
	case size == 0:
		size = defaultEndpointsPage
	}
	ids := slices.Sorted(maps.Keys(e.byID))
	from := 0
	if token := string(req.GetNextPageToken()); token != "" {
		i, found := slices.BinarySearch(ids, token)
		if !found {
			return nil, serviceerror.NewFailedPrecondition("could not find endpoint indicated by nexus list endpoints next page token")
		}
		from = i
	}
	to := min(from+size, len(ids))
	resp := &operatorservice.ListNexusEndpointsResponse{}
	for _, id := range ids[from:to] {
		resp.Endpoints = append(resp.Endpoints, proto.CloneOf(e.byID[id]))
	}
	if to < len(ids) {
		resp.NextPageToken = []byte(ids[to])
	}
	return resp, nil
}
