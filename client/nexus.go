package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// Standalone Nexus operations: operations a client starts itself, outside
// any workflow, through an endpoint, and that the server drives to their
// end (Client.NewNexusClient). The server must allow them
// (nexusoperation.enableStandalone in its dynamic config). Workflows call
// operations with workflow.NexusClient instead.

// NexusClientOptions are the arguments of Client.NewNexusClient.
//
//   - Endpoint: the Nexus endpoint's name. Required.
//   - Service: the service's name. Required.
type NexusClientOptions = clientapi.NexusClientOptions

// NexusClient starts standalone Nexus operations of one endpoint's
// service; Client.NewNexusClient makes one. Its ExecuteOperation takes
// the operation (its name, or a typed nexus.OperationReference, whose
// input type must fit input), the input, and StartNexusOperationOptions,
// and returns the operation's handle once the server has accepted it.
//
//	nc, err := c.NewNexusClient(client.NexusClientOptions{Endpoint: "hello-endpoint", Service: "hello"})
//	...
//	h, err := nc.ExecuteOperation(ctx, "echo", "hi", client.StartNexusOperationOptions{ID: "echo-1"})
//	...
//	var out string
//	err = h.Get(ctx, &out)
type NexusClient = clientapi.NexusClient

// StartNexusOperationOptions are the options of
// NexusClient.ExecuteOperation.
//
//   - ID: the operation's ID in the namespace. Required.
//   - ScheduleToCloseTimeout: bounds the whole operation. Default: the
//     server's maximum. Must not be negative.
//   - ScheduleToStartTimeout: bounds the wait for the handler to start
//     (or, if synchronous, complete) it. Default: none.
//   - StartToCloseTimeout: bounds an asynchronous operation once started.
//     Default: none.
//   - IDConflictPolicy: when an operation with ID is running. Default:
//     the start fails.
//   - IDReusePolicy: whether ID may be reused once an operation with it
//     closed. Default: it may.
//   - SearchAttributes: attached to the operation, for
//     Client.ListNexusOperations and CountNexusOperations queries.
//   - Summary: a one-line summary shown in the UI and the CLI.
type StartNexusOperationOptions = clientapi.StartNexusOperationOptions

// NexusOperationHandle acts on one standalone Nexus operation: GetID and
// GetRunID say which; Get waits for it to close and decodes its result,
// or returns its failure (a *temporal.NexusOperationError, say); Describe
// returns its state; Cancel asks the handler to cancel it; Terminate ends
// it at once. NexusClient.ExecuteOperation and
// Client.GetNexusOperationHandle return one.
type NexusOperationHandle = clientapi.NexusOperationHandle

// GetNexusOperationHandleOptions are the arguments of
// Client.GetNexusOperationHandle.
//
//   - OperationID: the operation's ID. Required.
//   - RunID: one run of it. Default: its latest run.
type GetNexusOperationHandleOptions = clientapi.GetNexusOperationHandleOptions

// DescribeNexusOperationOptions are the options of
// NexusOperationHandle.Describe; it has no fields yet.
type DescribeNexusOperationOptions = clientapi.DescribeNexusOperationOptions

// CancelNexusOperationOptions are the options of
// NexusOperationHandle.Cancel.
//
//   - Reason: why, shown in the operation's description.
type CancelNexusOperationOptions = clientapi.CancelNexusOperationOptions

// TerminateNexusOperationOptions are the options of
// NexusOperationHandle.Terminate.
//
//   - Reason: why, shown in the operation's description.
type TerminateNexusOperationOptions = clientapi.TerminateNexusOperationOptions

// ListNexusOperationsOptions are the arguments of
// Client.ListNexusOperations.
//
//   - Query: a visibility query (https://docs.temporal.io/list-filter).
//     Default: every operation of the namespace.
type ListNexusOperationsOptions = clientapi.ListNexusOperationsOptions

// ListNexusOperationsResult is the answer of Client.ListNexusOperations.
//
//   - Results: the matching operations, each a *NexusOperationMetadata,
//     page after page as it is iterated; an error ends it.
type ListNexusOperationsResult = clientapi.ListNexusOperationsResult

// CountNexusOperationsOptions are the arguments of
// Client.CountNexusOperations.
//
//   - Query: a visibility query, which may group by a field (GROUP BY).
type CountNexusOperationsOptions = clientapi.CountNexusOperationsOptions

// CountNexusOperationsResult is the answer of Client.CountNexusOperations.
//
//   - Count: the approximate number of matching operations.
//   - Groups: the counts by group of a query with GROUP BY.
type CountNexusOperationsResult = clientapi.CountNexusOperationsResult

// CountNexusOperationsAggregationGroup is one group of a
// CountNexusOperationsResult.
//
//   - GroupValues: the values of the grouped-by fields.
//   - Count: the approximate number of operations in the group.
type CountNexusOperationsAggregationGroup = clientapi.CountNexusOperationsAggregationGroup

// NexusOperationMetadata is what visibility knows of a standalone Nexus
// operation: an element of Client.ListNexusOperations, and the common part
// of a NexusOperationExecutionDescription.
//
//   - RawExecutionListInfo: the server's list entry (nil in a
//     description).
//   - OperationID, OperationRunID: the operation's run.
//   - Endpoint, Service, Operation: what was called.
//   - ScheduledTime, CloseTime, ExecutionDuration: its times (the last
//     two once closed).
//   - Status: running, or how it closed.
//   - SearchAttributes: its typed search attributes.
//   - StateTransitionCount: how many times its state changed.
//
// In a description it is the embedded field ClientNexusOperationMetadata,
// as in go.temporal.io/sdk.
type NexusOperationMetadata = clientapi.ClientNexusOperationMetadata

// NexusOperationExecutionDescription is the answer of
// NexusOperationHandle.Describe: the NexusOperationMetadata (the embedded
// field ClientNexusOperationMetadata), and
//
//   - RawInfo: the server's description.
//   - State: a running operation's progress (scheduled, started,
//     backing off, blocked).
//   - ScheduleToCloseTimeout, ScheduleToStartTimeout,
//     StartToCloseTimeout: its timeouts.
//   - Attempt, LastAttemptCompleteTime, NextAttemptScheduleTime,
//     LastAttemptFailure, BlockedReason: the delivery of its start
//     request (GetLastAttemptFailure converts the failure).
//   - ExpirationTime: the scheduled time plus the schedule-to-close
//     timeout.
//   - OperationToken: the handler's token of an asynchronous operation.
//   - Identity: the identity of the client that started it.
//   - CancellationInfo: set once cancellation was requested.
//
// GetSummary decodes the summary given at the start.
type NexusOperationExecutionDescription = clientapi.NexusOperationExecutionDescription

// NexusOperationCancellationInfo is the state of a standalone Nexus
// operation's cancellation, in NexusOperationExecutionDescription.
//
//   - RawInfo: the server's information.
//   - RequestedTime: when cancellation was requested.
//   - State: how far the cancel request has gone.
//   - Attempt, LastAttemptCompleteTime, NextAttemptScheduleTime,
//     BlockedReason: its delivery (GetLastAttemptFailure converts the
//     last attempt's failure).
//   - Reason: the reason given to Cancel.
type NexusOperationCancellationInfo = clientapi.NexusOperationCancellationInfo
