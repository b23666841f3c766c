// Package testsuite tests code written with this SDK.
//
// Unit tests use a WorkflowTestSuite's TestWorkflowEnvironment: it runs a
// workflow with its activities real or mocked (testify mocks), skips
// ahead in time whenever the workflow waits, delivers signals, queries,
// updates and cancellations at chosen moments (RegisterDelayedCallback),
// and reports the result. Tests written for go.temporal.io/sdk's test
// environment run unchanged once their imports name this module: the
// clock, the retry cap, mocks, listeners and callbacks behave as there,
// and the same test source runs on both SDKs in this repository
// (compat/testenvparity). Unlike that environment, it is not a second
// implementation of the engine: the workflow runs on the worker runtime
// and engine a production worker uses, against an in-memory server that
// writes real history events, so a workflow behaves in a test as it does
// on a server, and the test's history can be read back (GetHistory) and
// replayed.
//
// Integration tests and samples use StartDevServer, which runs a real
// Temporal dev server (from the temporal CLI).
//
// # The replay check
//
// With SetReplayCheck(true) (on the WorkflowTestSuite, or on one
// TestWorkflowEnvironment), ExecuteWorkflow replays every run of the test
// (the workflow, its children) once it ended, from the history the test
// wrote, on a fresh engine with the environment's registrations,
// interceptors and converters, as a worker replays a run after a restart
// or once the run left its cache. Code that decides differently the second
// time (it ranges over a map, reads time.Now, starts a goroutine, draws a
// random number) passes a single run but not its replay: the test's
// GetWorkflowError then holds the replay's *worker.NonDeterminismError,
// in the test that introduced the bug, instead of a workflow stuck in
// production. Setting DURABLE_REPLAY_CHECK=on in the environment turns the
// check on for every suite that does not set it (a CI job, say);
// DURABLE_REPLAY_CHECK=off turns it off.
//
// The check costs little: a replay runs the workflow code without the
// server, the worker or the activities. On this repository's
// test-environment suites (testsuite, examples, compat/testenvparity:
// go test -count=1, the median of 6 to 8 runs each way) it adds 1.6% to
// the time of the tests under -race and 6% without, nearly all of it in
// one test whose data converter takes 0.6 s to encode a value (the replay
// encodes the workflow's values again); without that test, under 2%.
// It is off by default all the same: the replay runs the workflow code
// once more, so a test whose workflow code changes the test's own
// variables (counts its runs, appends what it received to a slice the
// test reads) sees them changed twice, and fails where it passes on
// go.temporal.io/sdk (one of the 40 tests of compat/testenvparity does).
// Turn it on for suites whose workflow code does not, or guard such code
// with workflow.IsReplaying.
//
// # Differences from go.temporal.io/sdk's test environment
//
// These stay different on purpose:
//
//   - The history is the real one: the in-memory server writes the events
//     a Temporal server writes, and GetHistory returns them, so that a
//     test's run replays (worker.NewWorkflowReplayer) and can be compared
//     with a dev server's. What a workflow reads from history follows: an
//     ActivityError carries the real scheduled and started event IDs and
//     the server's retry state (MAXIMUM_ATTEMPTS_REACHED,
//     NON_RETRYABLE_FAILURE, ...; go.temporal.io/sdk's environment says 0,
//     0 and, for a failed activity, UNSPECIFIED), and timer and activity
//     IDs are event IDs, as on a worker (there, a counter of the
//     environment's own).
//   - A running activity the workflow cancels is canceled at once, as
//     there, even with WaitForCancellation (the activity's context is
//     canceled by its next heartbeat's answer, or when the test ends); the
//     history records it as an ActivityTaskCanceled, so the workflow
//     receives the ActivityError around a CanceledError that a worker
//     gives it, where go.temporal.io/sdk's environment gives the bare
//     CanceledError (temporal.IsCanceledError holds for both).
//   - Activity timeouts run on the workflow's clock, as a server applies
//     them: a mocked activity whose After delay is longer than its
//     StartToCloseTimeout (or ScheduleToCloseTimeout) times out, where
//     go.temporal.io/sdk's environment, which measures activity timeouts
//     in wall time, lets the mock return. A history in which an activity
//     completes after its timeout is one no server writes.
//   - A local activity's error is the activity's own error, as a worker of
//     either SDK gives it to the workflow; go.temporal.io/sdk's test
//     environment alone wraps it in an ActivityError. A test that looks
//     for an ActivityError around a local activity's error would pass
//     there about code that behaves otherwise in production.
//   - Runs replay themselves, when the replay check is on (above); so does
//     a run queried after it ended (QueryWorkflow rebuilds its state from
//     history, as a worker of a real server does): workflow code runs
//     again for it.
//   - The test timeout (SetTestTimeout) ends the test with an error from
//     GetWorkflowError that shows where the workflow's coroutines are
//     blocked, rather than a panic from ExecuteWorkflow.
//   - OnActivity and OnWorkflow accept a name with no registered
//     function: the mock's Return then gives the signature.
package testsuite
