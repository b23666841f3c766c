package clientapi

import (
	"context"
	"iter"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	nexuspb "go.temporal.io/api/nexus/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/searchattr"
)

// The standalone Nexus operations of a client: operations started by the
// client itself, outside any workflow, that the server drives to their end
// (Client.NewNexusClient). They need a server with standalone Nexus
// operations enabled (nexusoperation.enableStandalone).

type (
	// NexusClientOptions are the arguments of Client.NewNexusClient.
	NexusClientOptions struct {
		// Endpoint is the name of the Nexus endpoint. Required.
		Endpoint string
		// Service is the name of the service behind it. Required.
		Service string
	}

	// StartNexusOperationOptions are the options of
	// NexusClient.ExecuteOperation.
	StartNexusOperationOptions struct {
		// ID identifies the operation in the namespace. Required.
		ID string
		// ScheduleToCloseTimeout bounds the operation from start to end;
		// the server's maximum when zero. Must not be negative.
		ScheduleToCloseTimeout time.Duration
		// ScheduleToStartTimeout bounds the wait for the handler to start
		// (or, if synchronous, complete) the operation; none when zero.
		ScheduleToStartTimeout time.Duration
		// StartToCloseTimeout bounds an asynchronous operation from its
		// start to its end; none when zero.
		StartToCloseTimeout time.Duration
		// IDConflictPolicy says what happens when an operation with ID is
		// running; the server fails the start when unspecified.
		IDConflictPolicy enumspb.NexusOperationIdConflictPolicy
		// IDReusePolicy says whether ID may be reused after an operation
		// with it closed; the server allows it when unspecified.
		IDReusePolicy enumspb.NexusOperationIdReusePolicy
		// SearchAttributes are attached to the operation, for List and
		// Count queries.
		SearchAttributes searchattr.SearchAttributes
		// Summary is a one-line summary shown in the UI and the CLI.
		Summary string
	}

	// GetNexusOperationHandleOptions are the arguments of
	// Client.GetNexusOperationHandle.
	GetNexusOperationHandleOptions struct {
		// OperationID is the operation's ID. Required.
		OperationID string
		// RunID selects one run of it; its latest when empty.
		RunID string
	}

	// DescribeNexusOperationOptions are the options of
	// NexusOperationHandle.Describe; there are none yet.
	DescribeNexusOperationOptions struct{}

	// CancelNexusOperationOptions are the options of
	// NexusOperationHandle.Cancel.
	CancelNexusOperationOptions struct {
		// Reason says why, for people reading the operation's description.
		Reason string
	}

	// TerminateNexusOperationOptions are the options of
	// NexusOperationHandle.Terminate.
	TerminateNexusOperationOptions struct {
		// Reason says why, for people reading the operation's description.
		Reason string
	}

	// ListNexusOperationsOptions are the arguments of
	// Client.ListNexusOperations.
	ListNexusOperationsOptions struct {
		// Query is a visibility query (https://docs.temporal.io/list-filter);
		// every operation of the namespace when empty.
		Query string
	}

	// ListNexusOperationsResult is the answer of Client.ListNexusOperations.
	ListNexusOperationsResult struct {
		// Results yields the matching operations, page after page, as it
		// is iterated; an error ends it.
		Results iter.Seq2[*ClientNexusOperationMetadata, error]
	}

	// CountNexusOperationsOptions are the arguments of
	// Client.CountNexusOperations.
	CountNexusOperationsOptions struct {
		// Query is a visibility query (https://docs.temporal.io/list-filter),
		// which may group by a field (GROUP BY).
		Query string
	}

	// CountNexusOperationsResult is the answer of
	// Client.CountNexusOperations.
	CountNexusOperationsResult struct {
		// Count is the approximate number of matching operations.
		Count int64
		// Groups are the counts by group of a query with GROUP BY.
		Groups []CountNexusOperationsAggregationGroup
	}

	// CountNexusOperationsAggregationGroup is one group of a
	// CountNexusOperationsResult.
	CountNexusOperationsAggregationGroup struct {
		// GroupValues are the values of the grouped-by fields.
		GroupValues []any
		// Count is the approximate number of operations in the group.
		Count int64
	}

	// ClientNexusOperationMetadata is what visibility knows of a standalone
	// Nexus operation: an element of ListNexusOperations, and the common
	// part of a NexusOperationExecutionDescription (client.
	// NexusOperationMetadata; named so that the embedded field has the
	// name go.temporal.io/sdk gives it).
	ClientNexusOperationMetadata struct {
		// RawExecutionListInfo is the server's entry this was read from;
		// nil in a description (see its RawInfo).
		RawExecutionListInfo *nexuspb.NexusOperationExecutionListInfo
		// OperationID and OperationRunID identify the operation's run.
		OperationID    string
		OperationRunID string
		// Endpoint, Service and Operation name what was called.
		Endpoint  string
		Service   string
		Operation string
		// ScheduledTime is when the operation was first scheduled.
		ScheduledTime time.Time
		// CloseTime is when it closed.
		CloseTime time.Time
		// Status says whether it runs or how it closed.
		Status enumspb.NexusOperationExecutionStatus
		// SearchAttributes are the operation's search attributes that
		// carry their type.
		SearchAttributes searchattr.SearchAttributes
		// StateTransitionCount counts the changes of its state.
		StateTransitionCount int64
		// ExecutionDuration is from scheduled to closed, once closed.
		ExecutionDuration time.Duration
	}

	// NexusOperationExecutionDescription is the answer of
	// NexusOperationHandle.Describe.
	NexusOperationExecutionDescription struct {
		ClientNexusOperationMetadata
		// RawInfo is the server's description this was read from.
		RawInfo *nexuspb.NexusOperationExecutionInfo
		// State details a running operation's progress.
		State enumspb.PendingNexusOperationState
		// ScheduleToCloseTimeout, ScheduleToStartTimeout and
		// StartToCloseTimeout are the operation's timeouts (older servers
		// may leave the last two out).
		ScheduleToCloseTimeout time.Duration
		ScheduleToStartTimeout time.Duration
		StartToCloseTimeout    time.Duration
		// Attempt counts the attempts to deliver the start request.
		Attempt int32
		// ExpirationTime is the scheduled time plus the schedule-to-close
		// timeout.
		ExpirationTime time.Time
		// LastAttemptCompleteTime and NextAttemptScheduleTime time the
		// attempts.
		LastAttemptCompleteTime time.Time
		NextAttemptScheduleTime time.Time
		// LastAttemptFailure is the last attempt's failure, still in wire
		// form; GetLastAttemptFailure converts it.
		LastAttemptFailure *failurepb.Failure
		// BlockedReason says why, when State is blocked.
		BlockedReason string
		// OperationToken is the handler's token of an asynchronous
		// operation, once started.
		OperationToken string
		// Identity is the identity of the client that started it.
		Identity string
		// CancellationInfo is set once cancellation has been requested.
		CancellationInfo *NexusOperationCancellationInfo

		dc      converter.DataConverter
		fc      converter.FailureConverter
		summary *commonpb.Payload
	}

	// NexusOperationCancellationInfo is the state of the cancellation of a
	// standalone Nexus operation.
	NexusOperationCancellationInfo struct {
		// RawInfo is the server's information this was read from.
		RawInfo *nexuspb.NexusOperationExecutionCancellationInfo
		// RequestedTime is when cancellation was requested.
		RequestedTime time.Time
		// State is how far the cancel request has gone.
		State enumspb.NexusOperationCancellationState
		// Attempt counts the attempts to deliver it.
		Attempt int32
		// LastAttemptCompleteTime and NextAttemptScheduleTime time them.
		LastAttemptCompleteTime time.Time
		NextAttemptScheduleTime time.Time
		// BlockedReason says why, when State is blocked.
		BlockedReason string
		// Reason is the reason given with the request.
		Reason string

		fc                 converter.FailureConverter
		lastAttemptFailure *failurepb.Failure
	}

	// NexusClient starts standalone Nexus operations of one endpoint's
	// service (Client.NewNexusClient). Workflows call operations with
	// workflow.NexusClient instead.
	NexusClient interface {
		// ExecuteOperation starts operation (its name, or a typed
		// reference such as nexus.OperationReference) with input and
		// returns its handle.
		ExecuteOperation(ctx context.Context, operation any, input any, options StartNexusOperationOptions) (NexusOperationHandle, error)
	}

	// NexusOperationHandle acts on one standalone Nexus operation.
	NexusOperationHandle interface {
		// GetID returns the operation's ID.
		GetID() string
		// GetRunID returns the run ID the handle was made with; empty for
		// a handle of the operation's latest run.
		GetRunID() string
		// Get waits for the operation to close and decodes its result into
		// valuePtr (nil ignores it), or returns its failure as an error.
		Get(ctx context.Context, valuePtr any) error
		// Describe returns the operation's current state.
		Describe(ctx context.Context, options DescribeNexusOperationOptions) (*NexusOperationExecutionDescription, error)
		// Cancel asks the handler to cancel the operation.
		Cancel(ctx context.Context, options CancelNexusOperationOptions) error
		// Terminate ends the operation at once, without asking the
		// handler.
		Terminate(ctx context.Context, options TerminateNexusOperationOptions) error
	}
)

