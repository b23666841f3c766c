// Package session is the wire protocol of sessions and their worker side.
//
// A session pins a sequence of activities to one worker. It works the way
// go.temporal.io/sdk works it, so workflows and session workers of either
// SDK serve each other:
//
//   - The workflow records a session ID (a UUID, in a side-effect marker)
//     and schedules the creation activity (CreationActivity, its only
//     argument the session ID) on the creation task queue of the task queue
//     its activities use (CreationTaskQueue), with a heartbeat timeout (20s
//     by default) and a retry policy that retries everything but timeouts.
//   - A worker with sessions enabled polls that queue, but only while it
//     has room for another session (MaxConcurrentSessionExecutionSize). Its
//     creation activity takes a session slot, signals the workflow, on a
//     signal named after the session ID, with a CreationResponse that names
//     the worker's resource-specific task queue (ResourceTaskQueue), and
//     then runs as long as the session does, heartbeating.
//   - The workflow schedules the session's activities on that queue, which
//     only this worker polls. It completes the session by canceling the
//     creation activity and running the completion activity
//     (CompletionActivity) on the same queue; the creation activity then
//     returns and frees the slot.
//   - If the worker stops, its creation activity fails with a
//     non-retryable "SessionWorkerShutdown" error; if it dies, the creation
//     activity's heartbeats stop and it times out. Either way the workflow
//     marks the session failed.
//   - SessionInfo.GetRecreateToken is the resource-specific queue in JSON
//     ({"Taskqueue": ...}); RecreateSession schedules the creation activity
//     on that queue, so the new session lands on the same worker.
//
// The workflow side (CreateSession, CompleteSession, ...) lives in package
// internal, which uses this package; this package knows nothing of it.
package session
