// Package engine runs workflow code against history: it applies a workflow
// task's events, resumes the workflow's coroutines until all are blocked,
// matches the commands they produce against the events history recorded,
// and returns the new commands in one batch.
//
// The engine knows nothing of gRPC or of how tasks arrive. The worker feeds
// it tasks polled from the server; the replayer feeds it recorded
// histories; an in-memory test server can feed it events it makes up. All
// three see the same Run.
//
// Workflow code reaches the engine through the methods of *Run that
// package internal calls (ScheduleActivity, StartTimer, SideEffect, ...).
// The engine reaches workflow code through the Workflow interface, which
// package internal implements on top of the coroutine dispatcher.
package engine
