package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// WorkerDeploymentClient lists, opens and deletes the worker deployments
// of the client's namespace (Client.WorkerDeploymentClient). A worker
// deployment is the workers of one service, each version of it those of
// one build ID (worker.DeploymentOptions).
//
//   - List: iterate over the deployments (WorkerDeploymentListIterator).
//   - GetHandle: a WorkerDeploymentHandle on the deployment of a name;
//     nothing is checked until it is used.
//   - Delete: delete a deployment that has no version left.
//
// A rollout from version 1 to version 2, once version 2's workers poll:
//
//	d := c.WorkerDeploymentClient().GetHandle("orders")
//	desc, err := d.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
//	if err != nil {
//		return err
//	}
//	r, err := d.SetRampingVersion(ctx, client.WorkerDeploymentSetRampingVersionOptions{
//		BuildID: "v2", Percentage: 30, ConflictToken: desc.ConflictToken,
//	})
//	if err != nil {
//		return err
//	}
//	_, err = d.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{
//		BuildID: "v2", ConflictToken: r.ConflictToken,
//	})
type WorkerDeploymentClient = clientapi.WorkerDeploymentClient

// WorkerDeploymentHandle acts on one worker deployment. Errors of the
// server come as the typed serviceerror: a *serviceerror.NotFound for an
// unknown deployment or version, a *serviceerror.FailedPrecondition for
// a stale ConflictToken or a change the server refuses.
//
//   - Describe: the deployment, its versions and routing, and the
//     ConflictToken of its state.
//   - SetCurrentVersion: route new and auto-upgrade workflows to a build
//     ID (empty: the unversioned workers).
//   - SetRampingVersion: send a percentage of the current version's
//     tasks to a build ID.
//   - SetManagerIdentity: set or clear the identity alone allowed to
//     change the deployment.
//   - DescribeVersion: one version's routing, task queues, drainage and
//     metadata.
//   - DeleteVersion: delete a version that is neither current nor
//     ramping, has no pollers and has drained.
//   - UpdateVersionMetadata: set and remove a version's metadata entries.
type WorkerDeploymentHandle = clientapi.WorkerDeploymentHandle

// WorkerDeploymentListIterator iterates over the deployments of
// WorkerDeploymentClient.List, fetching pages as needed: HasNext says
// whether Next has an entry or an error to return; call Next only after
// HasNext returned true.
type WorkerDeploymentListIterator = clientapi.WorkerDeploymentListIterator

// WorkerDeploymentListOptions are the options of
// WorkerDeploymentClient.List: PageSize, the deployments a page fetches
// (the server's default, 1000, when 0).
type WorkerDeploymentListOptions = clientapi.WorkerDeploymentListOptions

// WorkerDeploymentListEntry is one deployment of a list: its Name,
// CreateTime and RoutingConfig.
type WorkerDeploymentListEntry = clientapi.WorkerDeploymentListEntry

// WorkerDeploymentDeleteOptions are the arguments of
// WorkerDeploymentClient.Delete: Name, the deployment (required), and
// Identity, recorded as the caller's (the client's when empty).
type WorkerDeploymentDeleteOptions = clientapi.WorkerDeploymentDeleteOptions

// WorkerDeploymentDeleteResponse is the answer of
// WorkerDeploymentClient.Delete; it has no fields yet.
type WorkerDeploymentDeleteResponse = clientapi.WorkerDeploymentDeleteResponse

// WorkerDeploymentRoutingConfig says which versions of a deployment take
// its workflows' tasks.
//
//   - CurrentVersion: takes new workflows and the tasks of unversioned
//     and auto-upgrade ones; nil means the unversioned workers.
//   - RampingVersion: takes RampingVersionPercentage (0 to 100) of what
//     the current version would; nil means the unversioned workers when
//     the percentage is not 0.
//   - CurrentVersionChangedTime, RampingVersionChangedTime: when each last
//     changed.
//   - RampingVersionPercentageChangedTime: when the percentage, or the
//     ramping version, last changed.
type WorkerDeploymentRoutingConfig = clientapi.WorkerDeploymentRoutingConfig

// WorkerDeploymentDescribeOptions are the options of
// WorkerDeploymentHandle.Describe; it has no fields yet.
type WorkerDeploymentDescribeOptions = clientapi.WorkerDeploymentDescribeOptions

// WorkerDeploymentDescribeResponse is the answer of
// WorkerDeploymentHandle.Describe: Info, the deployment, and
// ConflictToken, which names its present state (pass it to a change so
// that the change fails if another came first).
type WorkerDeploymentDescribeResponse = clientapi.WorkerDeploymentDescribeResponse

