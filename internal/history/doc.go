// Package history holds a recorded workflow history as a replay reads it:
// read from the JSON that `temporal workflow show --output json` writes
// (FromJSON, ReadFile), cut at an event, extended with the workflow task
// it left pending (WithPendingTaskStarted), and read page by page when it
// comes from a server (Source). It needs nothing of package internal; the
// replayer (internal/replayer) and the root's replay (internal.ReplayHistory)
// share it, and the test environment's replay check reads its runs with it.
package history
