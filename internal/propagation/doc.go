// Package propagation is the header a call carries and the context
// propagators that fill and read it. A client call, a workflow's command
// (an activity, a child, a signal, a continue-as-new) and a task a worker
// runs each have a header: ContextPropagators write values from the
// caller's context into it (Inject, InjectFromWorkflow) and read them
// back into the receiver's (Extract, ExtractToWorkflow); interceptors
// read and write the header of the call they intercept (Header,
// WorkflowHeader). A CodecContextPropagator's fields go through the data
// converter's payload codec, as payloads do.
//
// The public packages alias its types (workflow.ContextPropagator,
// interceptor.Header); the root, the client and the test environment
// build and read headers with its functions.
package propagation
