package temporal

import "github.com/durable-go/sdk/internal/policy"

type (
	// RetryPolicy says how the server retries failed activities and
	// workflows. Zero fields take the server's defaults.
	RetryPolicy = policy.RetryPolicy

	// Priority orders and balances the tasks of workflows and activities
	// waiting in a task queue.
	Priority = policy.Priority

	// VersioningIntent says whether a command runs on the build ID of the
	// workflow issuing it.
	//
	// Deprecated: build-ID based versioning is replaced by worker deployment
	// versioning.
	VersioningIntent = policy.VersioningIntent
)

const (
	// VersioningIntentUnspecified lets the SDK choose by task queue.
	//
	// Deprecated: build-ID based versioning is deprecated.
	VersioningIntentUnspecified = policy.VersioningIntentUnspecified
	// VersioningIntentCompatible is VersioningIntentInheritBuildID.
	//
	// Deprecated: use VersioningIntentInheritBuildID.
	VersioningIntentCompatible = policy.VersioningIntentCompatible
	// VersioningIntentDefault is VersioningIntentUseAssignmentRules.
	//
	// Deprecated: use VersioningIntentUseAssignmentRules.
	VersioningIntentDefault = policy.VersioningIntentDefault
	// VersioningIntentInheritBuildID runs the command on the issuing
	// workflow's build ID.
	//
	// Deprecated: build-ID based versioning is deprecated.
	VersioningIntentInheritBuildID = policy.VersioningIntentInheritBuildID
	// VersioningIntentUseAssignmentRules picks the build ID with the target
	// task queue's assignment rules.
	//
	// Deprecated: build-ID based versioning is deprecated.
	VersioningIntentUseAssignmentRules = policy.VersioningIntentUseAssignmentRules
)
