package policy

// VersioningIntent says whether a command (activity, child workflow,
// continue-as-new) should run on the build ID of the workflow issuing it.
// Build-ID based versioning is deprecated in favour of worker deployment
// versioning; the public alias in package temporal says so.
type VersioningIntent int

const (
	// VersioningIntentUnspecified lets the SDK choose: inherit the build ID
	// when the command targets the worker's own task queue, use the
	// assignment rules otherwise.
	VersioningIntentUnspecified VersioningIntent = iota
	// VersioningIntentCompatible is VersioningIntentInheritBuildID.
	VersioningIntentCompatible
	// VersioningIntentDefault is VersioningIntentUseAssignmentRules.
	VersioningIntentDefault
	// VersioningIntentInheritBuildID runs the command on the issuing
	// workflow's build ID (redirect rules still apply).
	VersioningIntentInheritBuildID
	// VersioningIntentUseAssignmentRules picks the build ID with the target
	// task queue's assignment rules.
	VersioningIntentUseAssignmentRules
)

// InheritBuildID returns the inherit_build_id flag of a command with the
// given intent, issued by a worker polling workerTaskQueue to
// targetTaskQueue (empty meaning the worker's own).
func InheritBuildID(intent VersioningIntent, workerTaskQueue, targetTaskQueue string) bool {
	switch intent {
	case VersioningIntentDefault, VersioningIntentUseAssignmentRules:
		return false
	case VersioningIntentUnspecified:
		return targetTaskQueue == "" || targetTaskQueue == workerTaskQueue
	default:
		return true
	}
}
