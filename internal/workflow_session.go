package internal

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/session"
	"github.com/durable-go/sdk/internal/uuid"
)

// SessionState is where a session is in its life (workflow.SessionState).
type SessionState int

const (
	// SessionStateOpen: the session runs; its activities go to its worker.
	SessionStateOpen SessionState = iota
	// SessionStateFailed: its worker stopped or died; its activities fail
	// with ErrSessionFailed.
	SessionStateFailed
	// SessionStateClosed: CompleteSession ended it.
	SessionStateClosed
)

// ErrSessionFailed is the error of an activity executed in a session whose
// worker stopped or died.
var ErrSessionFailed = errors.New("session has failed")

var errOpenSessionInContext = errors.New("CreateSession: the context already holds an open session; " +
	"complete it first (CompleteSession), or create the new session from a context outside it")

// SessionOptions configure a session (workflow.SessionOptions).
type SessionOptions struct {
	// ExecutionTimeout bounds how long the session may run. Required.
	ExecutionTimeout time.Duration
	// CreationTimeout bounds the wait for a worker with room for the
	// session; CreateSession fails when it passes.
	CreationTimeout time.Duration
	// HeartbeatTimeout is how long the session's worker may go silent
	// before the session is declared failed (20s).
	HeartbeatTimeout time.Duration
}

// SessionInfo describes a session (workflow.SessionInfo).
type SessionInfo struct {
	// SessionID identifies the session; a UUID.
	SessionID string
	// HostName is the host of the worker that runs the session.
	HostName string
	// SessionState is where the session is in its life.
	SessionState SessionState

	resourceID string
	taskQueue  string // the worker's resource-specific task queue
	// cancel cancels the session's context: the creation activity and
	// every activity of the session.
	cancel CancelFunc
	// completionCtx holds the session but is not canceled with it: the
	// completion activity runs in it.
	completionCtx Context
}

// GetRecreateToken returns what RecreateSession needs to open a new
// session on the same worker, in this run or a later one.
func (s *SessionInfo) GetRecreateToken() []byte { return session.RecreateToken(s.taskQueue) }

type sessionInfoKey struct{}

func sessionOf(ctx Context) *SessionInfo {
	s, _ := ctx.Value(sessionInfoKey{}).(*SessionInfo)
	return s
}

// CreateSession opens a session on a worker of the task queue the
// context's activities use, and returns a context whose activities all run
// on that worker. It fails when the context holds an open session already,
// or when no worker with sessions enabled has room for one within
// CreationTimeout. The returned context is canceled when the session fails
// (its worker stops or dies: its activities then fail with
// ErrSessionFailed) or is completed.
func CreateSession(ctx Context, sessionOptions *SessionOptions) (Context, error) {
	queue := cmp.Or(GetActivityOptions(ctx).TaskQueue, runOf(ctx).info.TaskQueueName)
	return createSession(ctx, session.CreationTaskQueue(queue), sessionOptions)
}

// RecreateSession opens a session on the worker that ran the session whose
// SessionInfo.GetRecreateToken gave recreateToken; it fails as
// CreateSession does, or when the token is not one.
func RecreateSession(ctx Context, recreateToken []byte, sessionOptions *SessionOptions) (Context, error) {
	queue, err := session.ParseRecreateToken(recreateToken)
	if err != nil {
		return nil, fmt.Errorf("RecreateSession: %w", err)
	}
	return createSession(ctx, queue, sessionOptions)
}

