package clientapi

// The build-ID versioning API of servers 1.21 to 1.27 (version sets) and
// the reachability query that goes with it: Client.UpdateWorkerBuildIdCompatibility,
// GetWorkerBuildIdCompatibility and GetWorkerTaskReachability. The server
// deprecates it for Worker Deployment Versioning and serves it only where
// the namespace's dynamic config enables it
// (frontend.workerVersioningDataAPIs); it answers PermissionDenied
// otherwise.

// UnversionedBuildID is the build ID that stands for workers without one,
// in GetWorkerTaskReachabilityOptions.BuildIDs and the answer's keys.
const UnversionedBuildID = ""

// TaskReachability is a kind of task that may still reach a build ID: a
// filter of GetWorkerTaskReachability, and what it reports per task queue.
type TaskReachability int

// The task reachabilities; the values are those of enumspb.TaskReachability.
// Untyped, as in the official SDK.
const (
	// TaskReachabilityUnspecified: no filter; in an answer, the server did
	// not look at that task queue (see BuildIDReachability.UnretrievedTaskQueues).
	TaskReachabilityUnspecified = iota
	// TaskReachabilityNewWorkflows: new workflows may start on the build ID.
	TaskReachabilityNewWorkflows
	// TaskReachabilityExistingWorkflows: open or closed workflows have run
	// on it.
	TaskReachabilityExistingWorkflows
	// TaskReachabilityOpenWorkflows: open workflows run on it.
	TaskReachabilityOpenWorkflows
	// TaskReachabilityClosedWorkflows: closed workflows ran on it (and may
	// still be queried).
	TaskReachabilityClosedWorkflows
)

type (
	// UpdateWorkerBuildIdCompatibilityOptions are the arguments of
	// Client.UpdateWorkerBuildIdCompatibility.
	UpdateWorkerBuildIdCompatibilityOptions struct {
		// TaskQueue whose version sets change. Required.
		TaskQueue string
		// Operation is one of *BuildIDOpAddNewIDInNewDefaultSet,
		// *BuildIDOpAddNewCompatibleVersion, *BuildIDOpPromoteSet and
		// *BuildIDOpPromoteIDWithinSet. Required.
		Operation UpdateBuildIDOp
	}

	// UpdateBuildIDOp is a change of a task queue's version sets; only the
	// BuildIDOp types of this package are one.
	UpdateBuildIDOp interface {
		// operatedBuildID is the build ID the operation names.
		operatedBuildID() string
	}

	// BuildIDOpAddNewIDInNewDefaultSet adds BuildID in a set of its own
	// and makes that set the default: new workflows start on it.
	BuildIDOpAddNewIDInNewDefaultSet struct {
		BuildID string
	}

	// BuildIDOpAddNewCompatibleVersion adds BuildID to the set holding
	// ExistingCompatibleBuildID, as that set's default; MakeSetDefault
	// also makes the set the task queue's default.
	BuildIDOpAddNewCompatibleVersion struct {
		BuildID                   string
		ExistingCompatibleBuildID string
		MakeSetDefault            bool
	}

	// BuildIDOpPromoteSet makes the set holding BuildID the default set.
	BuildIDOpPromoteSet struct {
		BuildID string
	}

	// BuildIDOpPromoteIDWithinSet makes BuildID the default of its set.
	BuildIDOpPromoteIDWithinSet struct {
		BuildID string
	}
)

func (op *BuildIDOpAddNewIDInNewDefaultSet) operatedBuildID() string { return op.BuildID }
func (op *BuildIDOpAddNewCompatibleVersion) operatedBuildID() string { return op.BuildID }
func (op *BuildIDOpPromoteSet) operatedBuildID() string              { return op.BuildID }
func (op *BuildIDOpPromoteIDWithinSet) operatedBuildID() string      { return op.BuildID }

type (
	// GetWorkerBuildIdCompatibilityOptions are the arguments of
	// Client.GetWorkerBuildIdCompatibility.
	GetWorkerBuildIdCompatibilityOptions struct {
		// TaskQueue whose version sets to read. Required.
		TaskQueue string
		// MaxSets limits the answer to the newest MaxSets sets; 0 means all.
		MaxSets int
	}

	// WorkerBuildIDVersionSets are a task queue's version sets, the
	// oldest first; the last is the default set.
	WorkerBuildIDVersionSets struct {
		Sets []*CompatibleVersionSet
	}

	// CompatibleVersionSet is a set of build IDs compatible with each
	// other, the set's default last.
	CompatibleVersionSet struct {
		BuildIDs []string
	}
)

// Default returns the build ID new workflows start on: the last of the
// last set, or "" when there is none.
func (s *WorkerBuildIDVersionSets) Default() string {
	if len(s.Sets) == 0 {
		return ""
	}
	newest := s.Sets[len(s.Sets)-1]
	if newest == nil || len(newest.BuildIDs) == 0 {
		return ""
	}
	return newest.BuildIDs[len(newest.BuildIDs)-1]
}

type (
	// GetWorkerTaskReachabilityOptions are the arguments of
	// Client.GetWorkerTaskReachability.
	GetWorkerTaskReachabilityOptions struct {
		// BuildIDs to report on, at least one; UnversionedBuildID asks
		// about workers without a build ID (and then TaskQueues is
		// required).
		BuildIDs []string
		// TaskQueues to look in; all those the build IDs are known on
		// when empty.
		TaskQueues []string
		// Reachability filters the kinds of tasks; all when unspecified.
		Reachability TaskReachability
	}

	// WorkerTaskReachability is the answer of
	// Client.GetWorkerTaskReachability.
	WorkerTaskReachability struct {
		// BuildIDReachability by build ID (UnversionedBuildID included
		// when asked about).
		BuildIDReachability map[string]*BuildIDReachability
	}

	// BuildIDReachability is the reachability of one build ID.
	BuildIDReachability struct {
		// TaskQueueReachable by task queue.
		TaskQueueReachable map[string]*TaskQueueReachability
		// UnretrievedTaskQueues are the task queues the server did not
		// look at, over its limit of task queues per query.
		UnretrievedTaskQueues []string
	}

	// TaskQueueReachability is what may reach a build ID in one task
	// queue; empty means nothing will.
	TaskQueueReachability struct {
		TaskQueueReachability []TaskReachability
	}
)
