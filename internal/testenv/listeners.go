package testenv

import (
	"context"
	"time"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
)

// SetOnActivityStartedListener sets a function called as each activity
// attempt starts, with its context and arguments.
func (e *TestWorkflowEnvironment) SetOnActivityStartedListener(listener func(activityInfo *internal.ActivityInfo, ctx context.Context, args converter.EncodedValues)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.activityStarted = listener })
	return e
}

// SetOnActivityCompletedListener sets a function called once an
// activity's outcome is known, with what the workflow receives: its
// result, or its error (an ActivityError). Attempts that are retried are
// no outcome; an activity the workflow asked to cancel goes to the
// canceled listener instead.
func (e *TestWorkflowEnvironment) SetOnActivityCompletedListener(listener func(activityInfo *internal.ActivityInfo, result converter.EncodedValue, err error)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.activityCompleted = listener })
	return e
}

// SetOnActivityCanceledListener sets a function called when the workflow
// asks to cancel an activity (its ActivityTaskCancelRequested event).
func (e *TestWorkflowEnvironment) SetOnActivityCanceledListener(listener func(activityInfo *internal.ActivityInfo)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.activityCanceled = listener })
	return e
}

// SetOnActivityHeartbeatListener sets a function called with the details
// of each heartbeat that reaches the server: the worker throttles them
// (the first at once, then at most one per interval, 80% of the
// heartbeat timeout or 30s without one, the last held back sent when the
// attempt fails), as in go.temporal.io/sdk.
func (e *TestWorkflowEnvironment) SetOnActivityHeartbeatListener(listener func(activityInfo *internal.ActivityInfo, details converter.EncodedValues)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.activityHeartbeat = listener })
	return e
}

// SetOnLocalActivityStartedListener sets a function called as each local
// activity attempt starts, with its context and arguments.
func (e *TestWorkflowEnvironment) SetOnLocalActivityStartedListener(listener func(activityInfo *internal.ActivityInfo, ctx context.Context, args []any)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.localStarted = listener })
	return e
}

// SetOnLocalActivityCompletedListener sets a function called as each local
// activity attempt ends (but for cancellations), with its result or error.
func (e *TestWorkflowEnvironment) SetOnLocalActivityCompletedListener(listener func(activityInfo *internal.ActivityInfo, result converter.EncodedValue, err error)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.localCompleted = listener })
	return e
}

// SetOnLocalActivityCanceledListener sets a function called when a local
// activity attempt ends canceled.
func (e *TestWorkflowEnvironment) SetOnLocalActivityCanceledListener(listener func(activityInfo *internal.ActivityInfo)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.localCanceled = listener })
	return e
}

// SetOnTimerScheduledListener sets a function called when a timer starts
// (its TimerStarted event is written).
func (e *TestWorkflowEnvironment) SetOnTimerScheduledListener(listener func(timerID string, duration time.Duration)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.timerScheduled = listener })
	return e
}

// SetOnTimerFiredListener sets a function called when a timer fires.
func (e *TestWorkflowEnvironment) SetOnTimerFiredListener(listener func(timerID string)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.timerFired = listener })
	return e
}

// SetOnTimerCanceledListener sets a function called when a timer is
// canceled.
func (e *TestWorkflowEnvironment) SetOnTimerCanceledListener(listener func(timerID string)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.timerCanceled = listener })
	return e
}
