package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// The deployment-series API (Client.DeploymentClient), the pre-release of
// worker versioning in Temporal server 1.26, deprecated for
// WorkerDeploymentClient. Servers from 1.28 on answer each of its calls
// with a *serviceerror.Unimplemented.

// DeploymentReachability is what may still reach the workers of a
// deployment (the DeploymentReachability constants).
//
// Deprecated: use WorkerDeploymentClient and the drainage status of a
// worker deployment version.
type DeploymentReachability = clientapi.DeploymentReachability

// The reachabilities of DeploymentReachabilityInfo.
const (
	// DeploymentReachabilityUnspecified: not reported.
	//
	// Deprecated: see DeploymentReachability.
	DeploymentReachabilityUnspecified = clientapi.DeploymentReachabilityUnspecified
	// DeploymentReachabilityReachable: new or open workflows may reach
	// the deployment; its workers must stay.
	//
	// Deprecated: see DeploymentReachability.
	DeploymentReachabilityReachable = clientapi.DeploymentReachabilityReachable
	// DeploymentReachabilityClosedWorkflows: only queries of closed
	// workflows may; its workers may go unless those queries matter.
	//
	// Deprecated: see DeploymentReachability.
	DeploymentReachabilityClosedWorkflows = clientapi.DeploymentReachabilityClosedWorkflows
	// DeploymentReachabilityUnreachable: nothing will; its workers may go.
	//
	// Deprecated: see DeploymentReachability.
	DeploymentReachabilityUnreachable = clientapi.DeploymentReachabilityUnreachable
)

// Deployment names a deployment: BuildID within SeriesName, the series of
// versions of one worker application.
//
// Deprecated: use WorkerDeploymentClient and WorkerDeploymentVersion.
type Deployment = clientapi.Deployment

// DeploymentTaskQueueInfo is a task queue that a deployment's workers
// poll: its Name, its Type, and FirstPollerTime, when the server first
// saw one of them poll it.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentTaskQueueInfo = clientapi.DeploymentTaskQueueInfo

// DeploymentInfo describes a deployment: its Deployment name, CreateTime,
// IsCurrent (whether it is its series' current one), TaskQueuesInfos (the
// task queues its workers poll) and the Metadata set with
// DeploymentClient.SetCurrent.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentInfo = clientapi.DeploymentInfo

// DeploymentListEntry is a deployment that DeploymentClient.List returns:
// its Deployment name, CreateTime and IsCurrent.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentListEntry = clientapi.DeploymentListEntry

// DeploymentListIterator walks the deployments DeploymentClient.List
// finds, fetching pages as needed: HasNext reports whether Next has a
// deployment or an error to return. It is not safe for concurrent use.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentListIterator = clientapi.DeploymentListIterator

// DeploymentListOptions are the arguments of DeploymentClient.List.
//
//   - PageSize: deployments per request. Default (0): the server's, 1000.
//   - SeriesName: list only this series' deployments. Default: all.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentListOptions = clientapi.DeploymentListOptions

// DeploymentReachabilityInfo is the answer of
// DeploymentClient.GetReachability: the DeploymentInfo, its Reachability,
// and LastUpdateTime, when the server computed it (it caches it).
//
// Deprecated: use WorkerDeploymentClient and the drainage status of a
// worker deployment version.
type DeploymentReachabilityInfo = clientapi.DeploymentReachabilityInfo

// DeploymentMetadataUpdate changes a deployment's metadata:
// UpsertEntries sets keys (a value that is not a *commonpb.Payload is
// encoded with the client's data converter), RemoveEntries deletes keys.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentMetadataUpdate = clientapi.DeploymentMetadataUpdate

// DeploymentDescribeOptions are the arguments of DeploymentClient.Describe:
// the Deployment to describe, both of its names required.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentDescribeOptions = clientapi.DeploymentDescribeOptions

// DeploymentDescription is the answer of DeploymentClient.Describe: its
// DeploymentInfo.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentDescription = clientapi.DeploymentDescription

// DeploymentGetReachabilityOptions are the arguments of
// DeploymentClient.GetReachability: the Deployment, both of its names
// required.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentGetReachabilityOptions = clientapi.DeploymentGetReachabilityOptions

// DeploymentGetCurrentOptions are the arguments of
// DeploymentClient.GetCurrent: SeriesName, required.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentGetCurrentOptions = clientapi.DeploymentGetCurrentOptions

// DeploymentGetCurrentResponse is the answer of DeploymentClient.GetCurrent:
// the DeploymentInfo of the series' current deployment.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentGetCurrentResponse = clientapi.DeploymentGetCurrentResponse

// DeploymentSetCurrentOptions are the arguments of
// DeploymentClient.SetCurrent.
//
//   - Deployment: the deployment to make current, both of its names
//     required.
//   - MetadataUpdate: changes to its metadata, made at the same time.
//     Optional.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentSetCurrentOptions = clientapi.DeploymentSetCurrentOptions

// DeploymentSetCurrentResponse is the answer of DeploymentClient.SetCurrent:
// the Current deployment after the call, and the Previous one.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentSetCurrentResponse = clientapi.DeploymentSetCurrentResponse

// DeploymentClient manages the deployment series of the namespace, from
// Client.DeploymentClient: Describe, List, GetReachability (cached by the
// server: prefer Describe when reachability is not needed), GetCurrent
// and SetCurrent. Servers from 1.28 on answer every call with a
// *serviceerror.Unimplemented.
//
// Deprecated: use WorkerDeploymentClient.
type DeploymentClient = clientapi.DeploymentClient
