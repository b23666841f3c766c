// Package interceptor lets code run around what clients, workflows and
// activities do: to add headers, log, trace or check calls.
//
// A ClientInterceptor wraps a client's workflow calls (put it in
// client.Options.Interceptors); a WorkerInterceptor wraps the workflows and
// activities a worker runs (worker.Options.Interceptors, or
// worker.WorkflowReplayerOptions.Interceptors for replays). An Interceptor
// is both: given to a client, it also applies to the workers made from it.
//
// Each intercepted call goes down a chain: the first interceptor of the
// list is called first and passes the call on to the next (the Next field
// of the Base structs), and the SDK's own implementation ends the chain.
// Inbound interceptors see what arrives (a workflow's start, signals and
// queries; an activity's execution); their Init gets the outbound
// interceptor that the code's own calls go to (the workflow and activity
// package functions), and may wrap it.
//
// Implementations embed the matching Base struct, which passes every
// call on, and override what they need. Workflow interceptors run as
// workflow code: they must be deterministic.
//
// Headers carry data next to a call's arguments: Header returns the header
// of a client call or of an activity's execution, WorkflowHeader the header
// of a workflow's start, signal or query, or of an activity it schedules.
package interceptor
