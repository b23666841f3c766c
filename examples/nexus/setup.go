package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/client"
)

// createNamespaces registers the caller's and the handler's namespaces on
// the server at address, as `temporal operator namespace create` does,
// unless they exist already.
func createNamespaces(ctx context.Context, address string) error {
	namespaces, err := client.NewNamespaceClient(client.Options{HostPort: address})
	if err != nil {
		return err
	}
	defer namespaces.Close()
	for _, name := range []string{CallerNamespace, HandlerNamespace} {
		err := namespaces.Register(ctx, &workflowservice.RegisterNamespaceRequest{
			Namespace:                        name,
			WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour),
		})
		var exists *serviceerror.NamespaceAlreadyExists
		if err != nil && !errors.As(err, &exists) {
			return fmt.Errorf("creating namespace %s: %w", name, err)
		}
	}
	return nil
}

// createEndpoint creates the endpoint Endpoint, which sends the
// operations called through it to the handler's worker, as `temporal
// operator nexus endpoint create` does, unless one of that name exists
// already. c may be a client of any namespace: endpoints are the
// server's, not a namespace's.
func createEndpoint(ctx context.Context, c client.Client) error {
	_, err := c.OperatorService().CreateNexusEndpoint(ctx, &operatorservice.CreateNexusEndpointRequest{Spec: &nexuspb.EndpointSpec{
		Name: Endpoint,
		Target: &nexuspb.EndpointTarget{Variant: &nexuspb.EndpointTarget_Worker_{Worker: &nexuspb.EndpointTarget_Worker{
			Namespace: HandlerNamespace,
			TaskQueue: HandlerTaskQueue,
		}}},
	}})
	var exists *serviceerror.AlreadyExists
	if err != nil && !errors.As(err, &exists) {
		return fmt.Errorf("creating Nexus endpoint %s: %w", Endpoint, err)
	}
	return nil
}

// callBoth runs one caller workflow per operation through c, a client of
// the caller's namespace: EchoCallerWorkflow with message,
// HelloCallerWorkflow with name and language. It returns their results.
func callBoth(ctx context.Context, c client.Client, message, name string, language Language) (echo, hello string, err error) {
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "nexus-echo-caller", TaskQueue: CallerTaskQueue},
		EchoCallerWorkflow, message)
	if err != nil {
		return "", "", err
	}
	if err := run.Get(ctx, &echo); err != nil {
		return "", "", fmt.Errorf("echo: %w", err)
	}
	run, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "nexus-hello-caller", TaskQueue: CallerTaskQueue},
		HelloCallerWorkflow, name, language)
	if err != nil {
		return "", "", err
	}
	if err := run.Get(ctx, &hello); err != nil {
		return "", "", fmt.Errorf("hello: %w", err)
	}
	return echo, hello, nil
}
