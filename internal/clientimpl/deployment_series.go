package clientimpl

import (
	"context"
	"errors"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
)

// deploymentClient implements DeploymentClient, the deployment-series API
// of server 1.26's pre-release of worker versioning. Servers from 1.28 on
// answer every call Unimplemented; explainVersioningRefusal says what
// replaces it.
type deploymentClient struct {
	c *workflowClient
}

// DeploymentClient implements Client.
func (c *workflowClient) DeploymentClient() clientapi.DeploymentClient {
	return &deploymentClient{c: c}
}

// Describe implements DeploymentClient.
func (d *deploymentClient) Describe(ctx context.Context, options clientapi.DeploymentDescribeOptions) (clientapi.DeploymentDescription, error) {
	const call = "DeploymentClient.Describe"
	if err := checkDeployment(options.Deployment, "DeploymentDescribeOptions"); err != nil {
		return clientapi.DeploymentDescription{}, fmt.Errorf("%s: %w", call, err)
	}
	if err := d.c.ensureInitialized(ctx); err != nil {
		return clientapi.DeploymentDescription{}, err
	}
	resp, err := d.c.service.DescribeDeployment(ctx, &workflowservice.DescribeDeploymentRequest{
		Namespace:  d.c.namespace,
		Deployment: deploymentToProto(options.Deployment),
	})
	if err != nil {
		return clientapi.DeploymentDescription{}, deploymentCallError(err, call, options.Deployment)
	}
	return clientapi.DeploymentDescription{DeploymentInfo: seriesDeploymentInfoFromProto(resp.GetDeploymentInfo())}, nil
}

// GetReachability implements DeploymentClient.
func (d *deploymentClient) GetReachability(ctx context.Context, options clientapi.DeploymentGetReachabilityOptions) (clientapi.DeploymentReachabilityInfo, error) {
	const call = "DeploymentClient.GetReachability"
	if err := checkDeployment(options.Deployment, "DeploymentGetReachabilityOptions"); err != nil {
		return clientapi.DeploymentReachabilityInfo{}, fmt.Errorf("%s: %w", call, err)
	}
	if err := d.c.ensureInitialized(ctx); err != nil {
		return clientapi.DeploymentReachabilityInfo{}, err
	}
	resp, err := d.c.service.GetDeploymentReachability(ctx, &workflowservice.GetDeploymentReachabilityRequest{
		Namespace:  d.c.namespace,
		Deployment: deploymentToProto(options.Deployment),
	})
	if err != nil {
		return clientapi.DeploymentReachabilityInfo{}, deploymentCallError(err, call, options.Deployment)
	}
	return clientapi.DeploymentReachabilityInfo{
		DeploymentInfo: seriesDeploymentInfoFromProto(resp.GetDeploymentInfo()),
		Reachability:   clientapi.DeploymentReachability(resp.GetReachability()),
		LastUpdateTime: optionalTime(resp.GetLastUpdateTime()),
	}, nil
}

// GetCurrent implements DeploymentClient.
func (d *deploymentClient) GetCurrent(ctx context.Context, options clientapi.DeploymentGetCurrentOptions) (clientapi.DeploymentGetCurrentResponse, error) {
	const call = "DeploymentClient.GetCurrent"
	if options.SeriesName == "" {
		return clientapi.DeploymentGetCurrentResponse{}, errors.New(call + ": DeploymentGetCurrentOptions.SeriesName is empty: name the deployment series")
	}
	if err := d.c.ensureInitialized(ctx); err != nil {
		return clientapi.DeploymentGetCurrentResponse{}, err
	}
	resp, err := d.c.service.GetCurrentDeployment(ctx, &workflowservice.GetCurrentDeploymentRequest{
		Namespace:  d.c.namespace,
		SeriesName: options.SeriesName,
	})
	if err != nil {
		return clientapi.DeploymentGetCurrentResponse{}, explainVersioningRefusal(
			wrapCallError(err, "%s of series %q", call, options.SeriesName), call, deploymentSeriesAPI)
	}
	return clientapi.DeploymentGetCurrentResponse{DeploymentInfo: seriesDeploymentInfoFromProto(resp.GetCurrentDeploymentInfo())}, nil
}

// SetCurrent implements DeploymentClient.
func (d *deploymentClient) SetCurrent(ctx context.Context, options clientapi.DeploymentSetCurrentOptions) (clientapi.DeploymentSetCurrentResponse, error) {
	const call = "DeploymentClient.SetCurrent"
	if err := checkDeployment(options.Deployment, "DeploymentSetCurrentOptions"); err != nil {
		return clientapi.DeploymentSetCurrentResponse{}, fmt.Errorf("%s: %w", call, err)
	}
	metadata, err := deploymentMetadataUpdateToProto(d.c.dataConverter, options.MetadataUpdate)
	if err != nil {
		return clientapi.DeploymentSetCurrentResponse{}, fmt.Errorf("%s: %w", call, err)
	}
	if err := d.c.ensureInitialized(ctx); err != nil {
		return clientapi.DeploymentSetCurrentResponse{}, err
	}
	resp, err := d.c.service.SetCurrentDeployment(ctx, &workflowservice.SetCurrentDeploymentRequest{
		Namespace:      d.c.namespace,
		Deployment:     deploymentToProto(options.Deployment),
		Identity:       d.c.identity,
		UpdateMetadata: metadata,
	})
	if err != nil {
		return clientapi.DeploymentSetCurrentResponse{}, deploymentCallError(err, call, options.Deployment)
	}
	return clientapi.DeploymentSetCurrentResponse{
		Current:  seriesDeploymentInfoFromProto(resp.GetCurrentDeploymentInfo()),
		Previous: seriesDeploymentInfoFromProto(resp.GetPreviousDeploymentInfo()),
	}, nil
}

