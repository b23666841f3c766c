// Package workerrt is the worker runtime: it long-polls a task queue for
// workflow and activity tasks, runs them within the worker's concurrency
// limits, keeps workflow state in the sticky cache between tasks, sends
// heartbeats, and reports every outcome to the server.
//
// Nothing is acknowledged that did not happen: a task whose processing
// fails, or that is still running when the worker stops, is reported failed
// or left to time out, and the server retries it.
//
// It drives workflow code through package engine and activity code through
// an ActivityExecutor that package internal supplies, and emits the SDK's
// worker metrics (polls, slots, task latencies, the sticky cache, workflow
// closes) through the handler in Options.Metrics, if any.
package workerrt
