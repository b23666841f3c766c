package clientapi

import (
	"context"
	"time"

	commonpb "go.temporal.io/api/common/v1"
)

// The deployment-series API of server 1.26's pre-release of worker
// versioning: Client.DeploymentClient. go.temporal.io/sdk keeps it,
// deprecated for WorkerDeploymentClient; servers from 1.28 on answer each
// of its calls Unimplemented ("Deployments are deprecated and no longer
// supported, use Worker Deployments instead").

// DeploymentReachability is what may still reach the workers of a
// deployment.
type DeploymentReachability int

// The deployment reachabilities; the values are those of
// enumspb.DeploymentReachability. Untyped, as in the official SDK.
const (
	// DeploymentReachabilityUnspecified: not reported.
	DeploymentReachabilityUnspecified = iota
	// DeploymentReachabilityReachable: new or open workflows may send it
	// tasks; its workers must stay.
	DeploymentReachabilityReachable
	// DeploymentReachabilityClosedWorkflows: only queries of closed
	// workflows may; its workers may go unless such queries matter.
	DeploymentReachabilityClosedWorkflows
	// DeploymentReachabilityUnreachable: nothing will; its workers may go.
	DeploymentReachabilityUnreachable
)

type (
	// Deployment names a deployment: a build ID within a series, the
	// versions of one worker application.
	Deployment struct {
		SeriesName string
		BuildID    string
	}

	// DeploymentTaskQueueInfo is a task queue the workers of a deployment
	// poll.
	DeploymentTaskQueueInfo struct {
		Name string
		Type TaskQueueType
		// FirstPollerTime is when the server first saw a poller of the
		// deployment on it.
		FirstPollerTime time.Time
	}

	// DeploymentInfo describes a deployment.
	DeploymentInfo struct {
		Deployment Deployment
		CreateTime time.Time
		// IsCurrent tells whether it is its series' current deployment.
		IsCurrent bool
		// TaskQueuesInfos are the task queues its workers poll.
		TaskQueuesInfos []DeploymentTaskQueueInfo
		// Metadata set with DeploymentClient.SetCurrent.
		Metadata map[string]*commonpb.Payload
	}

	// DeploymentDescription is the answer of DeploymentClient.Describe.
	DeploymentDescription struct {
		DeploymentInfo DeploymentInfo
	}

	// DeploymentListEntry is a deployment in DeploymentClient.List.
	DeploymentListEntry struct {
		Deployment Deployment
		CreateTime time.Time
		IsCurrent  bool
	}

	// DeploymentListIterator walks the deployments of DeploymentClient.List,
	// fetching pages as it goes. It is not safe for concurrent use.
	DeploymentListIterator interface {
		// HasNext reports whether Next has a deployment or an error to
		// return; it may fetch the next page.
		HasNext() bool
		// Next returns the next deployment, or the error that ended the
		// listing.
		Next() (*DeploymentListEntry, error)
	}

	// DeploymentListOptions are the arguments of DeploymentClient.List.
	DeploymentListOptions struct {
		// PageSize is how many deployments each request asks for; the
		// server's default (1000) when 0.
		PageSize int
		// SeriesName lists only that series' deployments when set.
		SeriesName string
	}

	// DeploymentReachabilityInfo is the answer of
	// DeploymentClient.GetReachability.
	DeploymentReachabilityInfo struct {
		DeploymentInfo DeploymentInfo
		Reachability   DeploymentReachability
		// LastUpdateTime is when the server computed Reachability; it
		// caches it.
		LastUpdateTime time.Time
	}

	// DeploymentMetadataUpdate changes a deployment's metadata.
	DeploymentMetadataUpdate struct {
		// UpsertEntries sets these keys; a value that is not a
		// *commonpb.Payload is encoded with the client's data converter.
		UpsertEntries map[string]any
		// RemoveEntries deletes these keys.
		RemoveEntries []string
	}

	// DeploymentGetCurrentResponse is the answer of
	// DeploymentClient.GetCurrent.
	DeploymentGetCurrentResponse struct {
		DeploymentInfo DeploymentInfo
	}

	// DeploymentSetCurrentOptions are the arguments of
	// DeploymentClient.SetCurrent.
	DeploymentSetCurrentOptions struct {
		// Deployment to make current. Both its names are required.
		Deployment Deployment
		// MetadataUpdate to apply to it at the same time; optional.
		MetadataUpdate DeploymentMetadataUpdate
	}

	// DeploymentSetCurrentResponse is the answer of
	// DeploymentClient.SetCurrent.
	DeploymentSetCurrentResponse struct {
		// Current is the deployment now current, Previous the one that was.
		Current  DeploymentInfo
		Previous DeploymentInfo
	}

	// DeploymentDescribeOptions are the arguments of
	// DeploymentClient.Describe.
	DeploymentDescribeOptions struct {
		// Deployment to describe. Both its names are required.
		Deployment Deployment
	}

	// DeploymentGetReachabilityOptions are the arguments of
	// DeploymentClient.GetReachability.
	DeploymentGetReachabilityOptions struct {
		// Deployment to report on. Both its names are required.
		Deployment Deployment
	}

	// DeploymentGetCurrentOptions are the arguments of
	// DeploymentClient.GetCurrent.
	DeploymentGetCurrentOptions struct {
		// SeriesName whose current deployment to return. Required.
		SeriesName string
	}

	// DeploymentClient manages the deployments of the namespace: the
	// deprecated deployment-series API, which WorkerDeploymentClient
	// replaces. Servers from 1.28 on refuse each call (Unimplemented).
	DeploymentClient interface {
		// Describe returns a deployment's description.
		Describe(ctx context.Context, options DeploymentDescribeOptions) (DeploymentDescription, error)
		// List returns an iterator over the namespace's deployments, or a
		// series' ones.
		List(ctx context.Context, options DeploymentListOptions) (DeploymentListIterator, error)
		// GetReachability says what may still reach a deployment's
		// workers. The server computes it rarely and caches it: prefer
		// Describe when reachability is not what you need.
		GetReachability(ctx context.Context, options DeploymentGetReachabilityOptions) (DeploymentReachabilityInfo, error)
		// GetCurrent returns a series' current deployment.
		GetCurrent(ctx context.Context, options DeploymentGetCurrentOptions) (DeploymentGetCurrentResponse, error)
		// SetCurrent makes a deployment its series' current one, and
		// updates its metadata.
		SetCurrent(ctx context.Context, options DeploymentSetCurrentOptions) (DeploymentSetCurrentResponse, error)
	}
)
