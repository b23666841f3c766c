package frontend

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	namespacepb "go.temporal.io/api/namespace/v1"
	replicationpb "go.temporal.io/api/replication/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/internal/testserver"
	"github.com/durable-go/sdk/internal/uuid"
)

// Namespaces. Each is an in-memory server of its own, on the frontend's
// one clock: time skipping sees the work in flight in all of them. A
// call names its namespace; one that does not exist answers
// NamespaceNotFound, as a server's. The namespaces created at the start
// look as a dev server's do (retention one day); RegisterNamespace adds
// more, UpdateNamespace changes what the server keeps of them
// (description, owner, data, retention), which nothing else reads: runs
// are never deleted, whatever the retention, and no namespace is
// deprecated or deleted.

// namespace is one namespace the frontend serves.
type namespace struct {
	server *testserver.Server
	// desc is what DescribeNamespace answers (a copy of it); startRequests
	// finds the run a start request ID started, so that a client that
	// retries a start gets the same run. Both are guarded by Frontend.mu.
	desc          *workflowservice.DescribeNamespaceResponse
	startRequests map[string]*commonpb.WorkflowExecution
}

// clusterName is the one cluster's name, as a dev server calls it.
const clusterName = "active"

// minRetention is the shortest retention a server takes for a namespace
// (its system.namespaceMinRetentionLocal).
const minRetention = time.Hour

// Errors as a server words them.
var (
	errNamespaceNotSet  = serviceerror.NewInvalidArgument("Namespace not set on request.")
	errInvalidRetention = serviceerror.NewInvalidArgument("A valid retention period is not set on request.")
	errIDAndNameBothSet = serviceerror.NewInvalidArgument("GetNamespace operation failed.  Both ID and Name specified in request.")
)

// maxNamespaceNameSize is a server's limit.maxIDLength.
const maxNamespaceNameSize = 1000

// startNamespace describes a namespace created at the start, as a dev
// server creates its own.
func startNamespace(name string) *workflowservice.DescribeNamespaceResponse {
	return &workflowservice.DescribeNamespaceResponse{
		NamespaceInfo: &namespacepb.NamespaceInfo{Name: name, Id: uuid.New(), State: enumspb.NAMESPACE_STATE_REGISTERED},
		Config: &namespacepb.NamespaceConfig{
			WorkflowExecutionRetentionTtl: durationpb.New(24 * time.Hour),
			HistoryArchivalState:          enumspb.ARCHIVAL_STATE_DISABLED,
			VisibilityArchivalState:       enumspb.ARCHIVAL_STATE_DISABLED,
			BadBinaries:                   &namespacepb.BadBinaries{},
		},
		ReplicationConfig: &replicationpb.NamespaceReplicationConfig{
			ActiveClusterName: clusterName, Clusters: []*replicationpb.ClusterReplicationConfig{{ClusterName: clusterName}},
		},
	}
}

// newNamespace makes a namespace and its server; the caller adds it to
// f.namespaces (under f.mu, once the frontend runs).
func (f *Frontend) newNamespace(name string, desc *workflowservice.DescribeNamespaceResponse) *namespace {
	desc.NamespaceInfo.Capabilities = &namespacepb.NamespaceInfo_Capabilities{SyncUpdate: true, AsyncUpdate: true}
	ns := &namespace{server: f.newServer(name), desc: desc, startRequests: make(map[string]*commonpb.WorkflowExecution)}
	f.namespaceOrder = append(f.namespaceOrder, ns)
	return ns
}

