package frontend

import (
	"context"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/testserver"
)

func workerSpec(name, namespace, queue string) *nexuspb.EndpointSpec {
	return &nexuspb.EndpointSpec{Name: name, Target: &nexuspb.EndpointTarget{Variant: &nexuspb.EndpointTarget_Worker_{
		Worker: &nexuspb.EndpointTarget_Worker{Namespace: namespace, TaskQueue: queue}}}}
}

func create(t *testing.T, o *Operator, spec *nexuspb.EndpointSpec) *nexuspb.Endpoint {
	t.Helper()
	resp, err := o.CreateNexusEndpoint(context.Background(), &operatorservice.CreateNexusEndpointRequest{Spec: spec})
	chk.NoErr(t, err)
	return resp.GetEndpoint()
}

func TestCreatingANexusEndpoint(t *testing.T) {
	f := New(Options{Namespaces: []string{"handlers"}})
	t.Cleanup(f.Stop)
	o := &Operator{f: f}
	ctx := context.Background()
	ep := create(t, o, workerSpec("orders", "handlers", "q"))
	chk.Equal(t, int64(1), ep.GetVersion())
	chk.True(t, isUUID(ep.GetId()), "(endpoint ID ", ep.GetId(), " is not a UUID)")
	chk.Equal(t, "/nexus/endpoints/"+ep.GetId()+"/services", ep.GetUrlPrefix())
	chk.NotNil(t, ep.GetCreatedTime())
	chk.Nil(t, ep.GetLastModifiedTime())
	got, err := o.GetNexusEndpoint(ctx, &operatorservice.GetNexusEndpointRequest{Id: ep.GetId()})
	chk.NoErr(t, err)
	chk.Equal(t, "q", got.GetEndpoint().GetSpec().GetTarget().GetWorker().GetTaskQueue())
	target, ok := f.endpoints.target("orders")
	chk.True(t, ok, "(the endpoint does not resolve)")
	chk.Equal(t, testserver.NexusTarget{EndpointID: ep.GetId(), Namespace: "handlers", TaskQueue: "q"}, target)

	refusals := []struct {
		spec *nexuspb.EndpointSpec
		err  any
		says string
	}{
		{workerSpec("orders", "handlers", "q"), new(*serviceerror.AlreadyExists), "Endpoint with name orders already registered"},
		{workerSpec("bad_name", "handlers", "q"), new(*serviceerror.InvalidArgument), "endpoint name must match the regex"},
		{workerSpec("", "handlers", "q"), new(*serviceerror.InvalidArgument), "endpoint name not set"},
		{workerSpec("other", "nope", "q"), new(*serviceerror.FailedPrecondition), "could not verify namespace referenced by target exists: Namespace nope is not found."},
		{workerSpec("other", "handlers", ""), new(*serviceerror.InvalidArgument), "taskQueue is not set"},
		{&nexuspb.EndpointSpec{Name: "other"}, new(*serviceerror.InvalidArgument), "empty target variant"},
		{&nexuspb.EndpointSpec{Name: "other", Target: &nexuspb.EndpointTarget{Variant: &nexuspb.EndpointTarget_External_{
			External: &nexuspb.EndpointTarget_External{Url: "http://localhost:1"}}}}, new(*serviceerror.Unimplemented), "external target"},
	}
	for _, r := range refusals {
		_, err := o.CreateNexusEndpoint(ctx, &operatorservice.CreateNexusEndpointRequest{Spec: r.spec})
		chk.ErrAs(t, err, r.err)
		chk.ErrContains(t, err, r.says)
	}
}

