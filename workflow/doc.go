// Package workflow is the API for writing workflow code: code that the
// worker replays from history after every event, and that must therefore
// make the same decisions in the same order every time.
//
// # Determinism
//
// Workflow code must not use goroutines, Go channels, select, sync locks,
// time.Now, time.Sleep, random numbers, or map iteration order to decide
// what to do. This package provides deterministic replacements:
//
//   - Go and GoNamed instead of the go statement;
//   - Channel (NewChannel, NewBufferedChannel, ...) instead of chan;
//   - Selector instead of select;
//   - Future and Settable (NewFuture) for results that arrive later;
//   - Await for waiting on a condition;
//   - Mutex, Semaphore and WaitGroup instead of package sync;
//   - DeterministicKeys and DeterministicKeysFunc to range over maps.
//
// Coroutines run one at a time. Which coroutine runs next, which receiver
// gets a value, which Selector case fires and what a canceled Context
// interrupts are fixed rules, stated on the primitives below and in full
// in the documentation of the SDK's runtime; they are those of the
// official Go SDK, so ported workflows behave the same.
//
// # Cancellation
//
// Canceling a Context closes its Done channel and cancels its children.
// Await, Mutex.Lock and Semaphore.Acquire return a CanceledError when their
// Context is canceled. Channel.Receive, Channel.Send, Selector.Select,
// Future.Get and WaitGroup.Wait keep waiting: add ctx.Done() to a Selector
// to react to cancellation while waiting for something else.
package workflow
