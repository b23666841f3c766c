package handler

import (
	"context"
	"fmt"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporalnexus"
	"github.com/durable-go/sdk/workflow"

	"github.com/temporalio/samples-go/nexus/service"
)

// If you want to map a workflow with multiple arguments to a nexus operation use NewWorkflowRunOperationWithOptions or MustNewWorkflowRunOperationWithOptions.
// See alternatives at https://pkg.go.dev/go.temporal.io/sdk/temporalnexus.
// @@@SNIPSTART  samples-go-nexus-handler-multiargs
var HelloOperation = temporalnexus.MustNewWorkflowRunOperationWithOptions(temporalnexus.WorkflowRunOperationOptions[service.HelloInput, service.HelloOutput]{
	Name: service.HelloOperationName,
	Handler: func(ctx context.Context, input service.HelloInput, options nexus.StartOperationOptions) (temporalnexus.WorkflowHandle[service.HelloOutput], error) {
		return temporalnexus.ExecuteUntypedWorkflow[service.HelloOutput](
			ctx,
			options,
			client.StartWorkflowOptions{
				// Workflow IDs should typically be business meaningful IDs and are used to dedupe workflow starts.
				// For this example, use a business ID derived from the greeting input so repeated operations
				// for the same name and language resolve to the same workflow.
				ID: service.HelloWorkflowID(input),
			},
			HelloHandlerWorkflow,
			input.Name,
			input.Language,
		)
	},
})

// @@@SNIPEND

func HelloHandlerWorkflow(ctx workflow.Context, name string, language service.Language) (service.HelloOutput, error) {
	switch language {
	case service.EN:
		return service.HelloOutput{Message: "Hello " + name + " 👋"}, nil
	case service.FR:
		return service.HelloOutput{Message: "Bonjour " + name + " 👋"}, nil
	case service.DE:
		return service.HelloOutput{Message: "Hallo " + name + " 👋"}, nil
	case service.ES:
		return service.HelloOutput{Message: "¡Hola! " + name + " 👋"}, nil
	case service.TR:
		return service.HelloOutput{Message: "Merhaba " + name + " 👋"}, nil
	}
	return service.HelloOutput{}, fmt.Errorf("unsupported language %q", language)
}