// lookupNamespace finds a namespace by name.
func (f *Frontend) lookupNamespace(name string) (*namespace, error) {
	if name == "" {
		return nil, errNamespaceNotSet
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	ns := f.namespaces[name]
	if ns == nil {
		return nil, serviceerror.NewNamespaceNotFound(name)
	}
	return ns, nil
}

// serverOf is the in-memory server of the namespace a request names:
// every call of a namespace's workflows goes through it.
func (f *Frontend) serverOf(name string) (*testserver.Server, error) {
	ns, err := f.lookupNamespace(name)
	if err != nil {
		return nil, err
	}
	return ns.server, nil
}

// seenRequest returns the run a start request ID already started in a
// namespace.
func (f *Frontend) seenRequest(namespace, requestID string) *commonpb.WorkflowExecution {
	if requestID == "" {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if ns := f.namespaces[namespace]; ns != nil {
		return ns.startRequests[requestID]
	}
	return nil
}

func (f *Frontend) recordRequest(namespace, requestID string, execution *commonpb.WorkflowExecution) {
	if requestID == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if ns := f.namespaces[namespace]; ns != nil {
		ns.startRequests[requestID] = execution
	}
}

// checkRetention refuses a retention a server refuses.
func checkRetention(d *durationpb.Duration) error {
	if d == nil || d.CheckValid() != nil || d.AsDuration() < minRetention {
		return errInvalidRetention
	}
	return nil
}

// RegisterNamespace creates a namespace, with a server of its own.
func (f *Frontend) RegisterNamespace(_ context.Context, req *workflowservice.RegisterNamespaceRequest) (*workflowservice.RegisterNamespaceResponse, error) {
	name := req.GetNamespace()
	switch {
	case name == "":
		return nil, errNamespaceNotSet
	case len(name) > maxNamespaceNameSize:
		return nil, serviceerror.NewInvalidArgument("Namespace length exceeds limit.")
	case req.GetIsGlobalNamespace():
		return nil, serviceerror.NewInvalidArgument("Cannot register global namespace when not enabled")
	}
	if err := checkRetention(req.GetWorkflowExecutionRetentionPeriod()); err != nil {
		return nil, err
	}
	desc := &workflowservice.DescribeNamespaceResponse{
		NamespaceInfo: &namespacepb.NamespaceInfo{
			Name: name, Id: uuid.New(), State: enumspb.NAMESPACE_STATE_REGISTERED,
			Description: req.GetDescription(), OwnerEmail: req.GetOwnerEmail(), Data: maps.Clone(req.GetData()),
		},
		Config: &namespacepb.NamespaceConfig{
			WorkflowExecutionRetentionTtl: req.GetWorkflowExecutionRetentionPeriod(),
			HistoryArchivalState:          enumspb.ARCHIVAL_STATE_DISABLED,
			VisibilityArchivalState:       enumspb.ARCHIVAL_STATE_DISABLED,
			BadBinaries:                   &namespacepb.BadBinaries{},
		},
		ReplicationConfig: &replicationpb.NamespaceReplicationConfig{
			ActiveClusterName: clusterName, Clusters: []*replicationpb.ClusterReplicationConfig{{ClusterName: clusterName}},
			State: enumspb.REPLICATION_STATE_NORMAL,
		},
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.namespaces[name] != nil {
		return nil, serviceerror.NewNamespaceAlreadyExistsf("Namespace %q already exists", name)
	}
	f.namespaces[name] = f.newNamespace(name, desc)
	return &workflowservice.RegisterNamespaceResponse{}, nil
}

// DescribeNamespace describes a namespace, named by name or by ID.
func (f *Frontend) DescribeNamespace(_ context.Context, req *workflowservice.DescribeNamespaceRequest) (*workflowservice.DescribeNamespaceResponse, error) {
	switch {
	case req.GetId() != "" && req.GetNamespace() != "":
		return nil, errIDAndNameBothSet
	case req.GetId() == "" && req.GetNamespace() == "":
		return nil, errNamespaceNotSet
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if req.GetId() != "" {
		for _, ns := range f.namespaceOrder {
			if ns.desc.GetNamespaceInfo().GetId() == req.GetId() {
				return proto.CloneOf(ns.desc), nil
			}
		}
		return nil, serviceerror.NewNamespaceNotFound(req.GetId())
	}
	ns := f.namespaces[req.GetNamespace()]
	if ns == nil {
		return nil, serviceerror.NewNamespaceNotFound(req.GetNamespace())
	}
	return proto.CloneOf(ns.desc), nil
}

// ListNamespaces lists the namespaces in the order they were created, a
// page at a time (100 by default); the page token is the position of the
// page's first.
func (f *Frontend) ListNamespaces(_ context.Context, req *workflowservice.ListNamespacesRequest) (*workflowservice.ListNamespacesResponse, error) {
	size := int(req.GetPageSize())
	if size <= 0 {
		size = 100
	}
	from := 0
	if token := req.GetNextPageToken(); len(token) > 0 {
		n, err := strconv.Atoi(string(token))
		if err != nil || n < 0 {
			return nil, serviceerror.NewInvalidArgument(fmt.Sprintf("invalid namespace list page token %q", token))
		}
		from = n
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	resp := &workflowservice.ListNamespacesResponse{}
	for i := from; i < len(f.namespaceOrder) && i < from+size; i++ {
		resp.Namespaces = append(resp.Namespaces, proto.CloneOf(f.namespaceOrder[i].desc))
	}
	if from+size < len(f.namespaceOrder) {
		resp.NextPageToken = []byte(strconv.Itoa(from + size))
	}
	return resp, nil
}

// UpdateNamespace changes a namespace's description, owner, data (merged
// into what it had) and retention, as a server does; its state,
// replication, archival, bad binaries and search attribute aliases,
// which the embedded server has no use for, are refused when asked to
// change.
func (f *Frontend) UpdateNamespace(_ context.Context, req *workflowservice.UpdateNamespaceRequest) (*workflowservice.UpdateNamespaceResponse, error) {
	ns, err := f.lookupNamespace(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if why := unservedNamespaceUpdate(req); why != "" {
		return nil, serviceerror.NewInvalidArgument(fmt.Sprintf(
			"the embedded Temporal server does not change a namespace's %s: run a Temporal dev server (`temporal server start-dev`) for it", why))
	}
	if c := req.GetConfig(); c.GetWorkflowExecutionRetentionTtl() != nil {
		if err := checkRetention(c.GetWorkflowExecutionRetentionTtl()); err != nil {
			return nil, err
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	info := ns.desc.GetNamespaceInfo()
	if u := req.GetUpdateInfo(); u != nil {
		if u.GetDescription() != "" {
			info.Description = u.GetDescription()
		}
		if u.GetOwnerEmail() != "" {
			info.OwnerEmail = u.GetOwnerEmail()
		}
		if u.GetData() != nil {
			if info.Data == nil {
				info.Data = make(map[string]string, len(u.GetData()))
			}
			maps.Copy(info.Data, u.GetData())
		}
	}
	if d := req.GetConfig().GetWorkflowExecutionRetentionTtl(); d != nil {
		ns.desc.Config.WorkflowExecutionRetentionTtl = d
	}
	out := proto.CloneOf(ns.desc)
	return &workflowservice.UpdateNamespaceResponse{
		NamespaceInfo: out.GetNamespaceInfo(), Config: out.GetConfig(), ReplicationConfig: out.GetReplicationConfig(),
	}, nil
}

// unservedNamespaceUpdate names what an update asks to change that the
// embedded server does not keep, if anything. What a client sends as it
// is (the CLI sends the one cluster, archival disabled) is no change.
func unservedNamespaceUpdate(req *workflowservice.UpdateNamespaceRequest) string {
	c, r := req.GetConfig(), req.GetReplicationConfig()
	otherCluster := r.GetActiveClusterName() != "" && r.GetActiveClusterName() != clusterName
	for _, cl := range r.GetClusters() {
		otherCluster = otherCluster || cl.GetClusterName() != clusterName
	}
	switch {
	case req.GetUpdateInfo().GetState() != enumspb.NAMESPACE_STATE_UNSPECIFIED && req.GetUpdateInfo().GetState() != enumspb.NAMESPACE_STATE_REGISTERED:
		return "state (deprecated or deleted namespaces)"
	case otherCluster || req.GetPromoteNamespace() ||
		r.GetState() != enumspb.REPLICATION_STATE_UNSPECIFIED && r.GetState() != enumspb.REPLICATION_STATE_NORMAL:
		return "replication (there is one cluster)"
	case c.GetHistoryArchivalState() == enumspb.ARCHIVAL_STATE_ENABLED || c.GetVisibilityArchivalState() == enumspb.ARCHIVAL_STATE_ENABLED ||
		c.GetHistoryArchivalUri() != "" || c.GetVisibilityArchivalUri() != "":
		return "archival"
	case len(c.GetBadBinaries().GetBinaries()) > 0 || req.GetDeleteBadBinary() != "":
		return "bad binaries"
	case len(c.GetCustomSearchAttributeAliases()) > 0:
		return "search attribute aliases"
	}
	return ""
}
