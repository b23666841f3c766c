package engine

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"

	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/failure"
)

// Local activities run in the worker that holds the workflow task. When
// the code waits for one, a live task does not end with the code blocked:
// ProcessTask returns a TaskResult that is WaitingForLocalActivities and
// lists the ones to start; the worker runs them and hands each outcome to
// ResolveLocalActivity, which records it as a LocalActivity marker (the
// format of go.temporal.io/sdk), wakes the code and says again whether the
// task may end. A worker whose local activities outlast most of the task's
// timeout reports what the task has so far with HeartbeatTask and goes on
// with the next task, as go.temporal.io/sdk does.
//
// In replay, the markers a task recorded are read ahead and delivered
// after the code first ran in that task, in history order, each followed
// by another run of the code: the order in which the outcomes originally
// arrived. Local activities then never run again.

// LocalActivityRequest is a local activity for the worker to run.
type LocalActivityRequest struct {
	ID           string // the activity ID its marker records
	ActivityType string
	// Args are the arguments the code passed, as Go values, opaque to the
	// engine: the worker's executor hands them to the activity as they
	// are, as go.temporal.io/sdk does (a local activity runs in the
	// workflow's process; its input is never encoded).
	Args   []any
	Header *commonpb.Header
	// Attempt is the first attempt to make: above 1 when the code retries
	// after a backoff too long to wait inside the task.
	Attempt int32
	// ScheduledTime is when the first attempt was scheduled, workflow
	// time; the schedule-to-close timeout counts from it.
	ScheduledTime          time.Time
	ScheduleToCloseTimeout time.Duration
	StartToCloseTimeout    time.Duration
	RetryPolicy            *commonpb.RetryPolicy
	// Fn is what the worker's executor calls, opaque to the engine (the
	// function the code passed, or nil to look the type up).
	Fn any
	// WorkflowTaskTimeout bounds the backoffs the worker waits out itself;
	// longer ones become a workflow timer.
	WorkflowTaskTimeout time.Duration
	// FailureConverter converts its failure to and from the marker's (the
	// run's when nil): the activity's serialization context is not the
	// workflow's.
	FailureConverter FailureConverter
}

// LocalActivityOutcome is how the worker's attempts at a local activity
// ended.
type LocalActivityOutcome struct {
	Result *commonpb.Payloads
	Err    error
	// Attempt is the last attempt made.
	Attempt int32
	// Backoff, with Err, asks the code to retry after this long (through a
	// workflow timer): longer than the worker waits inside a task.
	Backoff time.Duration
}

// LocalActivityResult is what the workflow code learns: the result or the
// error, and, for a retry through a timer, the attempt and backoff.
type LocalActivityResult struct {
	Result  *commonpb.Payloads
	Err     error
	Attempt int32
	Backoff time.Duration
}

// localActivityMarkerData is the "data" detail of a LocalActivity marker;
// its field names are go.temporal.io/sdk's, so histories replay across
// the two SDKs.
type localActivityMarkerData struct {
	ActivityID   string
	ActivityType string
	ReplayTime   time.Time
	Attempt      int32
	Backoff      time.Duration
}

const detailResult = "result"

// localActivities are a run's local activities.
type localActivities struct {
	seq     int64
	pending map[string]*localActivity // by ID, until resolved
	order   []*localActivity          // requested and not yet started, in order
	// markers are the LocalActivity markers of the task being replayed.
	markers []*historypb.HistoryEvent
	// cancels are the IDs of running ones the code canceled since the
	// worker last heard.
	cancels []string
}

type localActivity struct {
	m    *commands.LocalActivity
	req  *LocalActivityRequest
	done func(LocalActivityResult)
	// summary is the marker's user metadata.
	summary string
	// groups are the marker's event group markers: those of the call
	// that scheduled it.
	groups []*sdkpb.EventGroupMarker
	// lastAttempt and backoff come with a failure that asks for a retry
	// through a timer.
	lastAttempt int32
	backoff     time.Duration
}

// ScheduleLocalActivity asks for a local activity; done runs once with its
// result. The request's ID is set here. Canceling the returned machine
// (through CancelLocalActivity) cancels the activity.
func (x *Run) ScheduleLocalActivity(req *LocalActivityRequest, summary string, done func(LocalActivityResult)) *commands.LocalActivity {
	las := &x.use().las
	las.seq++
	req.ID = strconv.FormatInt(las.seq, 10)
	req.WorkflowTaskTimeout = x.info.WorkflowTaskTimeout
	la := &localActivity{req: req, done: done, summary: summary, groups: x.book.EventGroups()}
	la.m = x.book.NewLocalActivity(req.ID, req.ActivityType, func(o commands.Outcome) { la.deliver(x, o) },
		func() { las.cancels = append(las.cancels, req.ID) })
	if las.pending == nil {
		las.pending = make(map[string]*localActivity)
	}
	las.pending[req.ID] = la
	las.order = append(las.order, la)
	return la.m
}

