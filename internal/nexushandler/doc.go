// Package nexushandler runs the Nexus tasks a worker polls: it turns a
// PollNexusTaskQueue response into a call of the worker's nexus-rpc
// handler (start or cancel an operation), within the deadline the
// request's header sets, recovers a panic of the handler into a failed
// task, and builds the RespondNexusTaskCompleted or RespondNexusTaskFailed
// request with the shapes go.temporal.io/sdk sends, so that a caller of
// either SDK reads the same outcome.
//
// The operation's context carries an OperationContext (the worker's
// client, namespace, task queue, the request's endpoint and ID, the logger
// and metrics tagged with the service and operation), which the
// temporalnexus package and the root's Nexus interceptors read.
package nexushandler
