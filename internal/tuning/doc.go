// Package tuning holds the API of how much work a worker takes on at once
// (worker.WorkerTuner and its slot suppliers, worker.PollerBehavior) and
// its adapters to the worker runtime: RuntimeSlots hands a supplier to
// package workerrt, Pollers a poller behavior.
//
// A worker runs each task in a slot, and a WorkerTuner decides how many
// slots of each kind there are (worker.Options.Tuner): a fixed number
// (NewFixedSizeTuner, the default, sized by the MaxConcurrent... options),
// as many as the machine's memory and CPU allow (package resourcetuner),
// or any mix of suppliers (NewCompositeTuner), custom ones included.
// Package worker exposes these names; package internal checks a worker's
// options against them and wires them into the runtime.
package tuning