// CancelLocalActivity is the code canceling a local activity.
func (x *Run) CancelLocalActivity(m *commands.LocalActivity) error {
	if !m.Pending() {
		return nil
	}
	return m.Cancel()
}

// deliver hands an outcome to the code. A failure that asks for a retry
// through a timer carries its attempt and backoff in the marker.
func (la *localActivity) deliver(x *Run, o commands.Outcome) {
	r := LocalActivityResult{Result: o.Result}
	if o.Failure != nil {
		r.Result = nil
		r.Err = x.failureConverterOf(la.req).FailureToError(o.Failure)
		r.Attempt, r.Backoff = la.lastAttempt, la.backoff
	}
	la.done(r)
}

// failureConverterOf is what converts req's failures.
func (x *Run) failureConverterOf(req *LocalActivityRequest) FailureConverter {
	if req.FailureConverter != nil {
		return req.FailureConverter
	}
	return x.fc
}

// waitingForLocalActivities reports whether a live task must wait for
// local activities before it can end: the code waits for one, and the
// workflow is not closing.
func (x *Run) waitingForLocalActivities() bool {
	if x.replaying || x.queryOnly || x.closing != nil || x.closed {
		return false
	}
	return x.optional != nil && len(x.optional.las.pending) > 0
}

// localActivitiesToStart marks the requested local activities started and
// returns them, for the worker; those canceled before starting are not
// started: they resolve as canceled, as go.temporal.io/sdk records them.
func (x *Run) localActivitiesToStart() ([]*LocalActivityRequest, []*localActivity, error) {
	var start []*LocalActivityRequest
	var canceled []*localActivity
	las := &x.use().las
	for _, la := range las.order {
		switch la.m.State() {
		case commands.Created:
			if err := la.m.Start(); err != nil {
				return nil, nil, err
			}
			start = append(start, la.req)
		case commands.CanceledBeforeInitiated:
			canceled = append(canceled, la)
		}
	}
	las.order = las.order[:0]
	return start, canceled, nil
}

// ResolveLocalActivity records the outcome of a local activity the worker
// ran, wakes the code, and says whether the task may end now.
func (x *Run) ResolveLocalActivity(id string, o LocalActivityOutcome) (*TaskResult, error) {
	if err := x.unusable(); err != nil {
		return nil, err
	}
	res, err := x.resolveLive(id, o)
	if err != nil {
		x.use().failure = err
		return nil, x.classify(err)
	}
	x.book.Trim()
	return res, nil
}

func (x *Run) resolveLive(id string, o LocalActivityOutcome) (_ *TaskResult, err error) {
	defer recoverAt(&err, nil)
	la := x.use().las.pending[id]
	if la == nil || !x.waiting {
		return nil, fmt.Errorf("local activity %q: an outcome arrived for a local activity this task does not wait for", id)
	}
	replayTime := x.now.Add(x.opts.clock().Sub(x.nowLocal))
	if err := x.recordLocalActivity(la, o, replayTime); err != nil {
		return nil, err
	}
	if err := x.runCode(); err != nil {
		return nil, err
	}
	return x.endOfTask()
}

// recordLocalActivity records a local activity's outcome as its marker and
// delivers it to the code.
func (x *Run) recordLocalActivity(la *localActivity, o LocalActivityOutcome, replayTime time.Time) error {
	data := localActivityMarkerData{ActivityID: la.req.ID, ActivityType: la.req.ActivityType, ReplayTime: replayTime, Attempt: o.Attempt}
	details := map[string]*commonpb.Payloads{}
	outcome := commands.Outcome{}
	in := commands.InCompleted
	if o.Err != nil {
		data.Backoff = o.Backoff
		outcome.Failure = failure.ErrorToFailureInTask(x.failureConverterOf(la.req), o.Err)
		in = commands.InFailed
		if failure.IsCanceledError(o.Err) {
			in = commands.InCanceled
		}
	} else if o.Result != nil {
		details[detailResult] = o.Result
		outcome.Result = o.Result
	}
	p, err := x.dc.ToPayloads(data)
	if err != nil {
		return fmt.Errorf("local activity %q: encoding its marker: %w", la.req.ID, err)
	}
	details[detailData] = p
	metadata, err := x.userMetadata(la.summary)
	if err != nil {
		return err
	}
	previous := x.book.SetEventGroups(la.groups)
	x.book.RecordMarker(&commandpb.RecordMarkerCommandAttributes{MarkerName: MarkerLocalActivity, Details: details, Failure: outcome.Failure}, metadata)
	x.book.SetEventGroups(previous)
	x.advanceTime(replayTime)
	return x.resolveLocalActivity(la, in, outcome, o.Attempt, data.Backoff, nil)
}