// createSession schedules the creation activity on creationQueue and
// waits for the signal that names the session's worker, or for the
// activity to fail first.
func createSession(ctx Context, creationQueue string, options *SessionOptions) (Context, error) {
	if options == nil {
		return nil, errors.New("CreateSession: SessionOptions are required (at least ExecutionTimeout and CreationTimeout)")
	}
	if options.ExecutionTimeout <= 0 {
		// go.temporal.io/sdk sends the creation activity without a timeout,
		// which the server rejects, failing workflow tasks until a fix.
		return nil, errors.New("CreateSession: SessionOptions.ExecutionTimeout is required: it bounds how long the session may run")
	}
	if prev := sessionOf(ctx); prev != nil && prev.SessionState == SessionStateOpen {
		return nil, errOpenSessionInContext
	}
	var id string
	if err := SideEffect(ctx, func(Context) any { return uuid.New() }).Get(&id); err != nil {
		return nil, err
	}
	created := GetSignalChannel(ctx, id) // the creation activity signals on the session ID

	info := &SessionInfo{SessionID: id, SessionState: SessionStateOpen}
	completionCtx := WithValue(ctx, sessionInfoKey{}, info)
	info.completionCtx = completionCtx
	sessionCtx, cancel := WithCancel(completionCtx)
	creationCtx := WithActivityOptions(sessionCtx, ActivityOptions{
		TaskQueue:              creationQueue,
		ScheduleToStartTimeout: options.CreationTimeout,
		StartToCloseTimeout:    options.ExecutionTimeout,
		HeartbeatTimeout:       cmp.Or(options.HeartbeatTimeout, session.DefaultHeartbeatTimeout),
		// Retry a worker that had no room, not a session that timed out:
		// a retry would land on another worker.
		RetryPolicy: &policy.RetryPolicy{
			InitialInterval:        time.Second,
			BackoffCoefficient:     1.1,
			MaximumInterval:        10 * time.Second,
			NonRetryableErrorTypes: []string{"TemporalTimeout:StartToClose", "TemporalTimeout:Heartbeat"},
		},
	})
	creation := ExecuteActivity(creationCtx, session.CreationActivity, id)

	var response session.CreationResponse
	var creationErr error
	s := NewSelector(creationCtx)
	s.AddReceive(created, func(c ReceiveChannel, _ bool) { c.Receive(creationCtx, &response) })
	s.AddFuture(creation, func(f Future) { creationErr = f.Get(creationCtx, nil) })
	s.Select(creationCtx)
	if creationErr != nil {
		cancel()
		return nil, creationErr
	}
	info.HostName, info.resourceID, info.taskQueue, info.cancel = response.HostName, response.ResourceID, response.Taskqueue, cancel

	// The creation activity runs as long as the session; if it ends other
	// than by the cancellation CompleteSession sends, the worker is gone.
	Go(creationCtx, func(ctx Context) {
		err := creation.Get(ctx, nil)
		var canceled *failure.CanceledError
		if err == nil || errors.As(err, &canceled) {
			return
		}
		GetLogger(ctx).Debug("session failed", "SessionID", id, "Error", err)
		info.SessionState = SessionStateFailed
		runOf(ctx).forgetSession(id)
		cancel()
	})
	runOf(ctx).rememberSession(info)
	return sessionCtx, nil
}

// CompleteSession ends the session ctx holds, freeing its slot on the
// worker: it cancels the session's context (its activities still running)
// and runs the completion activity on the session's worker. It does
// nothing when ctx holds no open session.
func CompleteSession(ctx Context) {
	info := sessionOf(ctx)
	if info == nil || info.SessionState != SessionStateOpen {
		return
	}
	info.cancel()
	// The creation activity learns of its cancellation only at its next
	// heartbeat; the completion activity tells the worker now, before the
	// workflow can end.
	completionCtx := WithActivityOptions(info.completionCtx, ActivityOptions{
		ScheduleToStartTimeout: 3 * time.Second,
		StartToCloseTimeout:    3 * time.Second,
	})
	if err := ExecuteActivity(completionCtx, session.CompletionActivity, info.SessionID).Get(completionCtx, nil); err != nil {
		GetLogger(ctx).Warn("the session's completion activity failed; its worker frees the session at its next heartbeat",
			"SessionID", info.SessionID, "Error", err)
	}
	info.SessionState = SessionStateClosed
	runOf(ctx).forgetSession(info.SessionID)
	GetLogger(ctx).Debug("session completed", "SessionID", info.SessionID)
}

// GetSessionInfo returns the session ctx holds (the latest, when sessions
// were created one inside another's context), or nil.
func GetSessionInfo(ctx Context) *SessionInfo {
	info := sessionOf(ctx)
	if info == nil {
		GetLogger(ctx).Warn("GetSessionInfo: the context holds no session")
	}
	return info
}

// sessionQueue is where an activity of a session goes: the session's
// worker while the session is open, nowhere (ErrSessionFailed) once it
// failed, and the queue it names otherwise.
func sessionQueue(ctx Context, activityType, queue string) (string, error) {
	info := sessionOf(ctx)
	if info == nil || activityType == session.CreationActivity {
		return queue, nil
	}
	switch info.SessionState {
	case SessionStateFailed:
		return "", ErrSessionFailed
	case SessionStateOpen:
		return info.taskQueue, nil
	}
	return queue, nil
}

// rememberSession and forgetSession keep the run's open sessions, which
// the __open_sessions query lists.
func (r *workflowRun) rememberSession(info *SessionInfo) {
	if r.openSessions == nil {
		r.openSessions = make(map[string]*SessionInfo)
	}
	r.openSessions[info.SessionID] = info
}

func (r *workflowRun) forgetSession(id string) { delete(r.openSessions, id) }

// sessionList is the answer to the __open_sessions query, by session ID.
func (r *workflowRun) sessionList() []*SessionInfo {
	ids := slices.Sorted(maps.Keys(r.openSessions))
	list := make([]*SessionInfo, 0, len(ids))
	for _, id := range ids {
		list = append(list, r.openSessions[id])
	}
	return list
}
