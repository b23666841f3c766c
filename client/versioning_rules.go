package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// Build-ID versioning by rules (Client.UpdateWorkerVersioningRules and
// GetWorkerVersioningRules): deprecated for Worker Deployment Versioning.
// Temporal servers serve it only where the dynamic config
// frontend.workerVersioningRuleAPIs is on, and answer PermissionDenied
// elsewhere.

// UpdateWorkerVersioningRulesOptions are the arguments of
// Client.UpdateWorkerVersioningRules.
//
//   - TaskQueue: the task queue whose rules change. Required.
//   - ConflictToken: from the last GetWorkerVersioningRules or update;
//     the zero token only while the task queue has no rules.
//   - Operation: one of the VersioningOperation types, such as
//     *VersioningOperationInsertAssignmentRule. Required.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type UpdateWorkerVersioningRulesOptions = clientapi.UpdateWorkerVersioningRulesOptions

// VersioningConflictToken is the version of a task queue's rules that an
// update is based on: an update whose token is no longer current fails
// with a *serviceerror.FailedPrecondition. WorkerVersioningRules carries
// the current one; Token returns its bytes, for debugging.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningConflictToken = clientapi.VersioningConflictToken

// VersioningRampByPercentage, as a VersioningAssignmentRule's Ramp, sends
// Percentage (at least 0, below 100) of the new workflows to the rule's
// build ID.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningRampByPercentage = clientapi.VersioningRampByPercentage

// VersioningAssignmentRule assigns new workflows to TargetBuildID: all of
// them when Ramp is nil, a share with a *VersioningRampByPercentage.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningAssignmentRule = clientapi.VersioningAssignmentRule

// VersioningAssignmentRuleWithTimestamp is an assignment Rule and its
// CreateTime on the server.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningAssignmentRuleWithTimestamp = clientapi.VersioningAssignmentRuleWithTimestamp

// VersioningRedirectRule moves the workflows of SourceBuildID, running
// ones included, to TargetBuildID.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningRedirectRule = clientapi.VersioningRedirectRule

// VersioningRedirectRuleWithTimestamp is a redirect Rule and its
// CreateTime on the server.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningRedirectRuleWithTimestamp = clientapi.VersioningRedirectRuleWithTimestamp

// VersioningOperationInsertAssignmentRule inserts Rule at RuleIndex among
// the assignment rules, which the server tries in order (0, the first,
// by default; an index past the end appends).
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningOperationInsertAssignmentRule = clientapi.VersioningOperationInsertAssignmentRule

// VersioningOperationReplaceAssignmentRule replaces the assignment rule at
// RuleIndex with Rule. The server refuses to leave the task queue without
// an unconditional rule unless Force is set.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningOperationReplaceAssignmentRule = clientapi.VersioningOperationReplaceAssignmentRule

// VersioningOperationDeleteAssignmentRule deletes the assignment rule at
// RuleIndex. The server refuses to delete the last unconditional rule
// unless Force is set.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningOperationDeleteAssignmentRule = clientapi.VersioningOperationDeleteAssignmentRule

// VersioningOperationAddRedirectRule adds Rule to the redirect rules; a
// source build ID has at most one.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningOperationAddRedirectRule = clientapi.VersioningOperationAddRedirectRule

// VersioningOperationReplaceRedirectRule replaces the redirect rule of
// Rule's source build ID with Rule.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningOperationReplaceRedirectRule = clientapi.VersioningOperationReplaceRedirectRule

// VersioningOperationDeleteRedirectRule deletes the redirect rule of
// SourceBuildID.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningOperationDeleteRedirectRule = clientapi.VersioningOperationDeleteRedirectRule

// VersioningOperationCommitBuildID ends the rollout of TargetBuildID: the
// server, in one step, appends an assignment rule that sends it every new
// workflow and removes the earlier rules that target it and the
// unconditional rules of other build IDs. It refuses a build ID that no
// worker has polled with lately, unless Force is set.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type VersioningOperationCommitBuildID = clientapi.VersioningOperationCommitBuildID

// GetWorkerVersioningOptions are the arguments of
// Client.GetWorkerVersioningRules: TaskQueue, whose rules to read.
// Required.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type GetWorkerVersioningOptions = clientapi.GetWorkerVersioningOptions

// WorkerVersioningRules are the versioning rules of a task queue, the
// answer of Client.GetWorkerVersioningRules and
// UpdateWorkerVersioningRules: AssignmentRules in the order the server
// tries them, RedirectRules, and the ConflictToken of the next update.
//
// Deprecated: build-ID versioning is deprecated; use Worker Deployment
// Versioning (worker.DeploymentOptions, WorkerDeploymentClient).
type WorkerVersioningRules = clientapi.WorkerVersioningRules
