package workflow

import "github.com/durable-go/sdk/internal"

// SessionOptions configure CreateSession and RecreateSession.
//
//   - ExecutionTimeout: the most time the session may stay open; its
//     activities are canceled then. Required.
//   - CreationTimeout: the most time CreateSession waits for a worker with
//     room for the session (worker.Options.MaxConcurrentSessionExecutionSize)
//     to take it; CreateSession then fails. Zero sets no limit of its
//     own.
//   - HeartbeatTimeout: how long the session's worker may go silent before
//     the session is declared failed. Default: 20s.
type SessionOptions = internal.SessionOptions

// SessionInfo describes a session, as GetSessionInfo returns it.
//
//   - SessionID: the session's unique ID.
//   - HostName: the host name of the worker that runs the session.
//   - SessionState: where the session is in its life (SessionStateOpen,
//     SessionStateFailed, SessionStateClosed).
//
// Its method GetRecreateToken returns what RecreateSession needs to open a
// new session on the same worker, in this run or a later one.
type SessionInfo = internal.SessionInfo

// SessionState is where a session is in its life.
type SessionState = internal.SessionState

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
