// Package rpc is the gRPC connection layer shared by the client and the
// worker: it dials the Temporal frontend, attaches the headers the server
// expects (client name and version, namespace, credentials), retries
// transient failures with backoff while giving long polls the time they
// need, and turns "cannot connect" and "no such namespace" into errors that
// say what to do about them.
package rpc
