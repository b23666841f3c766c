package internal

import (
	"fmt"
	"strings"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/wfsync"
)

// NexusOperationCancellationType says what canceling the context of a
// Nexus operation does (workflow.NexusOperationCancellationType).
type NexusOperationCancellationType int

const (
	// NexusOperationCancellationTypeUnspecified means the default,
	// NexusOperationCancellationTypeWaitCompleted.
	NexusOperationCancellationTypeUnspecified NexusOperationCancellationType = iota
	// NexusOperationCancellationTypeAbandon sends no cancel request: the
	// operation's future fails at once with a CanceledError, and the
	// operation goes on.
	NexusOperationCancellationTypeAbandon
	// NexusOperationCancellationTypeTryCancel sends a cancel request and
	// fails the future with a CanceledError once history records the
	// request, whether or not the handler gets it.
	NexusOperationCancellationTypeTryCancel
	// NexusOperationCancellationTypeWaitRequested sends a cancel request
	// and fails the future once the handler received it (with a
	// CanceledError), or the request failed (with its error).
	NexusOperationCancellationTypeWaitRequested
	// NexusOperationCancellationTypeWaitCompleted sends a cancel request
	// and waits for the operation to end, however it ends. The default.
	NexusOperationCancellationTypeWaitCompleted
)

// NexusOperationOptions configure a Nexus operation a workflow starts.
type NexusOperationOptions struct {
	// ScheduleToCloseTimeout bounds the whole operation; the server's
	// maximum when zero.
	ScheduleToCloseTimeout time.Duration
	// ScheduleToStartTimeout bounds the wait for the handler to start (or
	// complete) the operation; none when zero. Server 1.31 or later.
	ScheduleToStartTimeout time.Duration
	// StartToCloseTimeout bounds an asynchronous operation once it
	// started; none when zero. Server 1.31 or later.
	StartToCloseTimeout time.Duration
	// CancellationType says what canceling the context does;
	// NexusOperationCancellationTypeWaitCompleted by default.
	CancellationType NexusOperationCancellationType
	// Summary is shown in the UI and the CLI for the operation.
	Summary string
	// EventGroups are groups the operation's commands belong to, besides
	// the context's (see WithEventGroups).
	EventGroups []EventGroup
}

// NexusOperationExecution is the value of
// NexusOperationFuture.GetNexusOperationExecution.
type NexusOperationExecution struct {
	// OperationToken is the token the handler gave when it started the
	// operation asynchronously; empty when it completed synchronously.
	OperationToken string
}

// NexusOperationFuture is the future of a Nexus operation's result.
type NexusOperationFuture interface {
	Future
	// GetNexusOperationExecution returns a future that is ready when the
	// operation started (its NexusOperationExecution has the token), or
	// when it ended synchronously or failed (with the same error as the
	// operation's future).
	GetNexusOperationExecution() Future
}

// NexusClient starts Nexus operations of one service, behind one endpoint,
// from a workflow.
type NexusClient interface {
	// Endpoint is the endpoint's name.
	Endpoint() string
	// Service is the service's name.
	Service() string
	// ExecuteOperation starts operation (its name, or a nexus.Operation or
	// nexus.OperationReference) with input and returns the future of its
	// result.
	ExecuteOperation(ctx Context, operation any, input any, options NexusOperationOptions) NexusOperationFuture
}

// ExecuteNexusOperationInput is the input of
// WorkflowOutboundInterceptor.ExecuteNexusOperation.
type ExecuteNexusOperationInput struct {
	// Client is the client the workflow called.
	Client NexusClient
	// Operation is the operation: its name, or a nexus.Operation or
	// nexus.OperationReference.
	Operation any
	// Input is the operation's input, not yet encoded.
	Input any
	// Options are the operation's options.
	Options NexusOperationOptions
	// NexusHeader goes to the handler with the request: interceptors
	// write to it.
	NexusHeader nexus.Header
}

// RequestCancelNexusOperationInput is the input of
// WorkflowOutboundInterceptor.RequestCancelNexusOperation.
type RequestCancelNexusOperationInput struct {
	// Client is the client that started the operation.
	Client NexusClient
	// Operation is the operation as the workflow named it.
	Operation any
	// Token is the operation's token; empty when it has not started
	// asynchronously yet.
	Token string

	op *commands.NexusOperation
}

// nexusReservedPrefix starts the names the server keeps for itself.
const nexusReservedPrefix = "__temporal_"

type nexusClient struct{ endpoint, service string }

// NewNexusClient returns a client for the operations of service behind
// endpoint. It panics when either is empty or uses the server's reserved
// "__temporal_" prefix, as go.temporal.io/sdk does.
func NewNexusClient(endpoint, service string) NexusClient {
	switch {
	case endpoint == "":
		panic("endpoint must not be empty")
	case service == "":
		panic("service must not be empty")
	case strings.HasPrefix(endpoint, nexusReservedPrefix):
		panic("endpoint cannot use reserved __temporal_ prefix")
	case strings.HasPrefix(service, nexusReservedPrefix):
		panic("service cannot use reserved __temporal_ prefix")
	}
	return nexusClient{endpoint: endpoint, service: service}
}

func (c nexusClient) Endpoint() string { return c.endpoint }

