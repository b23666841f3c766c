package clientapi

import (
	"context"
	"time"

	commonpb "go.temporal.io/api/common/v1"
)

// Worker Deployment Versioning, as an operator manages it: a worker
// deployment is a named group of workers (a service), each version of it
// the workers of one build ID. Client.WorkerDeploymentClient lists and
// deletes deployments; a WorkerDeploymentHandle routes new and
// auto-upgrading workflows to a version (current, or ramping by a
// percentage), describes its versions and their drainage, and edits their
// metadata. internal/clientimpl sends the requests (deployment.go) and
// converts the answers (deployment_wire.go).

// WorkerDeploymentVersionDrainageStatus says whether a version that no
// longer takes new workflows still has open workflows pinned to it.
type WorkerDeploymentVersionDrainageStatus int

// The drainage statuses; the values are those of
// enumspb.VersionDrainageStatus. Untyped, as in the official SDK.
const (
	// WorkerDeploymentVersionDrainageStatusUnspecified: not reported.
	WorkerDeploymentVersionDrainageStatusUnspecified = iota
	// WorkerDeploymentVersionDrainageStatusDraining: no new workflow goes
	// to the version, but pinned workflows are still open on it; its
	// workers must keep running.
	WorkerDeploymentVersionDrainageStatusDraining
	// WorkerDeploymentVersionDrainageStatusDrained: no open workflow
	// needs the version; only queries of closed workflows might. Its
	// workers may be retired.
	WorkerDeploymentVersionDrainageStatusDrained
)

// WorkerVersioningMode is how a worker takes part in versioning, as its
// polls announce it.
type WorkerVersioningMode int

// The versioning modes; the values are those of
// enumspb.WorkerVersioningMode. Untyped, as in the official SDK.
const (
	// WorkerVersioningModeUnspecified: not reported.
	WorkerVersioningModeUnspecified = iota
	// WorkerVersioningModeUnversioned: the worker's build ID does not
	// route tasks; it is one of the deployment's unversioned workers.
	WorkerVersioningModeUnversioned
	// WorkerVersioningModeVersioned: the worker belongs to the version its
	// deployment name and build ID make, and the server routes tasks to
	// that version as the deployment's routing config says.
	WorkerVersioningModeVersioned
)

// WorkerDeploymentClient lists, opens and deletes the worker deployments
// of the client's namespace.
type WorkerDeploymentClient interface {
	// List iterates over the namespace's worker deployments, a page at a
	// time as the iterator needs them.
	List(ctx context.Context, options WorkerDeploymentListOptions) (WorkerDeploymentListIterator, error)
	// GetHandle returns a handle on the deployment of this name. Nothing
	// is checked until the handle is used: an unknown name fails then,
	// with a *serviceerror.NotFound.
	GetHandle(name string) WorkerDeploymentHandle
	// Delete deletes a deployment's record; the server refuses while the
	// deployment still has versions.
	Delete(ctx context.Context, options WorkerDeploymentDeleteOptions) (WorkerDeploymentDeleteResponse, error)
}

// WorkerDeploymentHandle acts on one worker deployment.
type WorkerDeploymentHandle interface {
	// Describe returns the deployment: its versions, its routing config,
	// and the conflict token of its present state.
	Describe(ctx context.Context, options WorkerDeploymentDescribeOptions) (WorkerDeploymentDescribeResponse, error)
	// SetCurrentVersion makes a build ID the deployment's current version
	// (an empty build ID: its unversioned workers), and stops ramping it
	// if it was the ramping version.
	SetCurrentVersion(ctx context.Context, options WorkerDeploymentSetCurrentVersionOptions) (WorkerDeploymentSetCurrentVersionResponse, error)
	// SetRampingVersion sends a percentage of the tasks of the current
	// version to a build ID (an empty build ID: to unversioned workers).
	SetRampingVersion(ctx context.Context, options WorkerDeploymentSetRampingVersionOptions) (WorkerDeploymentSetRampingVersionResponse, error)
	// SetManagerIdentity sets or clears the identity alone allowed to
	// change the deployment.
	SetManagerIdentity(ctx context.Context, options WorkerDeploymentSetManagerIdentityOptions) (WorkerDeploymentSetManagerIdentityResponse, error)
	// DescribeVersion describes one version: its routing, task queues,
	// drainage and metadata.
	DescribeVersion(ctx context.Context, options WorkerDeploymentDescribeVersionOptions) (WorkerDeploymentVersionDescription, error)
	// DeleteVersion deletes a version. The server refuses a version that
	// is current or ramping, that has pollers, or that is draining
	// (unless SkipDrainage); versions no longer used are collected by the
	// server anyway.
	DeleteVersion(ctx context.Context, options WorkerDeploymentDeleteVersionOptions) (WorkerDeploymentDeleteVersionResponse, error)
	// UpdateVersionMetadata sets and removes entries of a version's
	// metadata.
	UpdateVersionMetadata(ctx context.Context, options WorkerDeploymentUpdateVersionMetadataOptions) (WorkerDeploymentUpdateVersionMetadataResponse, error)
}

