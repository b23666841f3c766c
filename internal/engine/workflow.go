package engine

import (
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"

	"github.com/durable-go/sdk/log"
)

// Workflow is one run of workflow code as the engine drives it. Package
// internal implements it on top of the coroutine dispatcher.
type Workflow interface {
	// Start prepares the root coroutine with the run's input; it does not
	// run it. It is called at the WorkflowExecutionStarted event.
	Start(x *Run, started *historypb.WorkflowExecutionStartedEventAttributes) error
	// Run resumes coroutines until every one is blocked or done. A panic in
	// workflow code comes back as an error that implements Panicked; a
	// coroutine that does not yield in time as a deadlock error.
	Run() error
	// Signal delivers a signal; it is buffered until the code reads it. An
	// error (a full buffer) fails the workflow task.
	Signal(name string, input *commonpb.Payloads, header *commonpb.Header) error
	// Cancel delivers the request to cancel the workflow to its root context.
	Cancel()
	// Update delivers an update request, before the task's code runs; the
	// code answers it through u.
	Update(u *Update)
	// Query runs a query handler against the current state.
	Query(name string, args *commonpb.Payloads, header *commonpb.Header) (*commonpb.Payloads, error)
	// StackTrace renders every coroutine's stack, for __stack_trace.
	StackTrace() string
	// Close unwinds every coroutine; the Workflow is not used again.
	Close()
}

// Panicked is implemented by the error Run returns for a panic in workflow
// code, so that WorkflowPanicPolicy can tell it from other failures.
type Panicked interface {
	error
	PanicValue() any
	PanicStack() string
}

// Factory makes the Workflow for a workflow type, or explains why it
// cannot (an unregistered type, say).
type Factory func(workflowType string) (Workflow, error)

// PayloadConverter is the part of converter.DataConverter the engine uses.
type PayloadConverter interface {
	ToPayload(value any) (*commonpb.Payload, error)
	ToPayloads(value ...any) (*commonpb.Payloads, error)
	FromPayloads(payloads *commonpb.Payloads, valuePtrs ...any) error
}

// FailureConverter is converter.FailureConverter.
type FailureConverter interface {
	ErrorToFailure(err error) *failurepb.Failure
	FailureToError(failure *failurepb.Failure) error
}

// Options configure every Run a worker or replayer runs.
type Options struct {
	Namespace string
	// DataConverter encodes marker details; it is the worker's converter.
	DataConverter PayloadConverter
	// FailureConverter turns command failures into Go errors and back.
	FailureConverter FailureConverter
	Logger           log.Logger
	// FailWorkflowOnPanic fails the workflow when its code panics; by
	// default the workflow task fails and is retried, blocking the
	// workflow until fixed code is deployed.
	FailWorkflowOnPanic bool
	// SDKMetadataSupported says the server records SDK flags; when false,
	// no new flag is used.
	SDKMetadataSupported bool
	NewWorkflow          Factory
	// LocateCode, when set, returns the file:line of the workflow code
	// that is calling into the engine; errors about a command or call
	// then say where the code made it. It walks the stack at every
	// command, so the replayer sets it only to explain a mismatch.
	LocateCode func() string
	// Now is the worker's clock, which tells the workflow time at which a
	// local activity ended; time.Now when nil (the test environment's
	// clock runs ahead).
	Now func() time.Time
	// Names, when set, keeps one copy of the task queue and workflow type
	// names of the runs made with these Options (see Names).
	Names *Names
}

func (o *Options) clock() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// Close is how workflow code ended: exactly one of the fields applies.
type Close struct {
	// Result is the result of a workflow that returned normally.
	Result *commonpb.Payloads
	// Err is the error the workflow returned (it fails the workflow).
	Err error
	// FailureConverter converts Err when not nil; the run's otherwise. A
	// workflow a Nexus operation started converts its failure with the
	// operation's serialization context, as its caller reads it.
	FailureConverter FailureConverter
	// Canceled: the workflow returned a cancellation after its cancel was
	// requested; Details are the canceled error's details.
	Canceled bool
	Details  *commonpb.Payloads
	// ContinueAsNew: the workflow asked to continue as a new run.
	ContinueAsNew *commandpb.ContinueAsNewWorkflowExecutionCommandAttributes
	// ContinueAsNewGroups are the event group markers of the
	// ContinueAsNew command (see SetEventGroups).
	ContinueAsNewGroups []*sdkpb.EventGroupMarker
}

// Info is what the engine knows of the run, for workflow.GetInfo. It
// keeps what the engine needs of the start event, not the event itself:
// a cached run should not hold its first poll response's events.
type Info struct {
	Namespace     string
	TaskQueue     string
	WorkflowID    string
	RunID         string
	WorkflowType  string
	OriginalRunID string
	// CurrentRunID seeds what the run names and draws for itself (default
	// child workflow IDs, workflow.GetRandomStream): the original run ID
	// or, once the history shows the run was reset, the ID of the run the
	// reset made, as go.temporal.io/sdk keeps it. A reset run's history
	// starts with its base run's events, so without this its new children
	// would get the base run's child IDs.
	CurrentRunID string
	// WorkflowTaskTimeout is the timeout of the run's workflow tasks.
	WorkflowTaskTimeout time.Duration
	// LastCompletionResult and ContinuedFailure are what the previous run
	// of a retried, cron or continued workflow left.
	LastCompletionResult *commonpb.Payloads
	ContinuedFailure     *failurepb.Failure
	StartedTime          time.Time
	// TaskStarted is what the WorkflowTaskStarted of the task the code
	// runs in says.
	TaskStarted TaskStarted
}

// TaskStarted is what a WorkflowTaskStarted event says of the run.
type TaskStarted struct {
	HistorySizeBytes                     int64
	SuggestContinueAsNew                 bool
	SuggestContinueAsNewReasons          []enumspb.SuggestContinueAsNewReason
	TargetWorkerDeploymentVersionChanged bool
	// RecordedBinaryChecksum is the binary checksum the task's
	// WorkflowTaskCompleted recorded, when the task is replayed; "" for a
	// live task, or if the worker that completed it sent none.
	RecordedBinaryChecksum string
	// RecordedBuildID is, when BuildIDRecorded, the build ID that
	// go.temporal.io/sdk's GetCurrentBuildID reports instead of the
	// worker's: for a replayed task, the one the last WorkflowTaskCompleted
	// before it recorded (the task before it); for a live task after
	// replayed ones in the same workflow task, the last replayed task's.
	RecordedBuildID string
	BuildIDRecorded bool
}
