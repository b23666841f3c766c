package interceptor

import "github.com/durable-go/sdk/internal"

type (
	// ClientUpdateWorkflowInput is the input of
	// ClientOutboundInterceptor.UpdateWorkflow.
	ClientUpdateWorkflowInput = internal.ClientUpdateWorkflowInput
	// ClientUpdateWithStartWorkflowInput is the input of
	// ClientOutboundInterceptor.UpdateWithStartWorkflow.
	ClientUpdateWithStartWorkflowInput = internal.ClientUpdateWithStartWorkflowInput
)
