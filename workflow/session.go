package workflow

import "github.com/durable-go/sdk/internal"

type (
	// SessionOptions configure a session: ExecutionTimeout (required)
	// bounds how long it may run, CreationTimeout how long CreateSession
	// waits for a worker with room for it, HeartbeatTimeout (20s) how long
	// its worker may go silent before the session is declared failed.
	SessionOptions = internal.SessionOptions
	// SessionInfo describes a session: its ID, the host of its worker and
	// its state.
	SessionInfo = internal.SessionInfo
	// SessionState is where a session is in its life.
	SessionState = internal.SessionState
)

// The states of a session (variables, as in go.temporal.io/sdk).
var (
	// SessionStateOpen: the session runs; its activities go to its worker.
	SessionStateOpen = internal.SessionStateOpen
	// SessionStateFailed: its worker stopped or died.
	SessionStateFailed = internal.SessionStateFailed
	// SessionStateClosed: CompleteSession ended it.
	SessionStateClosed = internal.SessionStateClosed
)

// ErrSessionFailed is the error of an activity executed in a session whose
// worker stopped or died. The workflow may create a new session.
var ErrSessionFailed = internal.ErrSessionFailed

// CreateSession opens a session: a context whose activities all run on one
// worker (with worker.Options.EnableSessionWorker) of the task queue ctx's
// activities use, for example to download, process and upload a file on
// the same disk. It fails when ctx holds an open session already, or when
// no worker has room for one (MaxConcurrentSessionExecutionSize) within
// CreationTimeout.
//
// The returned context is canceled when the session fails (its worker
// stops or dies) or is completed: the session's running activities are
// canceled, and activities executed in a failed session fail with
// ErrSessionFailed. An activity's own failure does not fail the session.
// End the session with CompleteSession, typically deferred:
//
//	sessionCtx, err := workflow.CreateSession(ctx, &workflow.SessionOptions{
//		CreationTimeout:  time.Minute,
//		ExecutionTimeout: 10 * time.Minute,
//	})
//	if err != nil {
//		return err
//	}
//	defer workflow.CompleteSession(sessionCtx)
//	err = workflow.ExecuteActivity(sessionCtx, Download, url).Get(sessionCtx, &path)
func CreateSession(ctx Context, sessionOptions *SessionOptions) (Context, error) {
	return internal.CreateSession(ctx, sessionOptions)
}

// RecreateSession opens a session on the worker of an earlier session,
// named by the token its SessionInfo.GetRecreateToken returned: a long
// session can span runs of a workflow that continues as new. It fails as
// CreateSession does, or when the token is not one.
func RecreateSession(ctx Context, recreateToken []byte, sessionOptions *SessionOptions) (Context, error) {
	return internal.RecreateSession(ctx, recreateToken, sessionOptions)
}

// CompleteSession ends the session ctx holds and frees its place on the
// worker. It cancels the session's context, and with it the session's
// running activities. It does nothing when ctx holds no open session.
func CompleteSession(ctx Context) { internal.CompleteSession(ctx) }

// GetSessionInfo returns the session ctx holds (the latest, when one was
// created in another's context), or nil.
func GetSessionInfo(ctx Context) *SessionInfo { return internal.GetSessionInfo(ctx) }
