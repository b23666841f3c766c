package testenv

import "github.com/durable-go/sdk/converter"

// workflowConverters are the environment's converters told the
// serialization context of the workflow with workflowID: what the test
// sends a workflow (its input, signals, queries, updates) and reads of it
// (results, query answers, failures) is converted with them, as a client
// converts it, and as go.temporal.io/sdk's test environment converts what
// it sends its workflow. Converters that take no context are returned as
// they are.
func (e *TestWorkflowEnvironment) workflowConverters(workflowID string) (converter.DataConverter, converter.FailureConverter) {
	sc := converter.WorkflowSerializationContext{Namespace: testNamespace, WorkflowID: workflowID}
	fc := e.fc
	if fc != nil {
		fc = converter.WithFailureConverterSerializationContext(fc, sc)
	}
	return converter.WithDataConverterSerializationContext(e.dc, sc), fc
}

// testWorkflowID is the ID of the test's workflow, known before it starts.
func (e *TestWorkflowEnvironment) testWorkflowID() string {
	if e.startOptions.ID != "" {
		return e.startOptions.ID
	}
	return testWorkflowID
}

// workerTaskQueue is the task queue of the environment's worker.
func (e *TestWorkflowEnvironment) workerTaskQueue() string {
	if e.startOptions.TaskQueue != "" {
		return e.startOptions.TaskQueue
	}
	return testTaskQueue
}
