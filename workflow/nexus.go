package workflow

import "github.com/durable-go/sdk/internal"

// NexusClient starts the operations of one Nexus service, behind one
// endpoint, from a workflow. Make one with NewNexusClient. (For Nexus
// operations outside workflows, client.NexusClient is the one to use, once
// this SDK has it.)
type NexusClient interface {
	// Endpoint is the endpoint's name.
	Endpoint() string
	// Service is the service's name.
	Service() string
	// ExecuteOperation starts an operation of the service with input and
	// returns the future of its result. operation is the operation's name,
	// a nexus.Operation or a nexus.OperationReference (whose input type
	// input must fit). If the operation fails, is canceled or times out,
	// the future's error is a *temporal.NexusOperationError whose cause
	// says why (an ApplicationError, a CanceledError, a TimeoutError, or a
	// *nexus.HandlerError when the handler refused the request).
	// Canceling ctx cancels the operation as options.CancellationType
	// says.
	ExecuteOperation(ctx Context, operation any, input any, options NexusOperationOptions) NexusOperationFuture
}

// NewNexusClient returns a NexusClient for the operations of service
// behind endpoint (an endpoint created on the server, for example with
// `temporal operator nexus endpoint create`). It panics when either name
// is empty or starts with the server's reserved "__temporal_" prefix.
func NewNexusClient(endpoint, service string) NexusClient {
	return internal.NewNexusClient(endpoint, service)
}

// NexusOperationOptions configure a Nexus operation that a workflow
// starts with NexusClient.ExecuteOperation.
//
//   - ScheduleToCloseTimeout: the most time the whole operation may take.
//     Zero: the server's maximum.
//   - ScheduleToStartTimeout: the most time the handler may take to start
//     (or complete) it. Zero: no limit. Server 1.31 or later.
//   - StartToCloseTimeout: the most time an asynchronous operation may
//     take once started. Zero: no limit. Server 1.31 or later.
//   - CancellationType: what canceling the operation's context does.
//     Default: NexusOperationCancellationTypeWaitCompleted.
//   - Summary: a one-line summary the UI and the CLI show for it.
//   - EventGroups: groups its commands belong to, besides the context's
//     (WithEventGroups).
type NexusOperationOptions = internal.NexusOperationOptions

// NexusOperationFuture is the future of a Nexus operation's result: Get
// waits for it and decodes it, IsReady says whether it is known. Its
// GetNexusOperationExecution returns a future that is ready when the
// operation started asynchronously (its NexusOperationExecution has the
// operation token), or when it ended synchronously or failed (then with
// the operation's error).
type NexusOperationFuture = internal.NexusOperationFuture

// NexusOperationExecution is the value of
// NexusOperationFuture.GetNexusOperationExecution: OperationToken, the
// operation's token, empty when it completed synchronously.
type NexusOperationExecution = internal.NexusOperationExecution

// NexusOperationCancellationType says what canceling the context of a
// Nexus operation does.
type NexusOperationCancellationType = internal.NexusOperationCancellationType

const (
	// NexusOperationCancellationTypeUnspecified means the default,
	// NexusOperationCancellationTypeWaitCompleted.
	NexusOperationCancellationTypeUnspecified NexusOperationCancellationType = internal.NexusOperationCancellationTypeUnspecified
	// NexusOperationCancellationTypeAbandon sends no cancel request: the
	// future fails at once with a CanceledError and the operation goes on.
	NexusOperationCancellationTypeAbandon NexusOperationCancellationType = internal.NexusOperationCancellationTypeAbandon
	// NexusOperationCancellationTypeTryCancel sends a cancel request and
	// fails the future with a CanceledError once history records it,
	// whether or not the handler receives it.
	NexusOperationCancellationTypeTryCancel NexusOperationCancellationType = internal.NexusOperationCancellationTypeTryCancel
	// NexusOperationCancellationTypeWaitRequested sends a cancel request
	// and fails the future once the handler received it (with a
	// CanceledError) or the request failed (with its error).
	NexusOperationCancellationTypeWaitRequested NexusOperationCancellationType = internal.NexusOperationCancellationTypeWaitRequested
	// NexusOperationCancellationTypeWaitCompleted sends a cancel request
	// and waits for the operation to end, however it ends. The default.
	NexusOperationCancellationTypeWaitCompleted NexusOperationCancellationType = internal.NexusOperationCancellationTypeWaitCompleted
)
