package frontend

import (
	"context"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	namespacepb "go.temporal.io/api/namespace/v1"
	replicationpb "go.temporal.io/api/replication/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

// ServerVersion is the version the embedded server reports.
const ServerVersion = "embedded"

// GetSystemInfo reports what the server supports. Eager workflow start
// and build-ID versioning are left out: the server does not do them.
func (f *Frontend) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	return &workflowservice.GetSystemInfoResponse{
		ServerVersion: ServerVersion,
		Capabilities: &workflowservice.GetSystemInfoResponse_Capabilities{
			SignalAndQueryHeader:            true,
			InternalErrorDifferentiation:    true,
			ActivityFailureIncludeHeartbeat: true,
			EncodedFailureAttributes:        true,
			UpsertMemo:                      true,
			SdkMetadata:                     true,
		},
	}, nil
}

// DescribeNamespace describes the one namespace served, by name or ID.
func (f *Frontend) DescribeNamespace(_ context.Context, req *workflowservice.DescribeNamespaceRequest) (*workflowservice.DescribeNamespaceResponse, error) {
	if req.GetId() != "" && req.GetId() != f.namespace {
		return nil, f.checkNamespace(req.GetId())
	}
	if req.GetId() == "" {
		if err := f.checkNamespace(req.GetNamespace()); err != nil {
			return nil, err
		}
	}
	return &workflowservice.DescribeNamespaceResponse{
		NamespaceInfo: &namespacepb.NamespaceInfo{
			Name: f.namespace, Id: f.namespace, State: enumspb.NAMESPACE_STATE_REGISTERED,
			Description:  "the embedded Temporal server's namespace",
			Capabilities: &namespacepb.NamespaceInfo_Capabilities{SyncUpdate: true, AsyncUpdate: true},
		},
		Config: &namespacepb.NamespaceConfig{WorkflowExecutionRetentionTtl: durationpb.New(24 * time.Hour)},
		ReplicationConfig: &replicationpb.NamespaceReplicationConfig{
			ActiveClusterName: "active", Clusters: []*replicationpb.ClusterReplicationConfig{{ClusterName: "active"}},
		},
	}, nil
}

// ListNamespaces lists the one namespace served.
func (f *Frontend) ListNamespaces(ctx context.Context, _ *workflowservice.ListNamespacesRequest) (*workflowservice.ListNamespacesResponse, error) {
	ns, err := f.DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: f.namespace})
	if err != nil {
		return nil, err
	}
	return &workflowservice.ListNamespacesResponse{Namespaces: []*workflowservice.DescribeNamespaceResponse{ns}}, nil
}