// List implements DeploymentClient. Nothing is sent until the iterator's
// first HasNext.
func (d *deploymentClient) List(ctx context.Context, options clientapi.DeploymentListOptions) (clientapi.DeploymentListIterator, error) {
	const call = "DeploymentClient.List"
	if options.PageSize < 0 {
		return nil, fmt.Errorf("%s: DeploymentListOptions.PageSize is %d: it must be 0 (the server's default) or more", call, options.PageSize)
	}
	fetch := func(token []byte) (*workflowservice.ListDeploymentsResponse, error) {
		if err := d.c.ensureInitialized(ctx); err != nil {
			return nil, err
		}
		resp, err := d.c.service.ListDeployments(ctx, &workflowservice.ListDeploymentsRequest{
			Namespace:     d.c.namespace,
			PageSize:      int32(options.PageSize),
			NextPageToken: token,
			SeriesName:    options.SeriesName,
		})
		if err != nil {
			return nil, explainVersioningRefusal(wrapCallError(err, "%s", call), call, deploymentSeriesAPI)
		}
		return resp, nil
	}
	return newDeploymentListIterator(fetch), nil
}

// newDeploymentListIterator walks the pages of ListDeployments.
func newDeploymentListIterator(fetch func(token []byte) (*workflowservice.ListDeploymentsResponse, error)) clientapi.DeploymentListIterator {
	return &pageIterator[*workflowservice.ListDeploymentsResponse, *deploymentpb.DeploymentListInfo, *clientapi.DeploymentListEntry]{
		name:  "DeploymentListIterator",
		fetch: fetch,
		read: func(r *workflowservice.ListDeploymentsResponse) ([]*deploymentpb.DeploymentListInfo, []byte) {
			return r.GetDeployments(), r.GetNextPageToken()
		},
		convert: func(entry *deploymentpb.DeploymentListInfo) *clientapi.DeploymentListEntry {
			return &clientapi.DeploymentListEntry{
				Deployment: deploymentFromProto(entry.GetDeployment()),
				CreateTime: optionalTime(entry.GetCreateTime()),
				IsCurrent:  entry.GetIsCurrent(),
			}
		},
	}
}

// checkDeployment says what is missing from a deployment the options
// (named in the error) hold.
func checkDeployment(deployment clientapi.Deployment, options string) error {
	if deployment.SeriesName == "" {
		return fmt.Errorf("%s.Deployment.SeriesName is empty: name the deployment series", options)
	}
	if deployment.BuildID == "" {
		return fmt.Errorf("%s.Deployment.BuildID is empty: name the deployment's build ID", options)
	}
	return nil
}

// deploymentCallError is the error of a call on one deployment.
func deploymentCallError(err error, call string, deployment clientapi.Deployment) error {
	return explainVersioningRefusal(wrapCallError(err, "%s of deployment %q/%q", call, deployment.SeriesName, deployment.BuildID), call, deploymentSeriesAPI)
}

func deploymentToProto(deployment clientapi.Deployment) *deploymentpb.Deployment {
	return &deploymentpb.Deployment{SeriesName: deployment.SeriesName, BuildId: deployment.BuildID}
}

func deploymentFromProto(deployment *deploymentpb.Deployment) clientapi.Deployment {
	return clientapi.Deployment{SeriesName: deployment.GetSeriesName(), BuildID: deployment.GetBuildId()}
}

// seriesDeploymentInfoFromProto reads a deployment's description; nil (a series
// without a current deployment, say) reads as the zero DeploymentInfo,
// with an empty, non-nil task queue list.
func seriesDeploymentInfoFromProto(info *deploymentpb.DeploymentInfo) clientapi.DeploymentInfo {
	taskQueues := make([]clientapi.DeploymentTaskQueueInfo, 0, len(info.GetTaskQueueInfos()))
	for _, tq := range info.GetTaskQueueInfos() {
		taskQueues = append(taskQueues, clientapi.DeploymentTaskQueueInfo{
			Name:            tq.GetName(),
			Type:            clientapi.TaskQueueType(tq.GetType()),
			FirstPollerTime: optionalTime(tq.GetFirstPollerTime()),
		})
	}
	return clientapi.DeploymentInfo{
		Deployment:      deploymentFromProto(info.GetDeployment()),
		CreateTime:      optionalTime(info.GetCreateTime()),
		IsCurrent:       info.GetIsCurrent(),
		TaskQueuesInfos: taskQueues,
		Metadata:        info.GetMetadata(),
	}
}

// deploymentMetadataUpdateToProto encodes the entries to upsert with the
// client's data converter, except those already payloads. The message is
// always sent, empty when there is nothing to change, as the official SDK
// sends it.
func deploymentMetadataUpdateToProto(dc converter.DataConverter, update clientapi.DeploymentMetadataUpdate) (*deploymentpb.UpdateDeploymentMetadata, error) {
	upsert := make(map[string]*commonpb.Payload, len(update.UpsertEntries))
	for key, value := range update.UpsertEntries {
		if payload, ok := value.(*commonpb.Payload); ok {
			upsert[key] = payload
			continue
		}
		payload, err := dc.ToPayload(value)
		if err != nil {
			return nil, fmt.Errorf("DeploymentMetadataUpdate.UpsertEntries[%q]: the data converter cannot encode the %T: %w", key, value, err)
		}
		upsert[key] = payload
	}
	return &deploymentpb.UpdateDeploymentMetadata{UpsertEntries: upsert, RemoveEntries: update.RemoveEntries}, nil
}
