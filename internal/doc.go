// Package internal implements the SDK behind its public packages, which
// are thin facades over it: the API types they share that name one
// another (Context, Future, the workflow, activity, worker and client
// options, the workflow, activity and worker interceptors, the plugins,
// errors), the workflow runs, their wiring into a worker runtime
// (wiring.go) and the replay.
// The machinery lives in subpackages, each with a doc of its own: the
// dispatcher (coro), the deterministic primitives (wfsync), the command
// machines (commands), the engine (engine), the worker runtime (workerrt)
// and the gRPC layer (rpc); uuid, memo and optcheck hold what both the
// client and the workflow side use (IDs, memo encoding, the refusal of
// negative options), tuning the API of worker tuners and poller behaviors.
// The parts of the API that need none of this package's unexported names
// sit above it, imported by the facades alone: the resource-based tuner
// (resourcetuner) and SimplePlugin (simpleplugin). The client's
// implementation (clientimpl) sits above it too, imported by the client
// and testsuite packages and the test environment, and so does the
// worker's (workerimpl), imported by the worker facade and the test
// environment; a worker sees its client through WorkerClient alone. The
// client's API types that name nothing of this package (Client, its
// interceptors, the options and answers of its operations, schedules,
// WorkflowExecution) sit below it, in clientapi; so do the headers calls
// carry and their context propagation (propagation).
// docs/architecture.md shows how they fit together.
//
// # Deterministic workflow runtime
//
// Workflow code runs on coroutines and synchronizes with deterministic
// channels, selectors, futures, locks and contexts. Their implementation,
// and the rules that are part of the replay contract, are in package
// wfsync; workflow_primitives.go declares the types the public API names
// and the functions that make them.
package internal