func (x *Run) resolveLocalActivity(la *localActivity, in commands.Input, o commands.Outcome, attempt int32, backoff time.Duration, ev *historypb.HistoryEvent) error {
	delete(x.use().las.pending, la.req.ID)
	la.lastAttempt, la.backoff = attempt, backoff
	return la.m.Resolve(in, o, ev)
}

// resolveFromMarker delivers, in replay, the outcome a LocalActivity marker
// recorded, and adds the marker's command so that the event matches it.
func (x *Run) resolveFromMarker(ev *historypb.HistoryEvent) error {
	a := ev.GetMarkerRecordedEventAttributes()
	p, ok := a.GetDetails()[detailData]
	if !ok {
		return fmt.Errorf("LocalActivity marker at event %d lacks the %q detail", ev.GetEventId(), detailData)
	}
	var data localActivityMarkerData
	if err := x.dc.FromPayloads(p, &data); err != nil {
		return fmt.Errorf("LocalActivity marker at event %d: decoding %q: %w", ev.GetEventId(), detailData, err)
	}
	la := x.use().las.pending[data.ActivityID]
	if la == nil {
		return &commands.NondeterminismError{Event: ev, Reason: fmt.Sprintf(
			"history has the outcome of local activity %q (type %q) at event %d, but the workflow code has not asked for that local activity",
			data.ActivityID, data.ActivityType, ev.GetEventId())}
	}
	if data.ActivityType != "" && data.ActivityType != la.req.ActivityType {
		return &commands.NondeterminismError{Event: ev, Reason: fmt.Sprintf(
			"the workflow code ran local activity %q of type %q, but history recorded type %q for it at event %d",
			data.ActivityID, la.req.ActivityType, data.ActivityType, ev.GetEventId())}
	}
	outcome := commands.Outcome{Failure: a.GetFailure()}
	in := commands.InCompleted
	if f := a.GetFailure(); f != nil {
		in = commands.InFailed
		if f.GetCanceledFailureInfo() != nil {
			in = commands.InCanceled
		}
	} else {
		outcome.Result = a.GetDetails()[detailResult]
	}
	x.book.RecordMarker(&commandpb.RecordMarkerCommandAttributes{MarkerName: MarkerLocalActivity, Details: a.GetDetails(), Failure: a.GetFailure()}, ev.GetUserMetadata())
	x.advanceTime(data.ReplayTime)
	return x.resolveLocalActivity(la, in, outcome, data.Attempt, data.Backoff, ev)
}

// advanceTime moves workflow time to when a local activity ended, never
// back.
func (x *Run) advanceTime(t time.Time) {
	if t.After(x.now) {
		x.now = t
		x.nowLocal = x.opts.clock()
	}
}

// resolveCanceledBeforeStart records the local activities the code
// canceled before the worker started them.
func (x *Run) resolveCanceledBeforeStart(canceled []*localActivity) error {
	for _, la := range canceled {
		o := LocalActivityOutcome{Err: failure.NewCanceledError(), Attempt: la.req.Attempt}
		if err := x.recordLocalActivity(la, o, x.now.Add(x.opts.clock().Sub(x.nowLocal))); err != nil {
			return err
		}
	}
	return nil
}

// HeartbeatTask ends the task that waits for local activities before they
// are done, to keep it from timing out: it returns the commands so far,
// which the worker reports asking the server for a new task at once
// (ForceCreateNewWorkflowTask). The local activities go on running; their
// outcomes are recorded in that next task.
func (x *Run) HeartbeatTask() (*TaskResult, error) {
	if !x.waiting {
		return nil, errors.New("engine: HeartbeatTask called while no task waits for local activities")
	}
	x.waiting = false
	return &TaskResult{Commands: x.book.TakeCommands(), Messages: x.takeMessages(), NewFlags: x.flags.takeNew()}, nil
}

// WorkflowTaskTimeout is the run's workflow task timeout.
func (x *Run) WorkflowTaskTimeout() time.Duration {
	return x.info.WorkflowTaskTimeout
}
