package converter

import "github.com/durable-go/sdk/internal/extstore"

// StorageDriverTargetInfo is the workflow or activity a payload is stored
// for: a StorageDriverWorkflowInfo or a StorageDriverActivityInfo (switch
// on its type).
//
// NOTE: Experimental
type StorageDriverTargetInfo = extstore.StorageDriverTargetInfo

// StorageDriverWorkflowInfo names the workflow a payload is stored for:
// its Namespace, WorkflowType, WorkflowID and RunID (empty where the
// sender does not know it, as the run ID of a run not started yet).
//
// NOTE: Experimental
type StorageDriverWorkflowInfo = extstore.StorageDriverWorkflowInfo

// StorageDriverActivityInfo names the standalone activity (one a client
// started) a payload is stored for: its Namespace, ActivityType,
// ActivityID and RunID. A workflow's activities store for the workflow.
//
// NOTE: Experimental
type StorageDriverActivityInfo = extstore.StorageDriverActivityInfo

// StorageDriverStoreContext is what a StorageDriver's Store is given
// besides the payloads: the sender's Context (its deadline and
// cancellation), the Target the payloads are stored for, and the Limiter
// each operation runs in (GetLimiter returns one that never waits when
// Limiter is nil).
//
// NOTE: Experimental
type StorageDriverStoreContext = extstore.StorageDriverStoreContext

// StorageDriverSelectContext is what a StorageDriverSelector is given
// besides the payload: the sender's Context and the Target.
//
// NOTE: Experimental
type StorageDriverSelectContext = extstore.StorageDriverSelectContext

// StorageDriverRetrieveContext is what a StorageDriver's Retrieve is
// given besides the claims: a Context and the Limiter each operation runs
// in (GetLimiter returns one that never waits when Limiter is nil). It
// names no workflow: a driver finds a payload from its claim alone.
//
// NOTE: Experimental
type StorageDriverRetrieveContext = extstore.StorageDriverRetrieveContext

// StorageDriverClaim is where a driver stored a payload, in the driver's
// own terms (ClaimData: a bucket and a key, say); the history keeps it in
// the payload's place, with the driver's name.
//
// NOTE: Experimental
type StorageDriverClaim = extstore.StorageDriverClaim

// StorageDriverLimiter bounds how many operations a driver runs at once:
// a driver runs each operation inside Permit.
//
// NOTE: Experimental
type StorageDriverLimiter[T any] = extstore.StorageDriverLimiter[T]

// ExternalStorageConcurrency bounds the storage drivers' concurrent
// operations: MaxDriverOperations for a client and its workers together
// (64 when zero), MaxOperationsPerMessage for one request or answer (8
// when zero).
//
// NOTE: Experimental
type ExternalStorageConcurrency = extstore.ExternalStorageConcurrency

// StorageDriver stores payloads outside the workflow history and
// retrieves them. Name identifies the instance and is recorded with each
// claim (a reader needs a driver of that name); Type names the
// implementation. Store returns one claim per payload, in order; Retrieve
// one payload per claim, in order; neither changes its input.
//
// NOTE: Experimental
type StorageDriver = extstore.StorageDriver

// StorageDriverSelector chooses, in SelectDriver, the driver that stores
// a payload above the threshold, or nil to keep it in the history. It
// must return one of ExternalStorage.Drivers.
//
// NOTE: Experimental
type StorageDriverSelector = extstore.StorageDriverSelector

// ExternalStorage configures a client and its workers (or a replayer) to
// keep payloads above a size threshold outside the workflow history:
// each is stored by a driver and a reference takes its place; what is
// read is retrieved before the data converter sees it. Drivers are the
// drivers (unique names); DriverSelector picks one per payload (required
// with several; Drivers[0] otherwise); PayloadSizeThreshold is the size
// in bytes from which a payload is stored (256 KiB when zero);
// Concurrency bounds the drivers' operations.
//
// NOTE: Experimental
type ExternalStorage = extstore.ExternalStorage