// WorkerDeploymentInfo describes a worker deployment.
//
//   - Name, CreateTime: its name, and when it was created.
//   - VersionSummaries: its versions (the server deletes by itself a
//     version that is neither current nor ramping, has no pollers and
//     has drained).
//   - RoutingConfig: which versions take its tasks.
//   - LastModifierIdentity: the identity of the last caller that changed
//     it.
//   - ManagerIdentity: when set, the only identity allowed to change it.
type WorkerDeploymentInfo = clientapi.WorkerDeploymentInfo

// WorkerDeploymentVersionSummary is one version of a deployment in
// brief: its Version, CreateTime and DrainageStatus.
type WorkerDeploymentVersionSummary = clientapi.WorkerDeploymentVersionSummary

// WorkerDeploymentSetCurrentVersionOptions are the arguments of
// WorkerDeploymentHandle.SetCurrentVersion.
//
//   - BuildID: the version to make current; empty makes the unversioned
//     workers current.
//   - ConflictToken: when set, the change fails with a
//     *serviceerror.FailedPrecondition if the deployment changed since
//     the call that returned the token.
//   - Identity: recorded as the caller's; the client's when empty.
//   - IgnoreMissingTaskQueues: go through even though the version's
//     workers do not poll every task queue the current version's do.
//   - AllowNoPollers: go through even though no worker of the version
//     has polled yet.
type WorkerDeploymentSetCurrentVersionOptions = clientapi.WorkerDeploymentSetCurrentVersionOptions

// WorkerDeploymentSetCurrentVersionResponse is the answer of
// WorkerDeploymentHandle.SetCurrentVersion: ConflictToken, the
// deployment's state after the change, and PreviousVersion, the version
// current before it (deprecated: Describe first and pass its token).
type WorkerDeploymentSetCurrentVersionResponse = clientapi.WorkerDeploymentSetCurrentVersionResponse

// WorkerDeploymentSetRampingVersionOptions are the arguments of
// WorkerDeploymentHandle.SetRampingVersion.
//
//   - BuildID: the version to ramp; empty ramps to the unversioned
//     workers.
//   - Percentage: of the tasks to send to it, from 0 to 100.
//   - ConflictToken, Identity, IgnoreMissingTaskQueues, AllowNoPollers:
//     as in WorkerDeploymentSetCurrentVersionOptions.
type WorkerDeploymentSetRampingVersionOptions = clientapi.WorkerDeploymentSetRampingVersionOptions

// WorkerDeploymentSetRampingVersionResponse is the answer of
// WorkerDeploymentHandle.SetRampingVersion: ConflictToken, the
// deployment's state after the change, and PreviousVersion and
// PreviousPercentage, the ramp before it (deprecated: Describe first and
// pass its token).
type WorkerDeploymentSetRampingVersionResponse = clientapi.WorkerDeploymentSetRampingVersionResponse

// WorkerDeploymentSetManagerIdentityOptions are the arguments of
// WorkerDeploymentHandle.SetManagerIdentity; set ManagerIdentity or Self,
// not both.
//
//   - ManagerIdentity: the new manager; empty clears it.
//   - Self: make the caller's identity the manager.
//   - ConflictToken, Identity: as in
//     WorkerDeploymentSetCurrentVersionOptions.
type WorkerDeploymentSetManagerIdentityOptions = clientapi.WorkerDeploymentSetManagerIdentityOptions

// WorkerDeploymentSetManagerIdentityResponse is the answer of
// WorkerDeploymentHandle.SetManagerIdentity: ConflictToken, the
// deployment's state after the change, and PreviousManagerIdentity
// (deprecated: Describe first and pass its token).
type WorkerDeploymentSetManagerIdentityResponse = clientapi.WorkerDeploymentSetManagerIdentityResponse

// WorkerDeploymentDescribeVersionOptions are the arguments of
// WorkerDeploymentHandle.DescribeVersion: BuildID, the version
// (required).
type WorkerDeploymentDescribeVersionOptions = clientapi.WorkerDeploymentDescribeVersionOptions

// WorkerDeploymentVersionDescription is the answer of
// WorkerDeploymentHandle.DescribeVersion: Info, the version.
type WorkerDeploymentVersionDescription = clientapi.WorkerDeploymentVersionDescription

// WorkerDeploymentVersionInfo describes a version of a deployment.
//
//   - Version: the deployment's name and the build ID.
//   - CreateTime, RoutingChangedTime: when it was created, and when its
//     routing last changed.
//   - CurrentSinceTime, RampingSinceTime: when it became current, or
//     began ramping; zero if it is not.
//   - RampPercentage: its ramp, from 0 to 100.
//   - TaskQueuesInfos: the task queues its workers poll.
//   - DrainageInfo: whether open workflows still need it; nil while it is
//     current or ramping.
//   - Metadata: the user's entries (UpdateVersionMetadata).
type WorkerDeploymentVersionInfo = clientapi.WorkerDeploymentVersionInfo

