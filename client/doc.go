// Package client starts, signals, queries, cancels, terminates and lists
// Temporal workflow executions, and completes activities asynchronously.
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
// Errors reported by the server are the typed errors of
// go.temporal.io/api/serviceerror, wrapped with what the client was doing;
// match them with errors.As. A workflow that fails, is canceled, terminated
// or times out makes WorkflowRun.Get return a
// *temporal.WorkflowExecutionError whose cause says which.
package client
