package temporal

import "github.com/durable-go/sdk/internal/policy"

// RetryPolicy says how the server retries a failed activity or workflow:
// after each failed attempt it waits, then starts another, until an
// attempt succeeds, MaximumAttempts is reached, a timeout ends the whole,
// or the error is non-retryable. Zero fields take the defaults below. A
// nil *RetryPolicy means the server's default policy for activities (all
// defaults), and no retries for workflows.
//
//   - InitialInterval: the wait before the first retry. Default: 1s.
//   - BackoffCoefficient: how much the wait grows after each retry; 1
//     keeps it constant. At least 1. Default: 2.
//   - MaximumInterval: the longest wait. Default: 100 times
//     InitialInterval.
//   - MaximumAttempts: the most attempts, the first included; 1 means no
//     retry. Default: 0, no limit (a timeout ends the retries).
//   - NonRetryableErrorTypes: the ApplicationError types (ApplicationError's
//     Type, which for a plain Go error is its type's name) that end the
//     retries at once. Cancellations are never retried, and of timeouts
//     only start-to-close and heartbeat timeouts are.
//
// For example:
//
//	&temporal.RetryPolicy{
//		InitialInterval:        time.Second,
//		MaximumAttempts:        5,
//		NonRetryableErrorTypes: []string{"CardDeclined"},
//	}
type RetryPolicy = policy.RetryPolicy

// Priority orders and balances the tasks that wait in a task queue, for
// workflows (client.StartWorkflowOptions), activities and child workflows.
//
//   - PriorityKey: the task's rank, from 1 (dispatched first) to the
//     server's maximum (5 by default). Default: 0, the middle rank (3).
//   - FairnessKey: a group (a tenant, say) whose tasks share dispatch
//     fairly with other groups', in proportion to their weights. At most
//     64 bytes. Default: none.
//   - FairnessWeight: the weight of the FairnessKey's group, clamped to
//     [0.001, 1000]. Default: 1; the task queue's configuration may
//     override it.
type Priority = policy.Priority

// VersioningIntent says whether a command runs on the build ID of the
// workflow issuing it.
//
// Deprecated: build-ID based versioning is replaced by worker deployment
// versioning.
type VersioningIntent = policy.VersioningIntent

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
