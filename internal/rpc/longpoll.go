package rpc

import "go.temporal.io/api/workflowservice/v1"

// isTaskPoll reports the polls of a worker's task queues, which the
// worker retries itself (see retryInterceptor).
func isTaskPoll(method string) bool {
	switch method {
	case workflowservice.WorkflowService_PollWorkflowTaskQueue_FullMethodName,
		workflowservice.WorkflowService_PollActivityTaskQueue_FullMethodName,
		workflowservice.WorkflowService_PollNexusTaskQueue_FullMethodName:
		return true
	}
	return false
}

// IsLongPoll reports whether a call may legitimately wait on the server for
// up to about a minute: task queue polls, update waits, and history reads
// that wait for new events. Such calls get RetryPolicy.LongPollAttemptTimeout.
func IsLongPoll(method string, req any) bool {
	switch method {
	case workflowservice.WorkflowService_PollWorkflowTaskQueue_FullMethodName,
		workflowservice.WorkflowService_PollActivityTaskQueue_FullMethodName,
		workflowservice.WorkflowService_PollNexusTaskQueue_FullMethodName,
		workflowservice.WorkflowService_UpdateWorkflowExecution_FullMethodName,
		workflowservice.WorkflowService_PollWorkflowExecutionUpdate_FullMethodName,
		workflowservice.WorkflowService_ExecuteMultiOperation_FullMethodName,
		workflowservice.WorkflowService_PollActivityExecution_FullMethodName,
		workflowservice.WorkflowService_PollNexusOperationExecution_FullMethodName:
		return true
	case workflowservice.WorkflowService_GetWorkflowExecutionHistory_FullMethodName:
		r, ok := req.(*workflowservice.GetWorkflowExecutionHistoryRequest)
		return ok && r.GetWaitNewEvent()
	}
	return false
}
