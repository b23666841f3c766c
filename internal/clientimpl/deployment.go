package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"strings"

	deploymentpb "go.temporal.io/api/deployment/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/clientapi"
)

// The worker deployment client: each call checks its arguments, sends its
// request and reads the answer (deployment_wire.go). As in
// go.temporal.io/sdk, the calls do not go through the client's
// interceptors, and an error of the server is returned as the typed
// serviceerror it is (a *serviceerror.NotFound for an unknown deployment
// or version, a *serviceerror.FailedPrecondition for a stale conflict
// token or a refused change).

// workerDeploymentClient implements WorkerDeploymentClient.
type workerDeploymentClient struct {
	c *workflowClient
}

// workerDeploymentHandle implements WorkerDeploymentHandle.
type workerDeploymentHandle struct {
	c    *workflowClient
	name string
}

// WorkerDeploymentClient implements Client.
func (c *workflowClient) WorkerDeploymentClient() clientapi.WorkerDeploymentClient {
	return &workerDeploymentClient{c: c}
}

// GetHandle implements WorkerDeploymentClient.
func (d *workerDeploymentClient) GetHandle(name string) clientapi.WorkerDeploymentHandle {
	return &workerDeploymentHandle{c: d.c, name: name}
}

// List implements WorkerDeploymentClient. Pages are fetched as the
// iterator reaches them, with ctx.
func (d *workerDeploymentClient) List(ctx context.Context, options clientapi.WorkerDeploymentListOptions) (clientapi.WorkerDeploymentListIterator, error) {
	c := d.c
	if options.PageSize < 0 {
		return nil, fmt.Errorf("WorkerDeploymentClient.List: WorkerDeploymentListOptions.PageSize is %d: leave it 0 for the server's default, or make it positive", options.PageSize)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	return newWorkerDeploymentListIterator(func(token []byte) (*workflowservice.ListWorkerDeploymentsResponse, error) {
		resp, err := c.service.ListWorkerDeployments(ctx, &workflowservice.ListWorkerDeploymentsRequest{
			Namespace:     c.namespace,
			PageSize:      int32(options.PageSize),
			NextPageToken: token,
		})
		return resp, wrapCallError(err, "listing the worker deployments of namespace %q", c.namespace)
	}), nil
}

// Delete implements WorkerDeploymentClient.
func (d *workerDeploymentClient) Delete(ctx context.Context, options clientapi.WorkerDeploymentDeleteOptions) (clientapi.WorkerDeploymentDeleteResponse, error) {
	c := d.c
	if options.Name == "" {
		return clientapi.WorkerDeploymentDeleteResponse{}, errors.New("WorkerDeploymentClient.Delete: WorkerDeploymentDeleteOptions.Name is empty: name the deployment to delete")
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return clientapi.WorkerDeploymentDeleteResponse{}, err
	}
	_, err := c.service.DeleteWorkerDeployment(ctx, &workflowservice.DeleteWorkerDeploymentRequest{
		Namespace:      c.namespace,
		DeploymentName: options.Name,
		Identity:       c.identityOr(options.Identity),
	})
	if err != nil {
		return clientapi.WorkerDeploymentDeleteResponse{}, wrapCallError(err, "deleting worker deployment %q", options.Name)
	}
	return clientapi.WorkerDeploymentDeleteResponse{}, nil
}

// identityOr is the identity a request records: the caller's, or the
// client's when the caller gave none.
func (c *workflowClient) identityOr(identity string) string {
	if identity != "" {
		return identity
	}
	return c.identity
}

// newWorkerDeploymentListIterator walks the pages of
// ListWorkerDeployments.
func newWorkerDeploymentListIterator(fetch func(token []byte) (*workflowservice.ListWorkerDeploymentsResponse, error)) clientapi.WorkerDeploymentListIterator {
	type summary = workflowservice.ListWorkerDeploymentsResponse_WorkerDeploymentSummary
	return &pageIterator[*workflowservice.ListWorkerDeploymentsResponse, *summary, *clientapi.WorkerDeploymentListEntry]{
		name:  "WorkerDeploymentListIterator",
		fetch: fetch,
		read: func(r *workflowservice.ListWorkerDeploymentsResponse) ([]*summary, []byte) {
			return r.GetWorkerDeployments(), r.GetNextPageToken()
		},
		convert: deploymentListEntryFromProto,
	}
}

// check refuses a handle whose name the server could not take, before any
// call: op names the method, for the error.
func (h *workerDeploymentHandle) check(op string) error {
	if h.name == "" {
		return fmt.Errorf("WorkerDeploymentHandle.%s: the handle has no deployment name: pass one to WorkerDeploymentClient.GetHandle", op)
	}
	if strings.Contains(h.name, deploymentVersionSeparator) {
		return fmt.Errorf("WorkerDeploymentHandle.%s: deployment name %q holds %q, which separates a deployment's name from a build ID in a version: rename the deployment (its workers' DeploymentOptions.Version.DeploymentName)", op, h.name, deploymentVersionSeparator)
	}
	return nil
}

// checkBuildID refuses an empty build ID where a version must be named.
func (h *workerDeploymentHandle) checkBuildID(op, field, buildID string) error {
	if buildID == "" {
		return fmt.Errorf("WorkerDeploymentHandle.%s: %s is empty: name the version of deployment %q by its build ID", op, field, h.name)
	}
	return nil
}

// version is the message of one of the handle's versions.
func (h *workerDeploymentHandle) version(buildID string) *deploymentpb.WorkerDeploymentVersion {
	return &deploymentpb.WorkerDeploymentVersion{DeploymentName: h.name, BuildId: buildID}
}

// Describe implements WorkerDeploymentHandle.
func (h *workerDeploymentHandle) Describe(ctx context.Context, _ clientapi.WorkerDeploymentDescribeOptions) (clientapi.WorkerDeploymentDescribeResponse, error) {
	if err := h.check("Describe"); err != nil {
		return clientapi.WorkerDeploymentDescribeResponse{}, err
	}
	c := h.c
	if err := c.ensureInitialized(ctx); err != nil {
		return clientapi.WorkerDeploymentDescribeResponse{}, err
	}
	resp, err := c.service.DescribeWorkerDeployment(ctx, &workflowservice.DescribeWorkerDeploymentRequest{
		Namespace:      c.namespace,
		DeploymentName: h.name,
	})
	if err != nil {
		return clientapi.WorkerDeploymentDescribeResponse{}, wrapCallError(err, "describing worker deployment %q", h.name)
	}
	return clientapi.WorkerDeploymentDescribeResponse{
		ConflictToken: resp.GetConflictToken(),
		Info:          deploymentInfoFromProto(resp.GetWorkerDeploymentInfo()),
	}, nil
}

// SetCurrentVersion implements WorkerDeploymentHandle.
func (h *workerDeploymentHandle) SetCurrentVersion(ctx context.Context, options clientapi.WorkerDeploymentSetCurrentVersionOptions) (clientapi.WorkerDeploymentSetCurrentVersionResponse, error) {
	if err := h.check("SetCurrentVersion"); err != nil {
		return clientapi.WorkerDeploymentSetCurrentVersionResponse{}, err
	}
	c := h.c
	if err := c.ensureInitialized(ctx); err != nil {
		return clientapi.WorkerDeploymentSetCurrentVersionResponse{}, err
	}
	resp, err := c.service.SetWorkerDeploymentCurrentVersion(ctx, &workflowservice.SetWorkerDeploymentCurrentVersionRequest{
		Namespace:      c.namespace,
		DeploymentName: h.name,
		//lint:ignore SA1019 servers before 1.28 read the version string only
		Version:                 versionString(h.name, options.BuildID),
		BuildId:                 options.BuildID,
		ConflictToken:           options.ConflictToken,
		Identity:                c.identityOr(options.Identity),
		IgnoreMissingTaskQueues: options.IgnoreMissingTaskQueues,
		AllowNoPollers:          options.AllowNoPollers,
	})
	if err != nil {
		return clientapi.WorkerDeploymentSetCurrentVersionResponse{}, wrapCallError(err, "setting the current version of worker deployment %q to build ID %q", h.name, options.BuildID)
	}
	return clientapi.WorkerDeploymentSetCurrentVersionResponse{
		ConflictToken: resp.GetConflictToken(),
		//lint:ignore SA1019 the official response still reports it
		PreviousVersion: deploymentVersionFromWire(resp.GetPreviousDeploymentVersion(), resp.GetPreviousVersion()),
	}, nil
}

// SetRampingVersion implements WorkerDeploymentHandle.
func (h *workerDeploymentHandle) SetRampingVersion(ctx context.Context, options clientapi.WorkerDeploymentSetRampingVersionOptions) (clientapi.WorkerDeploymentSetRampingVersionResponse, error) {
	if err := h.check("SetRampingVersion"); err != nil {
		return clientapi.WorkerDeploymentSetRampingVersionResponse{}, err
	}
	c := h.c
	if err := c.ensureInitialized(ctx); err != nil {
		return clientapi.WorkerDeploymentSetRampingVersionResponse{}, err
	}
	resp, err := c.service.SetWorkerDeploymentRampingVersion(ctx, &workflowservice.SetWorkerDeploymentRampingVersionRequest{
		Namespace:      c.namespace,
		DeploymentName: h.name,
		//lint:ignore SA1019 servers before 1.28 read the version string only
		Version:                 versionString(h.name, options.BuildID),
		BuildId:                 options.BuildID,
		Percentage:              options.Percentage,
		ConflictToken:           options.ConflictToken,
		Identity:                c.identityOr(options.Identity),
		IgnoreMissingTaskQueues: options.IgnoreMissingTaskQueues,
		AllowNoPollers:          options.AllowNoPollers,
	})
	if err != nil {
		return clientapi.WorkerDeploymentSetRampingVersionResponse{}, wrapCallError(err, "ramping worker deployment %q to build ID %q at %v%%", h.name, options.BuildID, options.Percentage)
	}
	return clientapi.WorkerDeploymentSetRampingVersionResponse{
		ConflictToken: resp.GetConflictToken(),
		//lint:ignore SA1019 the official response still reports it
		PreviousVersion: deploymentVersionFromWire(resp.GetPreviousDeploymentVersion(), resp.GetPreviousVersion()),
		//lint:ignore SA1019 the official response still reports it
		PreviousPercentage: resp.GetPreviousPercentage(),
	}, nil
}

// SetManagerIdentity implements WorkerDeploymentHandle.
func (h *workerDeploymentHandle) SetManagerIdentity(ctx context.Context, options clientapi.WorkerDeploymentSetManagerIdentityOptions) (clientapi.WorkerDeploymentSetManagerIdentityResponse, error) {
	if err := h.check("SetManagerIdentity"); err != nil {
		return clientapi.WorkerDeploymentSetManagerIdentityResponse{}, err
	}
	request := &workflowservice.SetWorkerDeploymentManagerRequest{
		Namespace:      h.c.namespace,
		DeploymentName: h.name,
		ConflictToken:  options.ConflictToken,
		Identity:       h.c.identityOr(options.Identity),
	}
	switch {
	case options.Self && options.ManagerIdentity != "":
		return clientapi.WorkerDeploymentSetManagerIdentityResponse{}, fmt.Errorf("WorkerDeploymentHandle.SetManagerIdentity: both Self and ManagerIdentity (%q) are set: set Self to become the manager yourself, or ManagerIdentity to name another", options.ManagerIdentity)
	case options.Self:
		request.NewManagerIdentity = &workflowservice.SetWorkerDeploymentManagerRequest_Self{Self: true}
	default:
		request.NewManagerIdentity = &workflowservice.SetWorkerDeploymentManagerRequest_ManagerIdentity{ManagerIdentity: options.ManagerIdentity}
	}
	c := h.c
	if err := c.ensureInitialized(ctx); err != nil {
		return clientapi.WorkerDeploymentSetManagerIdentityResponse{}, err
	}
	resp, err := c.service.SetWorkerDeploymentManager(ctx, request)
	if err != nil {
		return clientapi.WorkerDeploymentSetManagerIdentityResponse{}, wrapCallError(err, "setting the manager identity of worker deployment %q", h.name)
	}
	return clientapi.WorkerDeploymentSetManagerIdentityResponse{
		ConflictToken: resp.GetConflictToken(),
		//lint:ignore SA1019 the official response still reports it
		PreviousManagerIdentity: resp.GetPreviousManagerIdentity(),
	}, nil
}

// DescribeVersion implements WorkerDeploymentHandle.
func (h *workerDeploymentHandle) DescribeVersion(ctx context.Context, options clientapi.WorkerDeploymentDescribeVersionOptions) (clientapi.WorkerDeploymentVersionDescription, error) {
	if err := h.check("DescribeVersion"); err != nil {
		return clientapi.WorkerDeploymentVersionDescription{}, err
	}
	if err := h.checkBuildID("DescribeVersion", "WorkerDeploymentDescribeVersionOptions.BuildID", options.BuildID); err != nil {
		return clientapi.WorkerDeploymentVersionDescription{}, err
	}
	c := h.c
	if err := c.ensureInitialized(ctx); err != nil {
		return clientapi.WorkerDeploymentVersionDescription{}, err
	}
	resp, err := c.service.DescribeWorkerDeploymentVersion(ctx, &workflowservice.DescribeWorkerDeploymentVersionRequest{
		Namespace: c.namespace,
		//lint:ignore SA1019 servers before 1.28 read the version string only
		Version:           versionString(h.name, options.BuildID),
		DeploymentVersion: h.version(options.BuildID),
	})
	if err != nil {
		return clientapi.WorkerDeploymentVersionDescription{}, wrapCallError(err, "describing build ID %q of worker deployment %q", options.BuildID, h.name)
	}
	return clientapi.WorkerDeploymentVersionDescription{
		Info: deploymentVersionInfoFromProto(resp.GetWorkerDeploymentVersionInfo()),
	}, nil
}

// DeleteVersion implements WorkerDeploymentHandle.
func (h *workerDeploymentHandle) DeleteVersion(ctx context.Context, options clientapi.WorkerDeploymentDeleteVersionOptions) (clientapi.WorkerDeploymentDeleteVersionResponse, error) {
	if err := h.check("DeleteVersion"); err != nil {
		return clientapi.WorkerDeploymentDeleteVersionResponse{}, err
	}
	if err := h.checkBuildID("DeleteVersion", "WorkerDeploymentDeleteVersionOptions.BuildID", options.BuildID); err != nil {
		return clientapi.WorkerDeploymentDeleteVersionResponse{}, err
	}
	c := h.c
	if err := c.ensureInitialized(ctx); err != nil {
		return clientapi.WorkerDeploymentDeleteVersionResponse{}, err
	}
	_, err := c.service.DeleteWorkerDeploymentVersion(ctx, &workflowservice.DeleteWorkerDeploymentVersionRequest{
		Namespace: c.namespace,
		//lint:ignore SA1019 servers before 1.28 read the version string only
		Version:           versionString(h.name, options.BuildID),
		DeploymentVersion: h.version(options.BuildID),
		SkipDrainage:      options.SkipDrainage,
		Identity:          c.identityOr(options.Identity),
	})
	if err != nil {
		return clientapi.WorkerDeploymentDeleteVersionResponse{}, wrapCallError(err, "deleting build ID %q of worker deployment %q", options.BuildID, h.name)
	}
	return clientapi.WorkerDeploymentDeleteVersionResponse{}, nil
}

// UpdateVersionMetadata implements WorkerDeploymentHandle. The version is
// options.Version, deployment name included, as in go.temporal.io/sdk;
// the handle's name is only checked.
func (h *workerDeploymentHandle) UpdateVersionMetadata(ctx context.Context, options clientapi.WorkerDeploymentUpdateVersionMetadataOptions) (clientapi.WorkerDeploymentUpdateVersionMetadataResponse, error) {
	if err := h.check("UpdateVersionMetadata"); err != nil {
		return clientapi.WorkerDeploymentUpdateVersionMetadataResponse{}, err
	}
	if err := h.checkBuildID("UpdateVersionMetadata", "WorkerDeploymentUpdateVersionMetadataOptions.Version.BuildID", options.Version.BuildID); err != nil {
		return clientapi.WorkerDeploymentUpdateVersionMetadataResponse{}, err
	}
	c := h.c
	upserts, err := metadataUpsertsToProto(c.dataConverter, options.MetadataUpdate.UpsertEntries)
	if err != nil {
		return clientapi.WorkerDeploymentUpdateVersionMetadataResponse{}, fmt.Errorf("WorkerDeploymentHandle.UpdateVersionMetadata: %w", err)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return clientapi.WorkerDeploymentUpdateVersionMetadataResponse{}, err
	}
	v := options.Version
	resp, err := c.service.UpdateWorkerDeploymentVersionMetadata(ctx, &workflowservice.UpdateWorkerDeploymentVersionMetadataRequest{
		Namespace: c.namespace,
		//lint:ignore SA1019 servers before 1.28 read the version string only
		Version:           v.DeploymentName + deploymentVersionSeparator + v.BuildID,
		DeploymentVersion: deploymentVersionToProto(v),
		UpsertEntries:     upserts,
		RemoveEntries:     options.MetadataUpdate.RemoveEntries,
	})
	if err != nil {
		return clientapi.WorkerDeploymentUpdateVersionMetadataResponse{}, wrapCallError(err, "updating the metadata of build ID %q of worker deployment %q", v.BuildID, v.DeploymentName)
	}
	return clientapi.WorkerDeploymentUpdateVersionMetadataResponse{Metadata: resp.GetMetadata().GetEntries()}, nil
}
