// Package rpc is the gRPC connection layer shared by the client and the
// worker: it dials the Temporal frontend, attaches the headers the server
// expects (client name and version, namespace, credentials), retries
// transient failures with backoff while giving long polls the time they
// need, and turns "cannot connect" and "no such namespace" into errors that
// say what to do about them.
//
// It also sets how the connection spends CPU, which for an idle-then-busy
// worker is mostly the transport's: fixed flow-control windows (no
// bandwidth-probing pings, see dialOptions) and, on Linux, sockets it dials
// itself and reads and writes with raw system calls (see rawIO and
// Options.DisableRawSocket).
package rpc