func (c nexusClient) Service() string { return c.service }

func (c nexusClient) ExecuteOperation(ctx Context, operation any, input any, options NexusOperationOptions) NexusOperationFuture {
	in := ExecuteNexusOperationInput{Client: c, Operation: operation, Input: input, Options: options, NexusHeader: nexus.Header{}}
	r := runOf(ctx)
	if !r.intercepted {
		return r.executeNexusOperation(ctx, in)
	}
	return r.outbound.ExecuteNexusOperation(ctx, in)
}

// nexusFuture is an operation's result future with its execution future.
type nexusFuture struct {
	*wfsync.SettableFuture
	execution *wfsync.SettableFuture
}

func (f *nexusFuture) GetNexusOperationExecution() Future { return f.execution }

// fail sets both futures (the execution's unless it is set) to err.
func (f *nexusFuture) fail(err error) {
	if !f.execution.IsReady() {
		f.execution.Set(nil, err)
	}
	f.Set(nil, err)
}

// nexusCancelResolution is when a canceled operation of cancellation type
// t resolves (Abandon never asks the machine).
func nexusCancelResolution(t NexusOperationCancellationType) commands.NexusCancelResolution {
	switch t {
	case NexusOperationCancellationTypeTryCancel:
		return commands.NexusResolveOnCancelRecorded
	case NexusOperationCancellationTypeWaitRequested:
		return commands.NexusResolveOnCancelDelivered
	}
	return commands.NexusResolveOnClose
}

// executeNexusOperation schedules the operation: ExecuteNexusOperation at
// the end of the interceptor chain.
func (r *workflowRun) executeNexusOperation(ctx Context, in ExecuteNexusOperationInput) NexusOperationFuture {
	f := &nexusFuture{SettableFuture: &wfsync.SettableFuture{}, execution: &wfsync.SettableFuture{}}
	if err := ctx.Err(); err != nil {
		f.fail(err) // a canceled context starts nothing, as go.temporal.io/sdk
		return f
	}
	name, err := clientapi.NexusOperationName(in.Operation, in.Input)
	if err != nil {
		f.fail(err)
		return f
	}
	dc, fc := r.nexusConverters(ctx, in.Client, name, in.Input)
	input, err := dc.ToPayload(in.Input)
	if err != nil {
		err = fmt.Errorf("ExecuteOperation(%s): encoding the input: %w", name, err)
		codecfail.FailTask(err)
		f.fail(err)
		return f
	}
	cancellation := in.Options.CancellationType
	if cancellation == NexusOperationCancellationTypeUnspecified {
		cancellation = NexusOperationCancellationTypeWaitCompleted
	}
	attrs := &commandpb.ScheduleNexusOperationCommandAttributes{
		Endpoint:               in.Client.Endpoint(),
		Service:                in.Client.Service(),
		Operation:              name,
		Input:                  input,
		ScheduleToCloseTimeout: durationpb.New(in.Options.ScheduleToCloseTimeout),
		ScheduleToStartTimeout: durationpb.New(in.Options.ScheduleToStartTimeout),
		StartToCloseTimeout:    durationpb.New(in.Options.StartToCloseTimeout),
		NexusHeader:            in.NexusHeader,
	}
	if markers := r.eventGroupMarkers(ctx, in.Options.EventGroups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	op, err := r.exec.ScheduleNexusOperation(attrs, in.Options.Summary, nexusCancelResolution(cancellation), fc,
		func(token string) { f.execution.Set(NexusOperationExecution{OperationToken: token}, nil) },
		func(result *commonpb.Payloads, err error) {
			if !f.execution.IsReady() {
				f.execution.Set(NexusOperationExecution{}, err)
			}
			if err != nil {
				f.Set(nil, err)
				return
			}
			f.Set(failure.NewCallResult(result, dc, "Nexus operation", name), nil)
		})
	if err != nil {
		f.fail(fmt.Errorf("ExecuteOperation(%s): %w", name, err))
		return f
	}
	wfsync.OnCancel(ctx, f.SettableFuture, func() {
		if cancellation == NexusOperationCancellationTypeAbandon {
			// No cancel request: the code stops waiting, the operation
			// goes on.
			op.Abandon()
			f.fail(ErrCanceled)
			return
		}
		cancel := RequestCancelNexusOperationInput{Client: in.Client, Operation: in.Operation, Token: op.Token(), op: op}
		if !r.intercepted {
			r.requestCancelNexusOperation(cancel)
			return
		}
		r.outbound.RequestCancelNexusOperation(ctx, cancel)
	})
	return f
}

// requestCancelNexusOperation cancels the operation:
// RequestCancelNexusOperation at the end of the interceptor chain.
func (r *workflowRun) requestCancelNexusOperation(in RequestCancelNexusOperationInput) {
	if in.op != nil {
		in.op.Cancel()
	}
}

func (w *workflowRoot) ExecuteNexusOperation(ctx Context, input ExecuteNexusOperationInput) NexusOperationFuture {
	return w.run.executeNexusOperation(ctx, input)
}

func (w *workflowRoot) RequestCancelNexusOperation(_ Context, input RequestCancelNexusOperationInput) {
	w.run.requestCancelNexusOperation(input)
}
