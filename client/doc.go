// Package client starts, signals, queries, updates, cancels, terminates and
// lists Temporal workflow executions, and completes activities
// asynchronously.
// Its names and signatures match go.temporal.io/sdk/client, so code written
// for that package works with this one once the import path is changed.
//
// Connect once per process and namespace, and share the client:
//
//	c, err := client.Dial(client.Options{HostPort: "localhost:7233"})
//	if err != nil {
//		return err
//	}
//	defer c.Close()
//
//	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
//		ID:        "order-42",
//		TaskQueue: "orders",
//	}, ProcessOrder, order)
//	if err != nil {
//		return err
//	}
//	var receipt Receipt
//	err = run.Get(ctx, &receipt) // waits for the workflow to close
//
// An update changes a running workflow and answers. UpdateWorkflow returns
// once the update has reached the stage asked for, and its handle's Get
// returns the handler's result, or the error of its validator or handler;
// UpdateWithStartWorkflow starts the workflow first if it is not running:
//
//	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
//		WorkflowID:   "order-42",
//		UpdateName:   "addItem",
//		Args:         []any{item},
//		WaitForStage: client.WorkflowUpdateStageCompleted,
//	})
//	if err != nil {
//		return err
//	}
//	var total int
//	err = handle.Get(ctx, &total)
//
// A library hands its users one Plugin instead of interceptors, converters
// and registrations to wire up; temporal.NewSimplePlugin makes one. Given
// to the client, a plugin that is also a worker.Plugin configures the
// workers made from the client too:
//
//	plugin, err := temporal.NewSimplePlugin(temporal.SimplePluginOptions{
//		Name:               "acme-encryption",
//		DataConverter:      encryptingConverter,
//		ClientInterceptors: []interceptor.ClientInterceptor{auditInterceptor},
//	})
//	c, err := client.Dial(client.Options{Plugins: []client.Plugin{plugin}})
//
// Errors reported by the server are the typed errors of
// go.temporal.io/api/serviceerror, wrapped with what the client was doing;
// match them with errors.As. A workflow that fails, is canceled, terminated
// or times out makes WorkflowRun.Get return a
// *temporal.WorkflowExecutionError whose cause says which.
package client
