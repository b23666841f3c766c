package compat

// The scenarios of TestStandaloneActivitiesMatchTheOfficialSDK: one source,
// spelled once for each SDK (TestStandaloneActivityScenariosAreOneSource
// checks that the two spellings differ only in the SDK they name). Each
// runs on its SDK's client against a worker of its SDK and describes what
// the caller and the activity saw, with IDs, run IDs and the task queue
// replaced, so that the two descriptions can be compared line by line.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	officialactivity "go.temporal.io/sdk/activity"
	official "go.temporal.io/sdk/client"
	officialtemporal "go.temporal.io/sdk/temporal"

	oursactivity "github.com/durable-go/sdk/activity"
	ours "github.com/durable-go/sdk/client"
	ourstemporal "github.com/durable-go/sdk/temporal"
)

// StandaloneActivitiesOurs are the activities the scenarios start.
type StandaloneActivitiesOurs struct {
	mu   sync.Mutex
	seen []string // how each attempt that ended on its context saw it
}

func (a *StandaloneActivitiesOurs) Greet(_ context.Context, name string) (string, error) {
	return "hello " + name, nil
}

func (a *StandaloneActivitiesOurs) Refuse(_ context.Context, why string) (string, error) {
	return "", ourstemporal.NewNonRetryableApplicationError("refused: "+why, "Refusal", nil, "detail")
}

// HeartbeatUntilDone heartbeats until its context ends; from its second
// attempt it returns "done" at once.
func (a *StandaloneActivitiesOurs) HeartbeatUntilDone(ctx context.Context) (string, error) {
	if oursactivity.GetInfo(ctx).Attempt > 1 {
		return "done", nil
	}
	for {
		oursactivity.RecordHeartbeat(ctx, "beat")
		select {
		case <-ctx.Done():
			a.mu.Lock()
			a.seen = append(a.seen, fmt.Sprintf("ctx.Err %s, cause %s", describeChain(ctx.Err()), describeChain(context.Cause(ctx))))
			a.mu.Unlock()
			return "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (a *StandaloneActivitiesOurs) Pending(context.Context) (string, error) {
	return "", oursactivity.ErrResultPending
}

func (a *StandaloneActivitiesOurs) hasSeen() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.seen) > 0
}

func (a *StandaloneActivitiesOurs) takeSeen() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	seen := a.seen
	a.seen = nil
	return seen
}

