// Package interceptor lets code run around what clients, workflows and
// activities do: to add headers, log, trace or check calls.
//
// A ClientInterceptor wraps a client's workflow calls (put it in
// client.Options.Interceptors); a WorkerInterceptor wraps the workflows and
// activities a worker runs (worker.Options.Interceptors, or
// worker.WorkflowReplayerOptions.Interceptors for replays). An Interceptor
// is both: given to a client, it also applies to the workers made from it.
//
// Each intercepted call goes down a chain: the first interceptor of the
// list is called first and passes the call on to the next (the Next field
// of the Base structs), and the SDK's own implementation ends the chain.
// Inbound interceptors see what arrives (a workflow's start, signals and
// queries; an activity's execution); their Init gets the outbound
// interceptor that the code's own calls go to (the workflow and activity
// package functions), and may wrap it.
//
// Implementations embed the matching Base struct, which passes every
// call on, and override what they need. Workflow interceptors run as
// workflow code: they must be deterministic.
//
// Headers carry data next to a call's arguments: Header returns the header
// of a client call or of an activity's execution, WorkflowHeader the header
// of a workflow's start, signal or query, or of an activity it schedules.
package interceptor

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/workflow"
)

type (
	// Interceptor intercepts clients and the workers made from them.
	Interceptor = internal.Interceptor
	// InterceptorBase intercepts nothing; embed it in an Interceptor.
	InterceptorBase = internal.InterceptorBase

	// WorkerInterceptor wraps the workflows and activities of a worker.
	WorkerInterceptor = internal.WorkerInterceptor
	// WorkerInterceptorBase intercepts nothing; embed it in a
	// WorkerInterceptor.
	WorkerInterceptorBase = internal.WorkerInterceptorBase

	// ActivityInboundInterceptor sees an activity's execution.
	ActivityInboundInterceptor = internal.ActivityInboundInterceptor
	// ActivityInboundInterceptorBase passes every call on to Next.
	ActivityInboundInterceptorBase = internal.ActivityInboundInterceptorBase
	// ExecuteActivityInput is the input of
	// ActivityInboundInterceptor.ExecuteActivity.
	ExecuteActivityInput = internal.ExecuteActivityInput
	// ActivityOutboundInterceptor sees the activity package calls of
	// activity code.
	ActivityOutboundInterceptor = internal.ActivityOutboundInterceptor
	// ActivityOutboundInterceptorBase passes every call on to Next.
	ActivityOutboundInterceptorBase = internal.ActivityOutboundInterceptorBase

	// WorkflowInboundInterceptor sees a workflow's start, signals and
	// queries.
	WorkflowInboundInterceptor = internal.WorkflowInboundInterceptor
	// WorkflowInboundInterceptorBase passes every call on to Next.
	WorkflowInboundInterceptorBase = internal.WorkflowInboundInterceptorBase
	// ExecuteWorkflowInput is the input of
	// WorkflowInboundInterceptor.ExecuteWorkflow.
	ExecuteWorkflowInput = internal.ExecuteWorkflowInput
	// HandleSignalInput is the input of WorkflowInboundInterceptor.HandleSignal.
	HandleSignalInput = internal.HandleSignalInput
	// HandleQueryInput is the input of WorkflowInboundInterceptor.HandleQuery.
	HandleQueryInput = internal.HandleQueryInput
	// UpdateInput is the input of ValidateUpdate and ExecuteUpdate.
	UpdateInput = internal.UpdateInput
	// WorkflowOutboundInterceptor sees the workflow package calls of
	// workflow code.
	WorkflowOutboundInterceptor = internal.WorkflowOutboundInterceptor
	// WorkflowOutboundInterceptorBase passes every call on to Next.
	WorkflowOutboundInterceptorBase = internal.WorkflowOutboundInterceptorBase

	// ClientInterceptor wraps a client's calls.
	ClientInterceptor = internal.ClientInterceptor
	// ClientInterceptorBase intercepts nothing; embed it in a
	// ClientInterceptor.
	ClientInterceptorBase = internal.ClientInterceptorBase
	// ClientOutboundInterceptor sees a client's workflow calls.
	ClientOutboundInterceptor = internal.ClientOutboundInterceptor
	// ClientOutboundInterceptorBase passes every call on to Next.
	ClientOutboundInterceptorBase = internal.ClientOutboundInterceptorBase
	// ClientExecuteWorkflowInput is the input of
	// ClientOutboundInterceptor.ExecuteWorkflow.
	ClientExecuteWorkflowInput = internal.ClientExecuteWorkflowInput
	// ClientSignalWorkflowInput is the input of
	// ClientOutboundInterceptor.SignalWorkflow.
	ClientSignalWorkflowInput = internal.ClientSignalWorkflowInput
	// ClientSignalWithStartWorkflowInput is the input of
	// ClientOutboundInterceptor.SignalWithStartWorkflow.
	ClientSignalWithStartWorkflowInput = internal.ClientSignalWithStartWorkflowInput
	// ClientCancelWorkflowInput is the input of
	// ClientOutboundInterceptor.CancelWorkflow.
	ClientCancelWorkflowInput = internal.ClientCancelWorkflowInput
	// ClientTerminateWorkflowInput is the input of
	// ClientOutboundInterceptor.TerminateWorkflow.
	ClientTerminateWorkflowInput = internal.ClientTerminateWorkflowInput
	// ClientQueryWorkflowInput is the input of
	// ClientOutboundInterceptor.QueryWorkflow.
	ClientQueryWorkflowInput = internal.ClientQueryWorkflowInput
	// ClientDescribeWorkflowInput is the input of
	// ClientOutboundInterceptor.DescribeWorkflow.
	ClientDescribeWorkflowInput = internal.ClientDescribeWorkflowInput
	// ClientDescribeWorkflowOutput is the result of
	// ClientOutboundInterceptor.DescribeWorkflow.
	ClientDescribeWorkflowOutput = internal.ClientDescribeWorkflowOutput

	// ScheduleClientCreateInput is the input of
	// ClientOutboundInterceptor.CreateSchedule.
	ScheduleClientCreateInput = internal.ScheduleClientCreateInput
)

// Header returns the header of the call ctx belongs to, to read or write:
// in a client interceptor's ExecuteWorkflow, SignalWorkflow,
// SignalWithStartWorkflow, QueryWorkflow, UpdateWorkflow and
// UpdateWithStartWorkflow (the header sent), and in an
// activity inbound interceptor's ExecuteActivity (the header received).
// It is nil elsewhere.
func Header(ctx context.Context) map[string]*commonpb.Payload { return internal.Header(ctx) }

// WorkflowHeader returns the header of the workflow call ctx belongs to,
// to read or write: in a workflow inbound interceptor's ExecuteWorkflow,
// HandleSignal and HandleQuery (the header received), and in a workflow
// outbound interceptor's ExecuteActivity and NewContinueAsNewError (the
// header sent). It is nil elsewhere.
func WorkflowHeader(ctx workflow.Context) map[string]*commonpb.Payload {
	return internal.WorkflowHeader(ctx)
}
