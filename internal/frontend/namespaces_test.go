package frontend

import (
	"context"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	namespacepb "go.temporal.io/api/namespace/v1"
	replicationpb "go.temporal.io/api/replication/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/internal/chk"
)

func register(name string, retention time.Duration) *workflowservice.RegisterNamespaceRequest {
	return &workflowservice.RegisterNamespaceRequest{Namespace: name, WorkflowExecutionRetentionPeriod: durationpb.New(retention)}
}

func describe(t *testing.T, f *Frontend, name string) *workflowservice.DescribeNamespaceResponse {
	t.Helper()
	desc, err := f.DescribeNamespace(context.Background(), &workflowservice.DescribeNamespaceRequest{Namespace: name})
	chk.NoErr(t, err)
	return desc
}

func TestTheNamespacesOfTheStartLookAsADevServers(t *testing.T) {
	f := New(Options{Namespaces: []string{"orders", "default", "billing"}})
	t.Cleanup(f.Stop)
	ids := map[string]bool{}
	for _, name := range []string{"default", "orders", "billing"} {
		desc := describe(t, f, name)
		info := desc.GetNamespaceInfo()
		chk.Equal(t, name, info.GetName())
		chk.Equal(t, enumspb.NAMESPACE_STATE_REGISTERED, info.GetState())
		chk.Equal(t, 24*time.Hour, desc.GetConfig().GetWorkflowExecutionRetentionTtl().AsDuration())
		chk.Equal(t, enumspb.ARCHIVAL_STATE_DISABLED, desc.GetConfig().GetHistoryArchivalState())
		chk.Equal(t, "active", desc.GetReplicationConfig().GetActiveClusterName())
		chk.True(t, isUUID(info.GetId()), "(namespace ID ", info.GetId(), " is not a UUID)")
		ids[info.GetId()] = true
		byID, err := f.DescribeNamespace(context.Background(), &workflowservice.DescribeNamespaceRequest{Id: info.GetId()})
		chk.NoErr(t, err)
		chk.Equal(t, name, byID.GetNamespaceInfo().GetName())
	}
	chk.Len(t, ids, 3)
	list, err := f.ListNamespaces(context.Background(), &workflowservice.ListNamespacesRequest{})
	chk.NoErr(t, err)
	chk.Len(t, list.GetNamespaces(), 3) // "default" named twice is one namespace
}

func TestADescriptionNamesOneNamespaceByNameOrID(t *testing.T) {
	f := newFrontend(t)
	_, err := f.DescribeNamespace(context.Background(), &workflowservice.DescribeNamespaceRequest{})
	chk.ErrContains(t, err, "Namespace not set on request.")
	id := describe(t, f, "default").GetNamespaceInfo().GetId()
	_, err = f.DescribeNamespace(context.Background(), &workflowservice.DescribeNamespaceRequest{Id: id, Namespace: "default"})
	var invalid *serviceerror.InvalidArgument
	chk.ErrAs(t, err, &invalid)
	var notFound *serviceerror.NamespaceNotFound
	_, err = f.DescribeNamespace(context.Background(), &workflowservice.DescribeNamespaceRequest{Namespace: "nope"})
	chk.ErrAs(t, err, &notFound)
	chk.Equal(t, "Namespace nope is not found.", err.Error())
	_, err = f.DescribeNamespace(context.Background(), &workflowservice.DescribeNamespaceRequest{Id: "0c2f6a3e-5b5e-4a8e-9d2b-0d9a3c1b2a11"})
	chk.ErrAs(t, err, &notFound)
}

func TestRegisteringANamespace(t *testing.T) {
	f := newFrontend(t)
	ctx := context.Background()
	_, err := f.RegisterNamespace(ctx, register("orders", 0))
	chk.ErrContains(t, err, "A valid retention period is not set on request.")
	_, err = f.RegisterNamespace(ctx, register("orders", time.Minute))
	chk.ErrContains(t, err, "A valid retention period is not set on request.")
	_, err = f.RegisterNamespace(ctx, register("", time.Hour))
	chk.ErrContains(t, err, "Namespace not set on request.")
	req := register("orders", 48*time.Hour)
	req.Description, req.OwnerEmail, req.Data = "the orders", "ops@example.com", map[string]string{"team": "orders"}
	_, err = f.RegisterNamespace(ctx, req)
	chk.NoErr(t, err)
	var exists *serviceerror.NamespaceAlreadyExists
	_, err = f.RegisterNamespace(ctx, register("orders", 48*time.Hour))
	chk.ErrAs(t, err, &exists)
	_, err = f.RegisterNamespace(ctx, register("default", 48*time.Hour))
	chk.ErrAs(t, err, &exists)

	desc := describe(t, f, "orders")
	info := desc.GetNamespaceInfo()
	chk.Equal(t, "the orders", info.GetDescription())
	chk.Equal(t, "ops@example.com", info.GetOwnerEmail())
	chk.Equal(t, "orders", info.GetData()["team"])
	chk.Equal(t, 48*time.Hour, desc.GetConfig().GetWorkflowExecutionRetentionTtl().AsDuration())
	chk.Equal(t, enumspb.REPLICATION_STATE_NORMAL, desc.GetReplicationConfig().GetState())
	// A changed request does not change what was registered.
	req.Data["team"] = "changed"
	chk.Equal(t, "orders", describe(t, f, "orders").GetNamespaceInfo().GetData()["team"])
}

