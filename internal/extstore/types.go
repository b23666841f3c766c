// Package extstore keeps large payloads outside the workflow history, as
// go.temporal.io/sdk v1.51 does with its (pre-release) external storage.
//
// A client or worker configured with ExternalStorage replaces each payload
// at least PayloadSizeThreshold bytes long in what it sends by a small
// reference payload (see reference.go for its wire format, which is the
// official SDK's, so that either SDK reads what the other stored), after
// handing the payload to a StorageDriver; it replaces each reference in
// what it receives by the payload the driver returns for it. Storage.Store
// and Storage.Retrieve do that to a whole request or answer.
//
// The types here are the public ones; package converter aliases them.
package extstore

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"
)

// StorageDriverTargetInfo is the workflow or activity a payload is stored
// for: a StorageDriverWorkflowInfo or a StorageDriverActivityInfo.
//
// NOTE: Experimental
type StorageDriverTargetInfo interface {
	storageTarget()
}

// StorageDriverWorkflowInfo names the workflow a payload is stored for.
// Fields the sender does not know (the run ID of a run not yet started)
// are empty.
//
// NOTE: Experimental
type StorageDriverWorkflowInfo struct {
	// Namespace of the workflow.
	Namespace string
	// WorkflowType is the workflow's type name.
	WorkflowType string
	// WorkflowID is the workflow's ID.
	WorkflowID string
	// RunID is the run's ID.
	RunID string
}

func (StorageDriverWorkflowInfo) storageTarget() {}

// StorageDriverActivityInfo names a standalone activity (one a client
// started, not a workflow) a payload is stored for; the payloads of a
// workflow's activities are stored for the workflow.
//
// NOTE: Experimental
type StorageDriverActivityInfo struct {
	// Namespace of the activity.
	Namespace string
	// ActivityType is the activity's type name.
	ActivityType string
	// ActivityID is the activity's ID.
	ActivityID string
	// RunID is the activity execution's run ID.
	RunID string
}

func (StorageDriverActivityInfo) storageTarget() {}

// StorageDriverLimiter bounds how many operations a driver runs at once.
// A driver runs each of its storage operations inside Permit; operations
// outside it are not limited. Permit must not be called from inside
// another Permit's function.
//
// NOTE: Experimental
type StorageDriverLimiter[T any] interface {
	// Permit waits for a free slot and runs fn in it, or returns
	// ctx.Err() when ctx ends first. item is the payload stored or the
	// claim retrieved.
	Permit(ctx context.Context, item T, fn func() error) error
}

// unlimited is the limiter of a context without one.
type unlimited[T any] struct{}

func (unlimited[T]) Permit(_ context.Context, _ T, fn func() error) error { return fn() }

// StorageDriverStoreContext is what StorageDriver.Store is given besides
// the payloads.
//
// NOTE: Experimental
type StorageDriverStoreContext struct {
	// Context is the sending operation's: its deadline and cancellation
	// apply to the driver's calls.
	Context context.Context
	// Target is the workflow or activity the payloads are stored for
	// (nil when the request does not name one).
	Target StorageDriverTargetInfo
	// Limiter bounds the driver's concurrent operations.
	Limiter StorageDriverLimiter[*commonpb.Payload]
}

// GetLimiter returns Limiter, or one that never waits when it is nil.
//
// NOTE: Experimental
func (c StorageDriverStoreContext) GetLimiter() StorageDriverLimiter[*commonpb.Payload] {
	if c.Limiter == nil {
		return unlimited[*commonpb.Payload]{}
	}
	return c.Limiter
}

// StorageDriverSelectContext is what StorageDriverSelector.SelectDriver
// is given besides the payload.
//
// NOTE: Experimental
type StorageDriverSelectContext struct {
	// Context is the sending operation's.
	Context context.Context
	// Target is the workflow or activity the payload would be stored for.
	Target StorageDriverTargetInfo
}

// StorageDriverRetrieveContext is what StorageDriver.Retrieve is given
// besides the claims. It names no workflow: a driver finds a payload from
// its claim alone.
//
// NOTE: Experimental
type StorageDriverRetrieveContext struct {
	// Context bounds the driver's calls.
	Context context.Context
	// Limiter bounds the driver's concurrent operations.
	Limiter StorageDriverLimiter[StorageDriverClaim]
}

// GetLimiter returns Limiter, or one that never waits when it is nil.
//
// NOTE: Experimental
func (c StorageDriverRetrieveContext) GetLimiter() StorageDriverLimiter[StorageDriverClaim] {
	if c.Limiter == nil {
		return unlimited[StorageDriverClaim]{}
	}
	return c.Limiter
}

// StorageDriverClaim is where a driver stored a payload, in the driver's
// own terms (a bucket and a key, say). It is written into the history in
// the payload's place and handed back to the driver's Retrieve.
//
// NOTE: Experimental
type StorageDriverClaim struct {
	// ClaimData is the driver's description of the stored payload.
	ClaimData map[string]string `json:"claim_data"`
}

// StorageDriver stores payloads outside the history and retrieves them.
//
// NOTE: Experimental
type StorageDriver interface {
	// Name identifies this driver among a client's drivers. It is
	// recorded with each claim, and a reader needs a driver of the same
	// name to retrieve the payload: do not rename a deployed driver.
	Name() string
	// Type names the driver's implementation, the same for all its
	// instances; a reader without the driver a reference names is told
	// which.
	Type() string
	// Store stores payloads and returns one claim for each, in order. It
	// must not change the payloads.
	Store(ctx StorageDriverStoreContext, payloads []*commonpb.Payload) ([]StorageDriverClaim, error)
	// Retrieve returns the payload of each claim, in order. It must not
	// change the claims.
	Retrieve(ctx StorageDriverRetrieveContext, claims []StorageDriverClaim) ([]*commonpb.Payload, error)
}

// StorageDriverSelector chooses the driver that stores a payload above the
// threshold, or nil to keep it in the history.
//
// NOTE: Experimental
type StorageDriverSelector interface {
	SelectDriver(ctx StorageDriverSelectContext, payload *commonpb.Payload) (StorageDriver, error)
}

// ExternalStorageConcurrency bounds the drivers' concurrent operations.
//
// NOTE: Experimental
type ExternalStorageConcurrency struct {
	// MaxDriverOperations bounds the operations of one client and its
	// workers together; 64 when zero.
	MaxDriverOperations int
	// MaxOperationsPerMessage bounds the operations for one request or
	// answer; 8 when zero.
	MaxOperationsPerMessage int
}

// ExternalStorage configures a client, its workers or a replayer to keep
// large payloads outside the history.
//
// NOTE: Experimental
type ExternalStorage struct {
	// Drivers are the drivers payloads are stored with and retrieved
	// from, each with its own Name. A reader needs every driver that
	// stored what it reads.
	Drivers []StorageDriver
	// DriverSelector picks a payload's driver; required with more than
	// one driver, Drivers[0] for every payload when nil.
	DriverSelector StorageDriverSelector
	// PayloadSizeThreshold is the size in bytes from which a payload is
	// stored outside; 256 KiB when zero, negative is an error.
	PayloadSizeThreshold int
	// Concurrency bounds the drivers' concurrent operations.
	Concurrency ExternalStorageConcurrency
}
