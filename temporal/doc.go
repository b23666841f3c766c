// Package temporal holds the types shared by workflow, activity and client
// code: the errors that cross the wire (ApplicationError, CanceledError,
// TimeoutError, PanicError, ActivityError, ChildWorkflowExecutionError ...),
// the failure converter that carries them, typed search attributes, retry
// policies and priorities.
//
// Errors returned by activities and workflows reach their callers wrapped:
// a workflow sees an activity's failure as an *ActivityError whose cause is
// the activity's error, a client sees a workflow's failure as a
// *WorkflowExecutionError. Use errors.As to reach the error of interest:
//
//	var appErr *temporal.ApplicationError
//	if errors.As(err, &appErr) {
//		switch appErr.Type() {
//		case "NotFound":
//			var id string
//			_ = appErr.Details(&id)
//		}
//	}
//
// Any Go error returned by an activity becomes an *ApplicationError whose
// Type is the Go type name of the error, so a RetryPolicy can list it in
// NonRetryableErrorTypes.
package temporal
