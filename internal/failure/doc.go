// Package failure holds the SDK's error types (application, canceled,
// timeout, panic, terminated, server, activity, child workflow ...) and the
// DefaultFailureConverter that turns them into the wire's failure.v1.Failure
// and back, in the shape every Temporal SDK reads and writes. Package
// temporal exposes the public part.
//
// Errors decoded from a Failure keep it (Failure method) so that encoding
// them again gives back the same proto, and keep the data converter so that
// their details can be decoded later. Every wrapping error implements Unwrap,
// so errors.As and errors.Is see through the whole cause chain.
//
// The constructors that only the SDK itself needs (NewPanicError,
// NewActivityError, NewChildWorkflowExecutionError, NewServerError, ...) are
// exported here but unreachable to users, as the package is internal.
package failure