// WorkerDeploymentTaskQueueInfo is a task queue a version's workers
// poll: its Name and the Type of its tasks.
type WorkerDeploymentTaskQueueInfo = clientapi.WorkerDeploymentTaskQueueInfo

// WorkerDeploymentVersionDrainageInfo says whether a version can be
// retired: DrainageStatus, LastChangedTime (when the status last changed)
// and LastCheckedTime (when the server last checked it; the status lags
// by the server's refresh interval, minutes by default).
type WorkerDeploymentVersionDrainageInfo = clientapi.WorkerDeploymentVersionDrainageInfo

// WorkerDeploymentDeleteVersionOptions are the arguments of
// WorkerDeploymentHandle.DeleteVersion: BuildID, the version (required);
// SkipDrainage, to delete it even while it is draining; Identity,
// recorded as the caller's (the client's when empty).
type WorkerDeploymentDeleteVersionOptions = clientapi.WorkerDeploymentDeleteVersionOptions

// WorkerDeploymentDeleteVersionResponse is the answer of
// WorkerDeploymentHandle.DeleteVersion; it has no fields yet.
type WorkerDeploymentDeleteVersionResponse = clientapi.WorkerDeploymentDeleteVersionResponse

// WorkerDeploymentMetadataUpdate changes a version's metadata:
// UpsertEntries are set (a *commonpb.Payload as it is, any other value
// encoded with the client's data converter), RemoveEntries are removed.
type WorkerDeploymentMetadataUpdate = clientapi.WorkerDeploymentMetadataUpdate

// WorkerDeploymentUpdateVersionMetadataOptions are the arguments of
// WorkerDeploymentHandle.UpdateVersionMetadata: Version, the version to
// change (its BuildID is required), and MetadataUpdate, the change.
type WorkerDeploymentUpdateVersionMetadataOptions = clientapi.WorkerDeploymentUpdateVersionMetadataOptions

// WorkerDeploymentUpdateVersionMetadataResponse is the answer of
// WorkerDeploymentHandle.UpdateVersionMetadata: Metadata, the version's
// entries after the change.
type WorkerDeploymentUpdateVersionMetadataResponse = clientapi.WorkerDeploymentUpdateVersionMetadataResponse

// WorkerDeploymentVersionDrainageStatus says whether a version that takes
// no new workflows is still needed by open ones (the
// WorkerDeploymentVersionDrainageStatus constants).
type WorkerDeploymentVersionDrainageStatus = clientapi.WorkerDeploymentVersionDrainageStatus

// The drainage statuses of WorkerDeploymentVersionSummary and
// WorkerDeploymentVersionDrainageInfo.
const (
	// WorkerDeploymentVersionDrainageStatusUnspecified: not reported.
	WorkerDeploymentVersionDrainageStatusUnspecified = clientapi.WorkerDeploymentVersionDrainageStatusUnspecified
	// WorkerDeploymentVersionDrainageStatusDraining: pinned workflows are
	// still open on the version; its workers must keep running.
	WorkerDeploymentVersionDrainageStatusDraining = clientapi.WorkerDeploymentVersionDrainageStatusDraining
	// WorkerDeploymentVersionDrainageStatusDrained: no open workflow needs
	// the version, only queries of closed ones might; its workers may be
	// retired.
	WorkerDeploymentVersionDrainageStatusDrained = clientapi.WorkerDeploymentVersionDrainageStatusDrained
)

// WorkerVersioningMode is how a worker takes part in versioning, as its
// polls announce it (TaskQueuePollerInfo.WorkerDeploymentPollerOptions;
// the WorkerVersioningMode constants).
type WorkerVersioningMode = clientapi.WorkerVersioningMode

// The versioning modes a poller announces.
const (
	// WorkerVersioningModeUnspecified: not reported.
	WorkerVersioningModeUnspecified = clientapi.WorkerVersioningModeUnspecified
	// WorkerVersioningModeUnversioned: the worker's build ID does not
	// route tasks; it is one of the unversioned workers.
	WorkerVersioningModeUnversioned = clientapi.WorkerVersioningModeUnversioned
	// WorkerVersioningModeVersioned: the worker belongs to the version of
	// its deployment name and build ID, which the server routes tasks to
	// as the deployment's routing config says.
	WorkerVersioningModeVersioned = clientapi.WorkerVersioningModeVersioned
)
