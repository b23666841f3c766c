// Package wfsync implements the deterministic primitives of workflow
// code: coroutines (Go, GoNamed, Await), channels (Chan), selectors
// (Selector), futures (SettableFuture), locks (Mutex, Semaphore,
// WaitGroup) and contexts (WithCancel, WithValue), over the dispatcher of
// package coro. Package internal declares the types the public API names
// (Future, Selector, Mutex, ...) and wraps these; the only way back to
// it is the Run interface, which its workflow run implements.
//
// Workflow code must make the same decisions in the same order every time
// it is replayed, so it runs on coroutines (Go, GoNamed) scheduled by a
// dispatcher (package coro) and synchronizes with the primitives of this
// package instead of goroutines, Go channels, select and locks. The rules
// below are part of the replay contract: changing one changes the commands
// existing workflows produce. They follow the official Go SDK's observable
// behaviour.
//
// Scheduling. One coroutine runs at a time, until it blocks or returns.
// The dispatcher gives every coroutine one turn per pass, in creation
// order (the root coroutine, named "root", first), and repeats passes until
// none makes progress. A coroutine created by Go takes its first turn
// later in the same pass. A blocked coroutine whose wait is over resumes
// at its turn: in the same pass if it comes after the coroutine that woke
// it, else in the next pass. Coroutines woken by one event therefore run
// in creation order, not in the order they started waiting.
//
// Channels. Values are received in the order they were sent. Blocked
// receivers are served in the order they started waiting, and so are
// blocked senders. A Send to a channel with a waiting receiver hands the
// value over and returns at once; the receiver runs at its turn. Len
// counts buffered values and blocked senders.
//
// Closed channels. Receive returns the values still buffered, then false
// at once without touching valuePtr. Send and SendAsync panic. Close wakes
// every blocked receiver, in waiting order, with false; a sender blocked
// at Close panics when it resumes, unless a receiver draining the buffer
// took its value first. Closing twice is allowed.
//
// Selector. Select checks its cases in the order they were added and runs
// the function of the first one ready. If none is ready it runs the
// default function, if any, else it blocks and runs the function of the
// case whose event happens first. A receive case's function must receive
// the value itself: Select puts the value it found back at the head of the
// channel. A future case fires at most once per Selector, and a receive
// case that finds its channel closed when Select starts fires (more false)
// once and is then skipped by that Selector.
//
// Cancellation. Canceling a context closes its Done channel, waking its
// waiters in the order they started waiting, then cancels its children in
// the order they were created. Await, Mutex.Lock and Semaphore.Acquire
// return a CanceledError once ctx is canceled, unless their condition
// holds. Receive, Send, Select, Future.Get and WaitGroup.Wait do not watch
// ctx: to stop waiting on cancellation, add ctx.Done() to a Selector.
//
// Futures. Setting a future wakes the Select cases waiting for it in the
// order they were added to their Selectors, then sets the futures chained
// to it in chain order.
//
// Locks. When a Mutex or Semaphore is released, the first waiter to have
// its turn (creation order) takes it, not the first that asked.
package wfsync