func TestUpdatingANexusEndpointNamesItsVersion(t *testing.T) {
	f := New(Options{Namespaces: []string{"handlers"}})
	t.Cleanup(f.Stop)
	o := &Operator{f: f}
	ctx := context.Background()
	ep := create(t, o, workerSpec("orders", "handlers", "q"))
	create(t, o, workerSpec("billing", "default", "b"))
	_, err := o.UpdateNexusEndpoint(ctx, &operatorservice.UpdateNexusEndpointRequest{Id: ep.GetId(), Version: 7, Spec: workerSpec("orders", "handlers", "q2")})
	var precondition *serviceerror.FailedPrecondition
	chk.ErrAs(t, err, &precondition)
	chk.ErrContains(t, err, "nexus endpoint version mismatch. received: 7 expected 1")
	spec := workerSpec("orders", "handlers", "q2")
	spec.Description = &commonpb.Payload{Data: []byte("the orders")}
	updated, err := o.UpdateNexusEndpoint(ctx, &operatorservice.UpdateNexusEndpointRequest{Id: ep.GetId(), Version: 1, Spec: spec})
	chk.NoErr(t, err)
	chk.Equal(t, int64(2), updated.GetEndpoint().GetVersion())
	chk.NotNil(t, updated.GetEndpoint().GetLastModifiedTime())
	chk.Equal(t, "the orders", string(updated.GetEndpoint().GetSpec().GetDescription().GetData()))
	target, _ := f.endpoints.target("orders")
	chk.Equal(t, "q2", target.TaskQueue)
	var exists *serviceerror.AlreadyExists
	_, err = o.UpdateNexusEndpoint(ctx, &operatorservice.UpdateNexusEndpointRequest{Id: ep.GetId(), Version: 2, Spec: workerSpec("billing", "handlers", "q")})
	chk.ErrAs(t, err, &exists)
	var notFound *serviceerror.NotFound
	_, err = o.UpdateNexusEndpoint(ctx, &operatorservice.UpdateNexusEndpointRequest{Id: "0c2f6a3e-5b5e-4a8e-9d2b-0d9a3c1b2a11", Version: 1, Spec: workerSpec("x-endpoint", "handlers", "q")})
	chk.ErrAs(t, err, &notFound)
}

func TestListingAndDeletingNexusEndpoints(t *testing.T) {
	f := newFrontend(t)
	o := &Operator{f: f}
	ctx := context.Background()
	ids := map[string]string{}
	for _, name := range []string{"a", "b", "c"} {
		ids[create(t, o, workerSpec(name+"-endpoint", "default", name)).GetId()] = name
	}
	var listed []string
	var token []byte
	for {
		page, err := o.ListNexusEndpoints(ctx, &operatorservice.ListNexusEndpointsRequest{PageSize: 2, NextPageToken: token})
		chk.NoErr(t, err)
		for _, ep := range page.GetEndpoints() {
			listed = append(listed, ep.GetId())
		}
		if token = page.GetNextPageToken(); token == nil {
			break
		}
	}
	chk.Len(t, listed, 3)
	for i := 1; i < len(listed); i++ {
		chk.True(t, listed[i-1] < listed[i], "(endpoints not listed in the order of their IDs)")
	}
	byName, err := o.ListNexusEndpoints(ctx, &operatorservice.ListNexusEndpointsRequest{Name: "b-endpoint"})
	chk.NoErr(t, err)
	chk.Len(t, byName.GetEndpoints(), 1)
	chk.Equal(t, "b", ids[byName.GetEndpoints()[0].GetId()])
	none, err := o.ListNexusEndpoints(ctx, &operatorservice.ListNexusEndpointsRequest{Name: "nope"})
	chk.NoErr(t, err)
	chk.Empty(t, none.GetEndpoints())
	_, err = o.ListNexusEndpoints(ctx, &operatorservice.ListNexusEndpointsRequest{PageSize: -1})
	chk.ErrContains(t, err, "page_size is negative")

	id := byName.GetEndpoints()[0].GetId()
	_, err = o.DeleteNexusEndpoint(ctx, &operatorservice.DeleteNexusEndpointRequest{Id: id})
	chk.ErrContains(t, err, "endpoint version is non-positive")
	_, err = o.DeleteNexusEndpoint(ctx, &operatorservice.DeleteNexusEndpointRequest{Id: id, Version: 1})
	chk.NoErr(t, err)
	_, ok := f.endpoints.target("b-endpoint")
	chk.False(t, ok, "(a deleted endpoint still resolves)")
	var notFound *serviceerror.NotFound
	_, err = o.DeleteNexusEndpoint(ctx, &operatorservice.DeleteNexusEndpointRequest{Id: id, Version: 1})
	chk.ErrAs(t, err, &notFound)
	_, err = o.GetNexusEndpoint(ctx, &operatorservice.GetNexusEndpointRequest{Id: id})
	chk.ErrAs(t, err, &notFound)
	_, err = o.GetNexusEndpoint(ctx, &operatorservice.GetNexusEndpointRequest{Id: "zzz"})
	chk.ErrContains(t, err, "malformed endpoint ID")
}