// NewNexusOperationExecutionDescription is the description of an
// operation read from raw: dc decodes its summary, fc converts its
// failures. The client's Describe makes it; metadata and the exported
// fields come from raw.
func NewNexusOperationExecutionDescription(raw *nexuspb.NexusOperationExecutionInfo, metadata ClientNexusOperationMetadata,
	dc converter.DataConverter, fc converter.FailureConverter,
) *NexusOperationExecutionDescription {
	d := &NexusOperationExecutionDescription{
		ClientNexusOperationMetadata: metadata,
		RawInfo:                      raw,
		State:                        raw.GetState(),
		ScheduleToCloseTimeout:       raw.GetScheduleToCloseTimeout().AsDuration(),
		ScheduleToStartTimeout:       raw.GetScheduleToStartTimeout().AsDuration(),
		StartToCloseTimeout:          raw.GetStartToCloseTimeout().AsDuration(),
		Attempt:                      raw.GetAttempt(),
		ExpirationTime:               raw.GetExpirationTime().AsTime(),
		LastAttemptCompleteTime:      raw.GetLastAttemptCompleteTime().AsTime(),
		NextAttemptScheduleTime:      raw.GetNextAttemptScheduleTime().AsTime(),
		LastAttemptFailure:           raw.GetLastAttemptFailure(),
		BlockedReason:                raw.GetBlockedReason(),
		OperationToken:               raw.GetOperationToken(),
		Identity:                     raw.GetIdentity(),
		dc:                           dc,
		fc:                           fc,
		summary:                      raw.GetUserMetadata().GetSummary(),
	}
	if ci := raw.GetCancellationInfo(); ci != nil {
		d.CancellationInfo = &NexusOperationCancellationInfo{
			RawInfo:                 ci,
			RequestedTime:           ci.GetRequestedTime().AsTime(),
			State:                   ci.GetState(),
			Attempt:                 ci.GetAttempt(),
			LastAttemptCompleteTime: ci.GetLastAttemptCompleteTime().AsTime(),
			NextAttemptScheduleTime: ci.GetNextAttemptScheduleTime().AsTime(),
			BlockedReason:           ci.GetBlockedReason(),
			Reason:                  ci.GetReason(),
			fc:                      fc,
			lastAttemptFailure:      ci.GetLastAttemptFailure(),
		}
	}
	return d
}

// GetSummary decodes the summary given at the start; "" if none.
func (d *NexusOperationExecutionDescription) GetSummary() (string, error) {
	return decodeOptionalString(d.dc, d.summary)
}

// GetLastAttemptFailure converts LastAttemptFailure to an error with the
// describing client's failure converter; nil if there is none.
func (d *NexusOperationExecutionDescription) GetLastAttemptFailure() error {
	return failureOrNil(d.fc, d.LastAttemptFailure)
}

// GetLastAttemptFailure converts the last failure of delivering the
// cancel request to an error; nil if there is none.
func (c *NexusOperationCancellationInfo) GetLastAttemptFailure() error {
	return failureOrNil(c.fc, c.lastAttemptFailure)
}

func failureOrNil(fc converter.FailureConverter, f *failurepb.Failure) error {
	if f == nil {
		return nil
	}
	if fc == nil { // a description made by hand rather than by Describe
		fc = failure.GetDefaultFailureConverter()
	}
	return fc.FailureToError(f)
}
