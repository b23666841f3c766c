// Package coro runs a set of coroutines one at a time, in a fixed order,
// so that the same program always interleaves the same way. It is the
// scheduler under workflow code and knows nothing of Temporal.
//
// # Coroutines
//
// Each coroutine is a function run by iter.Pull: its own goroutine, but
// resumed and suspended by the runtime's direct coroutine switch, so
// control passes between the dispatcher and exactly one coroutine at a
// time, with no other goroutine able to run coroutine code. Everything the
// coroutines share is therefore accessed by one goroutine at a time and
// needs no locks.
//
// A coroutine gives control back to the dispatcher only by returning or
// by one of the suspension calls, which must be made from the coroutine
// itself:
//
//   - [Dispatcher.Block] suspends until a [Condition] holds. The dispatcher
//     evaluates the condition, on its own goroutine, whenever the
//     coroutine's turn comes, and resumes the coroutine only when it holds.
//     It is for conditions this module writes: cheap, side-effect free,
//     never panicking.
//   - [Dispatcher.Poll] suspends until a function returns true, but the
//     coroutine itself evaluates it once per pass. It is for conditions
//     written by users, whose panics and endless loops must be reported
//     against the coroutine that owns them.
//   - [Dispatcher.Yield] lets every other coroutine have its turn and then
//     continues.
//
// # Order
//
// The dispatcher keeps its coroutines in a list, in creation order, and
// [Dispatcher.RunUntilBlocked] makes passes over the list:
//
//  1. In one pass every live coroutine gets exactly one turn, front to back.
//     On its turn a coroutine is resumed if it has not started yet, if it
//     yielded, if it polls, or if the condition it blocked on now holds;
//     otherwise it is skipped. A resumed coroutine runs until it suspends
//     again or returns.
//  2. A coroutine made by [Dispatcher.Spawn] during a pass is appended to
//     the list and gets its first turn later in that same pass.
//  3. A coroutine made by [Dispatcher.SpawnFirst] from inside a coroutine is
//     placed right after that coroutine, so it runs next; made between runs,
//     it is placed at the front of the list when the next pass starts.
//  4. A pass in which some coroutine made progress (started, returned,
//     yielded, was resumed by a holding condition, or had a poll succeed)
//     or in which a coroutine was created is followed by another pass. A
//     pass without progress ends the run, unless [Options.OnAllBlocked]
//     reports that it has unblocked something.
//  5. A coroutine that panics ends the run at once: RunUntilBlocked returns
//     a [*PanicError]; the remaining coroutines keep their state.
//
// These rules are those of the official Go SDK's dispatcher, so workflow
// code makes its commands in the same order under both.
//
// # Deadlocks
//
// RunUntilBlocked drives the coroutines from a goroutine of its own and
// waits for it; one goroutine of the process, running while any drive
// does, watches every drive: a coroutine that neither suspends nor
// returns within the deadlock timeout makes RunUntilBlocked return a
// [*DeadlockError] naming it, with its stack, even if it never yields (an
// endless loop). The
// dispatcher is then unusable; the stuck coroutine is abandoned, and if it
// ever suspends, every coroutine is unwound. [Dispatcher.PauseDeadlockDetection]
// stops the clock while a coroutine does legitimately slow work.
//
// # Closing
//
// [Dispatcher.Close] unwinds every coroutine: each suspended coroutine
// resumes into a panic with a private value that its wrapper recovers, so
// deferred functions run and no goroutine is left behind.
package coro
