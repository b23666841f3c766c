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
// Time. The Clock runs at wall speed while anything is in flight (a
// workflow or activity task scheduled or running, a query unanswered) and
// jumps to the next timer the moment nothing is: then every workflow is
// blocked and no activity runs, so a workflow that sleeps for 30 days
// finishes in milliseconds, while a running activity's timeouts still
// measure the time it really takes.
//
// What it does not do: child workflows, external signals and cancels,
// updates, Nexus, visibility, namespaces, or workflow retries and cron
// schedules; commands of those kinds fail the workflow task with a message
// saying so.
package testserver
