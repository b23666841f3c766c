// Package workerimpl is the worker that worker.New returns
// (AggregatedWorker): what it does with its options between worker.New
// and Stop. It checks the options (tuning, versioning, negatives), runs
// the worker plugins' hooks around configuration, start and stop, takes
// the registrations, and at Start builds the worker runtimes
// (internal/workerrt) that poll: the main one, with the root's workflow
// runs and activity executor (the root's wiring.go), the session workers
// and the Nexus task handler; it shares the process's sticky cache
// between workers and sends the worker's heartbeats through its client.
//
// It sits above the root package internal, whose API types it implements,
// and sees its client through internal.WorkerClient alone. The test
// environment builds its own runtime with RuntimeOptions and PluginSet,
// so that a worker option means the same there.
package workerimpl