func TestNamespacesListInPagesInTheOrderTheyWereMade(t *testing.T) {
	f := New(Options{Namespaces: []string{"b"}})
	t.Cleanup(f.Stop)
	for _, name := range []string{"a", "c"} {
		_, err := f.RegisterNamespace(context.Background(), register(name, time.Hour))
		chk.NoErr(t, err)
	}
	var names []string
	var token []byte
	for pages := 0; ; pages++ {
		if pages > 2 {
			t.Fatal("more pages than namespaces")
		}
		page, err := f.ListNamespaces(context.Background(), &workflowservice.ListNamespacesRequest{PageSize: 2, NextPageToken: token})
		chk.NoErr(t, err)
		for _, ns := range page.GetNamespaces() {
			names = append(names, ns.GetNamespaceInfo().GetName())
		}
		if token = page.GetNextPageToken(); token == nil {
			break
		}
	}
	chk.Equal(t, []string{"default", "b", "a", "c"}, names)
	_, err := f.ListNamespaces(context.Background(), &workflowservice.ListNamespacesRequest{NextPageToken: []byte("x")})
	chk.ErrContains(t, err, "page token")
}

func TestUpdatingANamespace(t *testing.T) {
	f := newFrontend(t)
	ctx := context.Background()
	req := register("orders", 48*time.Hour)
	req.Description, req.OwnerEmail, req.Data = "old", "ops@example.com", map[string]string{"k": "v"}
	_, err := f.RegisterNamespace(ctx, req)
	chk.NoErr(t, err)
	updated, err := f.UpdateNamespace(ctx, &workflowservice.UpdateNamespaceRequest{Namespace: "orders",
		UpdateInfo: &namespacepb.UpdateNamespaceInfo{Description: "new", Data: map[string]string{"k2": "v2"}},
		Config:     &namespacepb.NamespaceConfig{WorkflowExecutionRetentionTtl: durationpb.New(72 * time.Hour)}})
	chk.NoErr(t, err)
	info := updated.GetNamespaceInfo()
	chk.Equal(t, "new", info.GetDescription())
	chk.Equal(t, "ops@example.com", info.GetOwnerEmail()) // an empty field leaves it as it was
	chk.Equal(t, map[string]string{"k": "v", "k2": "v2"}, info.GetData())
	chk.Equal(t, 72*time.Hour, updated.GetConfig().GetWorkflowExecutionRetentionTtl().AsDuration())
	chk.Equal(t, "new", describe(t, f, "orders").GetNamespaceInfo().GetDescription())

	_, err = f.UpdateNamespace(ctx, &workflowservice.UpdateNamespaceRequest{Namespace: "orders",
		Config: &namespacepb.NamespaceConfig{WorkflowExecutionRetentionTtl: durationpb.New(time.Minute)}})
	chk.ErrContains(t, err, "A valid retention period is not set on request.")
	var notFound *serviceerror.NamespaceNotFound
	_, err = f.UpdateNamespace(ctx, &workflowservice.UpdateNamespaceRequest{Namespace: "nope"})
	chk.ErrAs(t, err, &notFound)
	_, err = f.UpdateNamespace(ctx, &workflowservice.UpdateNamespaceRequest{Namespace: "orders",
		ReplicationConfig: &replicationpb.NamespaceReplicationConfig{ActiveClusterName: "other"}})
	chk.ErrContains(t, err, "does not change a namespace's replication")
	_, err = f.UpdateNamespace(ctx, &workflowservice.UpdateNamespaceRequest{Namespace: "orders",
		UpdateInfo: &namespacepb.UpdateNamespaceInfo{State: enumspb.NAMESPACE_STATE_DEPRECATED}})
	chk.ErrContains(t, err, "does not change a namespace's state")
	chk.Equal(t, 72*time.Hour, describe(t, f, "orders").GetConfig().GetWorkflowExecutionRetentionTtl().AsDuration())
}

// TestEachNamespaceHasItsOwnRuns: a workflow ID, and a start's request
// ID, name different runs in different namespaces; a call to a
// namespace that does not exist is NamespaceNotFound.
func TestEachNamespaceHasItsOwnRuns(t *testing.T) {
	f := New(Options{Namespaces: []string{"other"}})
	t.Cleanup(f.Stop)
	ctx := context.Background()
	first, err := f.StartWorkflowExecution(ctx, startReq("w", "r1", 0, 0))
	chk.NoErr(t, err)
	req := startReq("w", "r1", 0, 0)
	req.Namespace = "other"
	second, err := f.StartWorkflowExecution(ctx, req)
	chk.NoErr(t, err)
	chk.NotEqual(t, first.GetRunId(), second.GetRunId())
	_, err = f.DescribeWorkflowExecution(ctx, &workflowservice.DescribeWorkflowExecutionRequest{Namespace: "other",
		Execution: &commonpb.WorkflowExecution{WorkflowId: "w", RunId: first.GetRunId()}})
	var notFound *serviceerror.NotFound
	chk.ErrAs(t, err, &notFound)
	_, err = f.SignalWorkflowExecution(ctx, &workflowservice.SignalWorkflowExecutionRequest{Namespace: "nope",
		WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: "w"}, SignalName: "s"})
	var nsNotFound *serviceerror.NamespaceNotFound
	chk.ErrAs(t, err, &nsNotFound)
	chk.Equal(t, "nope", nsNotFound.Namespace)
}