// WorkerDeploymentListIterator iterates over the entries of
// WorkerDeploymentClient.List, fetching pages as needed.
type WorkerDeploymentListIterator interface {
	// HasNext reports whether Next has an entry, or an error, to return.
	HasNext() bool
	// Next returns the next entry. Call it only after HasNext returned
	// true.
	Next() (*WorkerDeploymentListEntry, error)
}

type (
	// WorkerDeploymentListOptions are the options of
	// WorkerDeploymentClient.List.
	WorkerDeploymentListOptions struct {
		// PageSize is how many deployments a page fetches; the server's
		// default (1000) when 0.
		PageSize int
	}

	// WorkerDeploymentListEntry is one deployment of a list.
	WorkerDeploymentListEntry struct {
		// Name is the deployment's name.
		Name string
		// CreateTime is when the deployment was created.
		CreateTime time.Time
		// RoutingConfig says which versions take its tasks.
		RoutingConfig WorkerDeploymentRoutingConfig
	}

	// WorkerDeploymentDeleteOptions are the arguments of
	// WorkerDeploymentClient.Delete.
	WorkerDeploymentDeleteOptions struct {
		// Name is the deployment to delete. Required.
		Name string
		// Identity is recorded as the caller's; the client's identity
		// when empty.
		Identity string
	}

	// WorkerDeploymentDeleteResponse is the answer of
	// WorkerDeploymentClient.Delete; it has no fields yet.
	WorkerDeploymentDeleteResponse struct{}

	// WorkerDeploymentRoutingConfig says which versions of a deployment
	// take its workflows' tasks.
	WorkerDeploymentRoutingConfig struct {
		// CurrentVersion takes new workflows and the tasks of unversioned
		// and auto-upgrade ones; nil means the unversioned workers.
		CurrentVersion *WorkerDeploymentVersion
		// RampingVersion takes RampingVersionPercentage of what the
		// current version would take; nil means the unversioned workers
		// (when the percentage is not 0).
		RampingVersion *WorkerDeploymentVersion
		// RampingVersionPercentage, from 0 to 100.
		RampingVersionPercentage float32
		// CurrentVersionChangedTime is when the current version last
		// changed.
		CurrentVersionChangedTime time.Time
		// RampingVersionChangedTime is when the ramping version last
		// changed (a change of its percentage alone does not count).
		RampingVersionChangedTime time.Time
		// RampingVersionPercentageChangedTime is when the percentage, or
		// the ramping version, last changed.
		RampingVersionPercentageChangedTime time.Time
	}

	// WorkerDeploymentDescribeOptions are the options of
	// WorkerDeploymentHandle.Describe; it has no fields yet.
	WorkerDeploymentDescribeOptions struct{}

	// WorkerDeploymentDescribeResponse is the answer of
	// WorkerDeploymentHandle.Describe.
	WorkerDeploymentDescribeResponse struct {
		// ConflictToken names the deployment's present state: pass it to
		// a change so that the change fails if another came first.
		ConflictToken []byte
		// Info describes the deployment.
		Info WorkerDeploymentInfo
	}

	// WorkerDeploymentInfo describes a deployment.
	WorkerDeploymentInfo struct {
		// Name is the deployment's name.
		Name string
		// CreateTime is when it was created.
		CreateTime time.Time
		// VersionSummaries are its versions. The server deletes a
		// version by itself once it is neither current nor ramping, has
		// no pollers and has drained.
		VersionSummaries []WorkerDeploymentVersionSummary
		// RoutingConfig says which versions take its tasks.
		RoutingConfig WorkerDeploymentRoutingConfig
		// LastModifierIdentity is the identity of the last caller that
		// changed it.
		LastModifierIdentity string
		// ManagerIdentity, when set, is the only identity allowed to
		// change it.
		ManagerIdentity string
	}

	// WorkerDeploymentVersionSummary is one version of a deployment, in
	// brief.
	WorkerDeploymentVersionSummary struct {
		// Version names the version.
		Version WorkerDeploymentVersion
		// CreateTime is when it was created.
		CreateTime time.Time
		// DrainageStatus says whether open workflows still need it.
		DrainageStatus WorkerDeploymentVersionDrainageStatus
	}

	// WorkerDeploymentSetCurrentVersionOptions are the arguments of
	// WorkerDeploymentHandle.SetCurrentVersion.
	WorkerDeploymentSetCurrentVersionOptions struct {
		// BuildID is the version to make current; empty makes the
		// unversioned workers current.
		BuildID string
		// ConflictToken, when set, makes the change fail with a
		// *serviceerror.FailedPrecondition if the deployment changed
		// since the call that returned the token.
		ConflictToken []byte
		// Identity is recorded as the caller's; the client's identity
		// when empty.
		Identity string
		// IgnoreMissingTaskQueues makes the change go through even though
		// the version's workers do not poll every task queue the present
		// current version's do.
		IgnoreMissingTaskQueues bool
		// AllowNoPollers makes the change go through even though no
		// worker of the version has polled yet.
		AllowNoPollers bool
	}

	// WorkerDeploymentSetCurrentVersionResponse is the answer of
	// WorkerDeploymentHandle.SetCurrentVersion.
	WorkerDeploymentSetCurrentVersionResponse struct {
		// ConflictToken names the deployment's state after the change.
		ConflictToken []byte
		// PreviousVersion was current before the change; nil for the
		// unversioned workers.
		//
		// Deprecated: read the state with Describe before the change and
		// pass its ConflictToken instead.
		PreviousVersion *WorkerDeploymentVersion
	}

	// WorkerDeploymentSetRampingVersionOptions are the arguments of
	// WorkerDeploymentHandle.SetRampingVersion.
	WorkerDeploymentSetRampingVersionOptions struct {
		// BuildID is the version to ramp; empty ramps to the unversioned
		// workers.
		BuildID string
		// Percentage of the tasks to send to it, from 0 to 100.
		Percentage float32
		// ConflictToken: as in WorkerDeploymentSetCurrentVersionOptions.
		ConflictToken []byte
		// Identity is recorded as the caller's; the client's identity
		// when empty.
		Identity string
		// IgnoreMissingTaskQueues: as in
		// WorkerDeploymentSetCurrentVersionOptions.
		IgnoreMissingTaskQueues bool
		// AllowNoPollers: as in WorkerDeploymentSetCurrentVersionOptions.
		AllowNoPollers bool
	}

	// WorkerDeploymentSetRampingVersionResponse is the answer of
	// WorkerDeploymentHandle.SetRampingVersion.
	WorkerDeploymentSetRampingVersionResponse struct {
		// ConflictToken names the deployment's state after the change.
		ConflictToken []byte
		// PreviousVersion was ramping before the change.
		//
		// Deprecated: read the state with Describe before the change and
		// pass its ConflictToken instead.
		PreviousVersion *WorkerDeploymentVersion
		// PreviousPercentage was the ramp's percentage before the change.
		//
		// Deprecated: read the state with Describe before the change and
		// pass its ConflictToken instead.
		PreviousPercentage float32
	}

	// WorkerDeploymentSetManagerIdentityOptions are the arguments of
	// WorkerDeploymentHandle.SetManagerIdentity. Set ManagerIdentity or
	// Self, not both.
	WorkerDeploymentSetManagerIdentityOptions struct {
		// ManagerIdentity becomes the deployment's manager; empty clears
		// it.
		ManagerIdentity string
		// Self makes the caller's identity the manager.
		Self bool
		// ConflictToken: as in WorkerDeploymentSetCurrentVersionOptions.
		ConflictToken []byte
		// Identity is recorded as the caller's; the client's identity
		// when empty.
		Identity string
	}

	// WorkerDeploymentSetManagerIdentityResponse is the answer of
	// WorkerDeploymentHandle.SetManagerIdentity.
	WorkerDeploymentSetManagerIdentityResponse struct {
		// ConflictToken names the deployment's state after the change.
		ConflictToken []byte
		// PreviousManagerIdentity was the manager before the change.
		//
		// Deprecated: read the state with Describe before the change and
		// pass its ConflictToken instead.
		PreviousManagerIdentity string
	}

	// WorkerDeploymentDescribeVersionOptions are the arguments of
	// WorkerDeploymentHandle.DescribeVersion.
	WorkerDeploymentDescribeVersionOptions struct {
		// BuildID is the version to describe. Required.
		BuildID string
	}

	// WorkerDeploymentVersionDescription is the answer of
	// WorkerDeploymentHandle.DescribeVersion.
	WorkerDeploymentVersionDescription struct {
		// Info describes the version.
		Info WorkerDeploymentVersionInfo
	}

	// WorkerDeploymentVersionInfo describes a version of a deployment.
	WorkerDeploymentVersionInfo struct {
		// Version names it.
		Version WorkerDeploymentVersion
		// CreateTime is when it was created.
		CreateTime time.Time
		// RoutingChangedTime is when its routing last changed.
		RoutingChangedTime time.Time
		// CurrentSinceTime is when it became current; zero if it is not.
		CurrentSinceTime time.Time
		// RampingSinceTime is when it began ramping; zero if it is not.
		RampingSinceTime time.Time
		// RampPercentage is its ramp, from 0 to 100.
		RampPercentage float32
		// TaskQueuesInfos are the task queues its workers poll.
		TaskQueuesInfos []WorkerDeploymentTaskQueueInfo
		// DrainageInfo says whether open workflows still need it; nil
		// while it is current or ramping.
		DrainageInfo *WorkerDeploymentVersionDrainageInfo
		// Metadata is the user's, as UpdateVersionMetadata left it.
		Metadata map[string]*commonpb.Payload
	}

	// WorkerDeploymentTaskQueueInfo is a task queue a version's workers
	// poll, for one type of task.
	WorkerDeploymentTaskQueueInfo struct {
		// Name of the task queue.
		Name string
		// Type of its tasks.
		Type TaskQueueType
	}

	// WorkerDeploymentVersionDrainageInfo says whether a version can be
	// retired.
	WorkerDeploymentVersionDrainageInfo struct {
		// DrainageStatus: draining or drained.
		DrainageStatus WorkerDeploymentVersionDrainageStatus
		// LastChangedTime is when the status last changed.
		LastChangedTime time.Time
		// LastCheckedTime is when the server last checked it; the status
		// can lag behind by the server's refresh interval (minutes, by
		// default).
		LastCheckedTime time.Time
	}

	// WorkerDeploymentDeleteVersionOptions are the arguments of
	// WorkerDeploymentHandle.DeleteVersion.
	WorkerDeploymentDeleteVersionOptions struct {
		// BuildID is the version to delete. Required.
		BuildID string
		// SkipDrainage deletes the version even while it is draining.
		SkipDrainage bool
		// Identity is recorded as the caller's; the client's identity
		// when empty.
		Identity string
	}

	// WorkerDeploymentDeleteVersionResponse is the answer of
	// WorkerDeploymentHandle.DeleteVersion; it has no fields yet.
	WorkerDeploymentDeleteVersionResponse struct{}

	// WorkerDeploymentMetadataUpdate changes a version's metadata.
	WorkerDeploymentMetadataUpdate struct {
		// UpsertEntries are set: a *commonpb.Payload as it is, any other
		// value encoded with the client's data converter.
		UpsertEntries map[string]any
		// RemoveEntries are the keys to remove.
		RemoveEntries []string
	}

	// WorkerDeploymentUpdateVersionMetadataOptions are the arguments of
	// WorkerDeploymentHandle.UpdateVersionMetadata.
	WorkerDeploymentUpdateVersionMetadataOptions struct {
		// Version is the version to change; its BuildID is required.
		Version WorkerDeploymentVersion
		// MetadataUpdate is the change.
		MetadataUpdate WorkerDeploymentMetadataUpdate
	}

	// WorkerDeploymentUpdateVersionMetadataResponse is the answer of
	// WorkerDeploymentHandle.UpdateVersionMetadata.
	WorkerDeploymentUpdateVersionMetadataResponse struct {
		// Metadata is the version's metadata after the change.
		Metadata map[string]*commonpb.Payload
	}
)
