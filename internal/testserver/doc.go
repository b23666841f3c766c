// Package testserver is an in-memory Temporal history service: the server
// half of the test environment (package testsuite). It keeps one history
// per workflow run as real history events, schedules workflow and activity
// tasks on task queues that the worker runtime polls through the same
// Service interface it uses against a real server, turns the commands a
// workflow task completes with into the events a server writes, runs
// activity timeouts and retries, and fires timers on a virtual clock.
//
// The rules it follows are the server's, so that a history written here is
// a history a dev server would write (docs/architecture.md, "Event-ID
// prediction"): a completed workflow task's commands become events right
// after its WorkflowTaskCompleted, in command order; events that arrive
// while a workflow task runs are buffered and written after them; an
// activity's ActivityTaskStarted is written with its outcome.
//
// Beyond activities and timers it carries out the rest of the commands a
// workflow sends: child workflows (child.go: started, their parent told of
// their start and close, their parent close policy applied; a child that
// fails retries under its retry policy and a child with a cron schedule
// runs again, rerun.go), signals and cancel requests to other workflows,
// markers (side effects, versions, local activities), search attribute
// and memo upserts, continue-as-new, and Nexus operations (nexus.go: their
// requests polled and answered as on a server, a workflow-run operation
// completed by its workflow's completion callback, a handler error failing
// the operation without retries, as in go.temporal.io/sdk's test
// environment; servers that share a NexusRouter, one per namespace of the
// embedded server, send requests and callbacks to each other,
// nexusroute.go). From the test's side it takes
// signals, cancel requests and terminations, answers queries through the
// worker, and runs updates by the server's protocol (update.go), a
// rejected update's speculative workflow task erased from history. A run
// times out at its run timeout, or its execution timeout if sooner.
//
// Time. The Clock stands still while work runs, as go.temporal.io/sdk's
// test clock does: events and workflow code read the same instant until a
// timer fires, and the clock then moves to the instant the timer was due.
// While nothing is in flight (a workflow or activity task scheduled or
// running, a query unanswered; an activity waiting to be completed by its
// token is not: AwaitAsyncCompletion) it skips to the next timer at once, so a
// workflow that sleeps for 30 days finishes in milliseconds; while
// something is, a timer fires when its duration has passed in wall time,
// so that a running activity's timeouts measure the time it really takes.
//
// NewWallClock makes a clock that never skips: it reads the wall clock and
// fires timers in wall time, as a Temporal server does (the embedded
// server without time skipping, internal/frontend).
//
// Schedules (schedule.go) run as a server's scheduler runs them, their
// next actions wake-ups on the Clock, once Options.StartScheduledWorkflow
// says how to start their workflows (the embedded server's frontend).
//
// Search attributes (searchattr.go) are registered per server, as per
// namespace on a server; with Options.CheckSearchAttributes (the
// embedded server) starts and commands that name one not registered, or
// give one a value of the wrong type, are refused as a server refuses
// them. The server says which workers polled each task queue, and what
// waits there (pollers.go).
//
// What it does not do: the server's own Nexus endpoint
// (workflow.SignalWithStartWorkflow), visibility queries (the frontend
// filters the runs Executions describes), namespaces (a server is one
// namespace's; internal/frontend keeps one per namespace), workflow
// task timeouts unless Options.WorkflowTaskTimeouts says so (tasktimeout.go),
// or, unless Options.ChainTopLevelRuns says so (the
// embedded server), the retries, cron schedule and continue-as-new of the
// test's own workflow (a run without a parent), which runs once, as in
// go.temporal.io/sdk's test environment; commands it does not know fail
// the workflow task with a message saying so.
package testserver