// StandaloneActivityScenariosOurs runs the scenarios on c, whose worker of
// acts polls taskQueue, and describes them. newID makes a fresh activity
// ID; say adds a line.
func StandaloneActivityScenariosOurs(ctx context.Context, c ours.Client, acts *StandaloneActivitiesOurs, taskQueue string, newID func() string, say func(string, ...any)) {
	options := func() ours.StartActivityOptions {
		return ours.StartActivityOptions{ID: newID(), TaskQueue: taskQueue, StartToCloseTimeout: 20 * time.Second, HeartbeatTimeout: 5 * time.Second}
	}
	waitForBeat := func(h ours.ActivityHandle) {
		for ctx.Err() == nil {
			if d, err := h.Describe(ctx, ours.DescribeActivityOptions{}); err != nil || d.TotalHeartbeatCount > 0 {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// waitForSeen waits (10 s at most) for a running attempt to see its
	// context end.
	waitForSeen := func() []string {
		for wait := time.Now().Add(10 * time.Second); ctx.Err() == nil && time.Now().Before(wait) && !acts.hasSeen(); {
			time.Sleep(50 * time.Millisecond)
		}
		return acts.takeSeen()
	}
	waitFor := func(h ours.ActivityHandle, state enumspb.PendingActivityState) {
		for ctx.Err() == nil {
			if d, err := h.Describe(ctx, ours.DescribeActivityOptions{}); err != nil || d.RunState == state {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	describe := func(h ours.ActivityHandle) {
		d, err := h.Describe(ctx, ours.DescribeActivityOptions{IncludeInput: true, IncludeOutcome: true, IncludeHeartbeatDetails: true, IncludeLastFailure: true})
		if err != nil {
			say("describe: %s", describeChain(err))
			return
		}
		say("describe: type %s, queue is ours %v, status %v, run state %v, attempt %d, timeouts %v %v %v %v, delay %v, retry %+v, priority %+v, canceled reason %q",
			d.ActivityType, d.TaskQueue == taskQueue, d.Status, d.RunState, d.Attempt,
			d.ScheduleToCloseTimeout, d.ScheduleToStartTimeout, d.StartToCloseTimeout, d.HeartbeatTimeout, d.StartDelay, d.RetryPolicy, d.Priority, d.CanceledReason)
		var input, result, details string
		inputErr, resultErr, detailsErr := d.GetInput(&input), d.GetResult(&result), d.GetHeartbeatDetails(&details)
		summary, summaryErr := d.GetSummary()
		staticDetails, staticErr := d.GetStaticDetails()
		say("describe payloads: input %v %q %s, result %v %q %s, heartbeat %v %q %s, outcome failure %v %s, last failure %v %s, summary %q %s, details %q %s",
			d.HasInput(), input, describeChain(inputErr), d.HasResult(), result, describeChain(resultErr), d.HasHeartbeatDetails(), details, describeChain(detailsErr),
			d.HasOutcomeFailure(), describeChain(d.GetOutcomeFailure()), d.HasLastFailure(), describeChain(d.GetLastFailure()),
			summary, describeChain(summaryErr), staticDetails, describeChain(staticErr))
	}

	// A result.
	o := options()
	o.Summary, o.StaticDetails = "greets", "greets\nsomeone"
	h, err := c.ExecuteActivity(ctx, o, acts.Greet, "Ada")
	say("start: error %s, run set %v", describeChain(err), err == nil && h.GetRunID() != "")
	if err == nil {
		var got string
		err = h.Get(ctx, &got)
		say("get: %q, %s", got, describeChain(err))
		describe(h)
		byID := c.GetActivityHandle(ours.GetActivityHandleOptions{ActivityID: o.ID})
		got = ""
		err = byID.Get(ctx, &got)
		say("by ID: run %q, get %q, %s", byID.GetRunID(), got, describeChain(err))
	}

	// A failure.
	h, err = c.ExecuteActivity(ctx, options(), "Refuse", "no")
	if err == nil {
		err = h.Get(ctx, nil)
		say("refused get: %s", describeChain(err))
		var appErr *ourstemporal.ApplicationError
		var detail string
		if errors.As(err, &appErr) {
			say("refused details: %s %q", describeChain(appErr.Details(&detail)), detail)
		}
		describe(h)
	}

	// Cancel.
	o = options()
	h, err = c.ExecuteActivity(ctx, o, acts.HeartbeatUntilDone)
	if err == nil {
		waitFor(h, enumspb.PENDING_ACTIVITY_STATE_STARTED)
		say("cancel: %s", describeChain(h.Cancel(ctx, ours.CancelActivityOptions{Reason: "not needed"})))
		say("canceled get: %s", describeChain(h.Get(ctx, nil)))
		say("canceled activity saw: %v", acts.takeSeen())
		describe(h)
		say("cancel again: %s", describeChain(h.Cancel(ctx, ours.CancelActivityOptions{})))
	}

	// Terminate.
	h, err = c.ExecuteActivity(ctx, options(), acts.HeartbeatUntilDone)
	if err == nil {
		waitForBeat(h)
		say("terminate: %s", describeChain(h.Terminate(ctx, ours.TerminateActivityOptions{Reason: "stop"})))
		say("terminated get: %s", describeChain(h.Get(ctx, nil)))
		describe(h)
		say("terminate again: %s", describeChain(h.Terminate(ctx, ours.TerminateActivityOptions{})))
		say("terminated activity saw: %v", waitForSeen())
	}

	// ID conflict and reuse.
	o = options()
	running, err := c.ExecuteActivity(ctx, o, acts.HeartbeatUntilDone)
	if err == nil {
		_, err = c.ExecuteActivity(ctx, o, acts.HeartbeatUntilDone)
		say("conflict: %s", describeChain(err))
		o.ActivityIDConflictPolicy = enumspb.ACTIVITY_ID_CONFLICT_POLICY_USE_EXISTING
		existing, err := c.ExecuteActivity(ctx, o, acts.HeartbeatUntilDone)
		say("use existing: %s, same run %v", describeChain(err), err == nil && existing.GetRunID() == running.GetRunID())
		waitForBeat(running)
		_ = running.Terminate(ctx, ours.TerminateActivityOptions{Reason: "conflict done"})
		_ = running.Get(ctx, nil)
		say("conflicting activity saw: %v", waitForSeen())
		o.ActivityIDConflictPolicy = enumspb.ACTIVITY_ID_CONFLICT_POLICY_UNSPECIFIED
		o.ActivityIDReusePolicy = enumspb.ACTIVITY_ID_REUSE_POLICY_REJECT_DUPLICATE
		_, err = c.ExecuteActivity(ctx, o, acts.HeartbeatUntilDone)
		say("reject duplicate: %s", describeChain(err))
		o.ActivityIDReusePolicy = enumspb.ACTIVITY_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
		reused, err := c.ExecuteActivity(ctx, o, acts.Greet, "again")
		say("allow duplicate failed only, after a termination: %s, new run %v", describeChain(err), err == nil && reused.GetRunID() != running.GetRunID())
		if err == nil {
			say("reused get: %s", describeChain(reused.Get(ctx, nil)))
		}
	}

	// Options, pause and unpause.
	h, err = c.ExecuteActivity(ctx, options(), acts.HeartbeatUntilDone)
	if err == nil {
		waitFor(h, enumspb.PENDING_ACTIVITY_STATE_STARTED)
		thirty := 30 * time.Second
		updated, err := h.UpdateOptions(ctx, ours.ActivityOptionsUpdate{
			StartToCloseTimeout: &ours.ActivityOptionChange[time.Duration]{Value: &thirty},
			RetryPolicy:         &ours.ActivityOptionChange[ourstemporal.RetryPolicy]{Value: &ourstemporal.RetryPolicy{MaximumAttempts: 5, InitialInterval: time.Second}},
		})
		if updated != nil {
			say("updated: %v %v %v, retry %+v, %s", updated.StartToCloseTimeout, updated.HeartbeatTimeout, updated.TaskQueue == taskQueue, updated.RetryPolicy, describeChain(err))
		}
		restored, err := h.RestoreOriginalOptions(ctx)
		if restored != nil {
			say("restored: %v %v, retry %+v, %s", restored.StartToCloseTimeout, restored.HeartbeatTimeout, restored.RetryPolicy, describeChain(err))
		}
		_, err = h.UpdateOptions(ctx, ours.ActivityOptionsUpdate{})
		say("empty update refused: %v", err != nil)
		say("pause: %s", describeChain(h.Pause(ctx, ours.PauseActivityOptions{Reason: "maintenance"})))
		waitFor(h, enumspb.PENDING_ACTIVITY_STATE_PAUSED)
		say("paused activity saw: %v", waitForSeen())
		describe(h)
		say("pause again: %s", describeChain(h.Pause(ctx, ours.PauseActivityOptions{})))
		say("unpause: %s", describeChain(h.Unpause(ctx, ours.UnpauseActivityOptions{Reason: "over", Jitter: time.Millisecond})))
		var got string
		err = h.Get(ctx, &got)
		say("unpaused get: %q %s", got, describeChain(err))
		say("unpause a closed one: %s", describeChain(h.Unpause(ctx, ours.UnpauseActivityOptions{})))
	}

	// Completion by activity ID.
	o = options()
	h, err = c.ExecuteActivity(ctx, o, acts.Pending)
	if err == nil {
		waitFor(h, enumspb.PENDING_ACTIVITY_STATE_STARTED)
		say("complete by ID: %s", describeChain(c.CompleteActivityByActivityID(ctx, "default", o.ID, "", "from outside", nil)))
		var got string
		err = h.Get(ctx, &got)
		say("completed get: %q %s", got, describeChain(err))
		say("complete a closed one: %s", describeChain(c.CompleteActivityByActivityID(ctx, "default", o.ID, "", "again", nil)))
	}
	o = options()
	h, err = c.ExecuteActivity(ctx, o, acts.Pending)
	if err == nil {
		waitFor(h, enumspb.PENDING_ACTIVITY_STATE_STARTED)
		say("cancel before: %s", describeChain(h.Cancel(ctx, ours.CancelActivityOptions{Reason: "asked"})))
		err = c.CompleteActivityByActivityIDWithOptions(ctx, ours.CompleteActivityByActivityIDOptions{
			Namespace: "default", ActivityID: o.ID, ActivityRunID: h.GetRunID(), Err: ourstemporal.NewCanceledError("from outside"),
		})
		say("cancel by ID: %s", describeChain(err))
		say("canceled by ID get: %s", describeChain(h.Get(ctx, nil)))
	}

	// An unknown activity.
	unknown := c.GetActivityHandle(ours.GetActivityHandleOptions{ActivityID: newID()})
	_, err = unknown.Describe(ctx, ours.DescribeActivityOptions{})
	say("describe unknown: %s", describeChain(err))
	say("cancel unknown: %s", describeChain(unknown.Cancel(ctx, ours.CancelActivityOptions{})))

	// List and count, once visibility has them all.
	query := fmt.Sprintf("TaskQueue = %q", taskQueue)
	var count *ours.CountActivitiesResult
	for wait := time.Now().Add(10 * time.Second); ctx.Err() == nil && time.Now().Before(wait); {
		if count, err = c.CountActivities(ctx, ours.CountActivitiesOptions{Query: query + " AND ExecutionStatus != 'Running'"}); err != nil || count.Count >= 9 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	grouped, err := c.CountActivities(ctx, ours.CountActivitiesOptions{Query: query + " GROUP BY ExecutionStatus"})
	if err == nil {
		groups := map[string]int64{}
		for _, g := range grouped.Groups {
			groups[fmt.Sprint(g.GroupValues)] = g.Count
		}
		say("count: %d, groups %v", grouped.Count, groups)
	} else {
		say("count: %s", describeChain(err))
	}
	list, err := c.ListActivities(ctx, ours.ListActivitiesOptions{Query: query + " AND ActivityType = 'Greet'"})
	if err == nil {
		n := 0
		for info, err := range list.Results {
			if err != nil {
				say("list: %s", describeChain(err))
				break
			}
			n++
			if info.RawExecutionListInfo == nil || info.TaskQueue != taskQueue || info.ActivityType != "Greet" {
				say("list: odd entry %+v", info)
			}
		}
		say("list Greet: %d", n)
	}
	_, err = c.CountActivities(ctx, ours.CountActivitiesOptions{Query: "NoSuchField = 1"})
	say("bad query: %s", describeChain(err))
}

// StandaloneActivitiesOfficial are the activities the scenarios start.
type StandaloneActivitiesOfficial struct {
	mu   sync.Mutex
	seen []string // how each attempt that ended on its context saw it
}

func (a *StandaloneActivitiesOfficial) Greet(_ context.Context, name string) (string, error) {
	return "hello " + name, nil
}

func (a *StandaloneActivitiesOfficial) Refuse(_ context.Context, why string) (string, error) {
	return "", officialtemporal.NewNonRetryableApplicationError("refused: "+why, "Refusal", nil, "detail")
}

// HeartbeatUntilDone heartbeats until its context ends; from its second
// attempt it returns "done" at once.
func (a *StandaloneActivitiesOfficial) HeartbeatUntilDone(ctx context.Context) (string, error) {
	if officialactivity.GetInfo(ctx).Attempt > 1 {
		return "done", nil
	}
	for {
		officialactivity.RecordHeartbeat(ctx, "beat")
		select {
		case <-ctx.Done():
			a.mu.Lock()
			a.seen = append(a.seen, fmt.Sprintf("ctx.Err %s, cause %s", describeChain(ctx.Err()), describeChain(context.Cause(ctx))))
			a.mu.Unlock()
			return "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (a *StandaloneActivitiesOfficial) Pending(context.Context) (string, error) {
	return "", officialactivity.ErrResultPending
}

func (a *StandaloneActivitiesOfficial) hasSeen() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.seen) > 0
}

func (a *StandaloneActivitiesOfficial) takeSeen() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	seen := a.seen
	a.seen = nil
	return seen
}

// StandaloneActivityScenariosOfficial runs the scenarios on c, whose worker of
// acts polls taskQueue, and describes them. newID makes a fresh activity
// ID; say adds a line.
func StandaloneActivityScenariosOfficial(ctx context.Context, c official.Client, acts *StandaloneActivitiesOfficial, taskQueue string, newID func() string, say func(string, ...any)) {
	options := func() official.StartActivityOptions {
		return official.StartActivityOptions{ID: newID(), TaskQueue: taskQueue, StartToCloseTimeout: 20 * time.Second, HeartbeatTimeout: 5 * time.Second}
	}
	waitForBeat := func(h official.ActivityHandle) {
		for ctx.Err() == nil {
			if d, err := h.Describe(ctx, official.DescribeActivityOptions{}); err != nil || d.TotalHeartbeatCount > 0 {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// waitForSeen waits (10 s at most) for a running attempt to see its
	// context end.
	waitForSeen := func() []string {
		for wait := time.Now().Add(10 * time.Second); ctx.Err() == nil && time.Now().Before(wait) && !acts.hasSeen(); {
			time.Sleep(50 * time.Millisecond)
		}
		return acts.takeSeen()
	}
	waitFor := func(h official.ActivityHandle, state enumspb.PendingActivityState) {
		for ctx.Err() == nil {
			if d, err := h.Describe(ctx, official.DescribeActivityOptions{}); err != nil || d.RunState == state {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	describe := func(h official.ActivityHandle) {
		d, err := h.Describe(ctx, official.DescribeActivityOptions{IncludeInput: true, IncludeOutcome: true, IncludeHeartbeatDetails: true, IncludeLastFailure: true})
		if err != nil {
			say("describe: %s", describeChain(err))
			return
		}
		say("describe: type %s, queue is ours %v, status %v, run state %v, attempt %d, timeouts %v %v %v %v, delay %v, retry %+v, priority %+v, canceled reason %q",
			d.ActivityType, d.TaskQueue == taskQueue, d.Status, d.RunState, d.Attempt,
			d.ScheduleToCloseTimeout, d.ScheduleToStartTimeout, d.StartToCloseTimeout, d.HeartbeatTimeout, d.StartDelay, d.RetryPolicy, d.Priority, d.CanceledReason)
		var input, result, details string
		inputErr, resultErr, detailsErr := d.GetInput(&input), d.GetResult(&result), d.GetHeartbeatDetails(&details)
		summary, summaryErr := d.GetSummary()
		staticDetails, staticErr := d.GetStaticDetails()
		say("describe payloads: input %v %q %s, result %v %q %s, heartbeat %v %q %s, outcome failure %v %s, last failure %v %s, summary %q %s, details %q %s",
			d.HasInput(), input, describeChain(inputErr), d.HasResult(), result, describeChain(resultErr), d.HasHeartbeatDetails(), details, describeChain(detailsErr),
			d.HasOutcomeFailure(), describeChain(d.GetOutcomeFailure()), d.HasLastFailure(), describeChain(d.GetLastFailure()),
			summary, describeChain(summaryErr), staticDetails, describeChain(staticErr))
	}

	// A result.
	o := options()
	o.Summary, o.StaticDetails = "greets", "greets\nsomeone"
	h, err := c.ExecuteActivity(ctx, o, acts.Greet, "Ada")
	say("start: error %s, run set %v", describeChain(err), err == nil && h.GetRunID() != "")
	if err == nil {
		var got string
		err = h.Get(ctx, &got)
		say("get: %q, %s", got, describeChain(err))
		describe(h)
		byID := c.GetActivityHandle(official.GetActivityHandleOptions{ActivityID: o.ID})
		got = ""
		err = byID.Get(ctx, &got)
		say("by ID: run %q, get %q, %s", byID.GetRunID(), got, describeChain(err))
	}

	// A failure.
	h, err = c.ExecuteActivity(ctx, options(), "Refuse", "no")
	if err == nil {
		err = h.Get(ctx, nil)
		say("refused get: %s", describeChain(err))
		var appErr *officialtemporal.ApplicationError
		var detail string
		if errors.As(err, &appErr) {
			say("refused details: %s %q", describeChain(appErr.Details(&detail)), detail)
		}
		describe(h)
	}

	// Cancel.
	o = options()
	h, err = c.ExecuteActivity(ctx, o, acts.HeartbeatUntilDone)
	if err == nil {
		waitFor(h, enumspb.PENDING_ACTIVITY_STATE_STARTED)
		say("cancel: %s", describeChain(h.Cancel(ctx, official.CancelActivityOptions{Reason: "not needed"})))
		say("canceled get: %s", describeChain(h.Get(ctx, nil)))
		say("canceled activity saw: %v", acts.takeSeen())
		describe(h)
		say("cancel again: %s", describeChain(h.Cancel(ctx, official.CancelActivityOptions{})))
	}

	// Terminate.
	h, err = c.ExecuteActivity(ctx, options(), acts.HeartbeatUntilDone)
	if err == nil {
		waitForBeat(h)
		say("terminate: %s", describeChain(h.Terminate(ctx, official.TerminateActivityOptions{Reason: "stop"})))
		say("terminated get: %s", describeChain(h.Get(ctx, nil)))
		describe(h)
		say("terminate again: %s", describeChain(h.Terminate(ctx, official.TerminateActivityOptions{})))
		say("terminated activity saw: %v", waitForSeen())
	}

	// ID conflict and reuse.
	o = options()
	running, err := c.ExecuteActivity(ctx, o, acts.HeartbeatUntilDone)
	if err == nil {
		_, err = c.ExecuteActivity(ctx, o, acts.HeartbeatUntilDone)
		say("conflict: %s", describeChain(err))
		o.ActivityIDConflictPolicy = enumspb.ACTIVITY_ID_CONFLICT_POLICY_USE_EXISTING
		existing, err := c.ExecuteActivity(ctx, o, acts.HeartbeatUntilDone)
		say("use existing: %s, same run %v", describeChain(err), err == nil && existing.GetRunID() == running.GetRunID())
		waitForBeat(running)
		_ = running.Terminate(ctx, official.TerminateActivityOptions{Reason: "conflict done"})
		_ = running.Get(ctx, nil)
		say("conflicting activity saw: %v", waitForSeen())
		o.ActivityIDConflictPolicy = enumspb.ACTIVITY_ID_CONFLICT_POLICY_UNSPECIFIED
		o.ActivityIDReusePolicy = enumspb.ACTIVITY_ID_REUSE_POLICY_REJECT_DUPLICATE
		_, err = c.ExecuteActivity(ctx, o, acts.HeartbeatUntilDone)
		say("reject duplicate: %s", describeChain(err))
		o.ActivityIDReusePolicy = enumspb.ACTIVITY_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
		reused, err := c.ExecuteActivity(ctx, o, acts.Greet, "again")
		say("allow duplicate failed only, after a termination: %s, new run %v", describeChain(err), err == nil && reused.GetRunID() != running.GetRunID())
		if err == nil {
			say("reused get: %s", describeChain(reused.Get(ctx, nil)))
		}
	}

	// Options, pause and unpause.
	h, err = c.ExecuteActivity(ctx, options(), acts.HeartbeatUntilDone)
	if err == nil {
		waitFor(h, enumspb.PENDING_ACTIVITY_STATE_STARTED)
		thirty := 30 * time.Second
		updated, err := h.UpdateOptions(ctx, official.ActivityOptionsUpdate{
			StartToCloseTimeout: &official.ActivityOptionChange[time.Duration]{Value: &thirty},
			RetryPolicy:         &official.ActivityOptionChange[officialtemporal.RetryPolicy]{Value: &officialtemporal.RetryPolicy{MaximumAttempts: 5, InitialInterval: time.Second}},
		})
		if updated != nil {
			say("updated: %v %v %v, retry %+v, %s", updated.StartToCloseTimeout, updated.HeartbeatTimeout, updated.TaskQueue == taskQueue, updated.RetryPolicy, describeChain(err))
		}
		restored, err := h.RestoreOriginalOptions(ctx)
		if restored != nil {
			say("restored: %v %v, retry %+v, %s", restored.StartToCloseTimeout, restored.HeartbeatTimeout, restored.RetryPolicy, describeChain(err))
		}
		_, err = h.UpdateOptions(ctx, official.ActivityOptionsUpdate{})
		say("empty update refused: %v", err != nil)
		say("pause: %s", describeChain(h.Pause(ctx, official.PauseActivityOptions{Reason: "maintenance"})))
		waitFor(h, enumspb.PENDING_ACTIVITY_STATE_PAUSED)
		say("paused activity saw: %v", waitForSeen())
		describe(h)
		say("pause again: %s", describeChain(h.Pause(ctx, official.PauseActivityOptions{})))
		say("unpause: %s", describeChain(h.Unpause(ctx, official.UnpauseActivityOptions{Reason: "over", Jitter: time.Millisecond})))
		var got string
		err = h.Get(ctx, &got)
		say("unpaused get: %q %s", got, describeChain(err))
		say("unpause a closed one: %s", describeChain(h.Unpause(ctx, official.UnpauseActivityOptions{})))
	}

	// Completion by activity ID.
	o = options()
	h, err = c.ExecuteActivity(ctx, o, acts.Pending)
	if err == nil {
		waitFor(h, enumspb.PENDING_ACTIVITY_STATE_STARTED)
		say("complete by ID: %s", describeChain(c.CompleteActivityByActivityID(ctx, "default", o.ID, "", "from outside", nil)))
		var got string
		err = h.Get(ctx, &got)
		say("completed get: %q %s", got, describeChain(err))
		say("complete a closed one: %s", describeChain(c.CompleteActivityByActivityID(ctx, "default", o.ID, "", "again", nil)))
	}
	o = options()
	h, err = c.ExecuteActivity(ctx, o, acts.Pending)
	if err == nil {
		waitFor(h, enumspb.PENDING_ACTIVITY_STATE_STARTED)
		say("cancel before: %s", describeChain(h.Cancel(ctx, official.CancelActivityOptions{Reason: "asked"})))
		err = c.CompleteActivityByActivityIDWithOptions(ctx, official.CompleteActivityByActivityIDOptions{
			Namespace: "default", ActivityID: o.ID, ActivityRunID: h.GetRunID(), Err: officialtemporal.NewCanceledError("from outside"),
		})
		say("cancel by ID: %s", describeChain(err))
		say("canceled by ID get: %s", describeChain(h.Get(ctx, nil)))
	}

	// An unknown activity.
	unknown := c.GetActivityHandle(official.GetActivityHandleOptions{ActivityID: newID()})
	_, err = unknown.Describe(ctx, official.DescribeActivityOptions{})
	say("describe unknown: %s", describeChain(err))
	say("cancel unknown: %s", describeChain(unknown.Cancel(ctx, official.CancelActivityOptions{})))

	// List and count, once visibility has them all.
	query := fmt.Sprintf("TaskQueue = %q", taskQueue)
	var count *official.CountActivitiesResult
	for wait := time.Now().Add(10 * time.Second); ctx.Err() == nil && time.Now().Before(wait); {
		if count, err = c.CountActivities(ctx, official.CountActivitiesOptions{Query: query + " AND ExecutionStatus != 'Running'"}); err != nil || count.Count >= 9 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	grouped, err := c.CountActivities(ctx, official.CountActivitiesOptions{Query: query + " GROUP BY ExecutionStatus"})
	if err == nil {
		groups := map[string]int64{}
		for _, g := range grouped.Groups {
			groups[fmt.Sprint(g.GroupValues)] = g.Count
		}
		say("count: %d, groups %v", grouped.Count, groups)
	} else {
		say("count: %s", describeChain(err))
	}
	list, err := c.ListActivities(ctx, official.ListActivitiesOptions{Query: query + " AND ActivityType = 'Greet'"})
	if err == nil {
		n := 0
		for info, err := range list.Results {
			if err != nil {
				say("list: %s", describeChain(err))
				break
			}
			n++
			if info.RawExecutionListInfo == nil || info.TaskQueue != taskQueue || info.ActivityType != "Greet" {
				say("list: odd entry %+v", info)
			}
		}
		say("list Greet: %d", n)
	}
	_, err = c.CountActivities(ctx, official.CountActivitiesOptions{Query: "NoSuchField = 1"})
	say("bad query: %s", describeChain(err))
}
