package compat

// The activities, workflow and scenarios of
// TestActivityOperationsMatchTheOfficialSDK: one source, spelled once for
// each SDK (TestActivityOperationScenariosAreOneSource checks that the two
// spellings differ only in the SDK they name).

import (
	"context"
	"fmt"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	officialactivity "go.temporal.io/sdk/activity"
	official "go.temporal.io/sdk/client"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialworkflow "go.temporal.io/sdk/workflow"

	oursactivity "github.com/durable-go/sdk/activity"
	ours "github.com/durable-go/sdk/client"
	ourstemporal "github.com/durable-go/sdk/temporal"
	oursworkflow "github.com/durable-go/sdk/workflow"
)

// OperatedActivitiesOurs are the activities of a workflow that the
// scenarios operate on.
type OperatedActivitiesOurs struct {
	mu     sync.Mutex
	calls  map[string]int // by workflow ID
	seen   []string       // how each attempt that ended on its context saw it
	tokens chan []byte    // the task tokens of Async
}

func NewOperatedActivitiesOurs() *OperatedActivitiesOurs {
	return &OperatedActivitiesOurs{calls: map[string]int{}, tokens: make(chan []byte, 10)}
}

// Working heartbeats until its context ends, on its workflow's first
// call; later calls say which call and attempt they are.
func (a *OperatedActivitiesOurs) Working(ctx context.Context) (string, error) {
	info := oursactivity.GetInfo(ctx)
	a.mu.Lock()
	a.calls[info.WorkflowExecution.ID]++
	call := a.calls[info.WorkflowExecution.ID]
	a.mu.Unlock()
	if call > 1 {
		return fmt.Sprintf("call %d, attempt %d, heartbeat timeout %v", call, info.Attempt, info.HeartbeatTimeout), nil
	}
	for {
		oursactivity.RecordHeartbeat(ctx, "working")
		select {
		case <-ctx.Done():
			a.mu.Lock()
			a.seen = append(a.seen, fmt.Sprintf("ctx.Err %s, cause %s", describeChain(ctx.Err()), describeChain(context.Cause(ctx))))
			a.mu.Unlock()
			return "", ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Async completes asynchronously: it hands its task token over.
func (a *OperatedActivitiesOurs) Async(ctx context.Context) (string, error) {
	a.tokens <- oursactivity.GetInfo(ctx).TaskToken
	return "", oursactivity.ErrResultPending
}

func (a *OperatedActivitiesOurs) takeSeen() []string {
	for wait := time.Now().Add(10 * time.Second); time.Now().Before(wait); time.Sleep(50 * time.Millisecond) {
		a.mu.Lock()
		seen := a.seen
		a.seen = nil
		a.mu.Unlock()
		if len(seen) > 0 {
			return seen
		}
	}
	return nil
}

// OperatedWorkflowOurs runs the activity named once, as "op", and says
// how it ended.
func OperatedWorkflowOurs(ctx oursworkflow.Context, activityName string) (string, error) {
	ctx = oursworkflow.WithActivityOptions(ctx, oursworkflow.ActivityOptions{ActivityID: "op",
		StartToCloseTimeout: time.Minute, HeartbeatTimeout: 2 * time.Second,
		RetryPolicy: &ourstemporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaximumAttempts: 5}})
	var out string
	err := oursworkflow.ExecuteActivity(ctx, activityName).Get(ctx, &out)
	return fmt.Sprintf("result %q, error %s", out, describeChain(err)), nil
}

// OperatedActivityScenariosOurs pauses, unpauses, resets and updates the
// options of a workflow's running activity through the service's
// activity operations, and heartbeats an asynchronous one from c.
func OperatedActivityScenariosOurs(ctx context.Context, c ours.Client, acts *OperatedActivitiesOurs, taskQueue string, newID func() string, say func(string, ...any)) {
	ops := activityOperator{service: c.WorkflowService()}
	start := func(activityName string) (ours.WorkflowRun, string) {
		id := newID()
		run, err := c.ExecuteWorkflow(ctx, ours.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, "OperatedWorkflow", activityName)
		if err != nil {
			say("start: %s", describeChain(err))
		}
		return run, id
	}
	result := func(run ours.WorkflowRun) {
		if run == nil {
			return
		}
		var out string
		err := run.Get(ctx, &out)
		say("workflow: %s %s", out, describeChain(err))
	}

	// Pause, update the options, unpause with jitter.
	run, id := start("Working")
	ops.waitForHeartbeat(ctx, id)
	say("pause: %s", describeChain(ops.pause(ctx, id)))
	say("paused activity saw: %v", acts.takeSeen())
	say("paused state: %s", ops.state(ctx, id, enumspb.PENDING_ACTIVITY_STATE_PAUSED))
	say("update: %s", ops.update(ctx, id, 3*time.Second))
	say("unpause: %s", describeChain(ops.unpause(ctx, id, time.Millisecond)))
	result(run)

	// Reset.
	run, id = start("Working")
	ops.waitForHeartbeat(ctx, id)
	say("reset: %s", describeChain(ops.reset(ctx, id)))
	say("reset activity saw: %v", acts.takeSeen())
	result(run)

	// An asynchronous activity's heartbeats from a client.
	run, id = start("Async")
	var token []byte
	select {
	case token = <-acts.tokens:
	case <-ctx.Done():
		say("no task token")
		return
	}
	say("heartbeat: %s", describeChain(c.RecordActivityHeartbeat(ctx, token, "beat")))
	say("pause: %s", describeChain(ops.pause(ctx, id)))
	say("heartbeat when paused: %s", describeChain(c.RecordActivityHeartbeat(ctx, token, "beat")))
	say("heartbeat by ID when paused: %s", describeChain(c.RecordActivityHeartbeatByID(ctx, "default", id, "", "op", "beat")))
	say("unpause: %s", describeChain(ops.unpause(ctx, id, 0)))
	say("heartbeat when unpaused: %s", describeChain(c.RecordActivityHeartbeat(ctx, token, "beat")))
	say("complete: %s", describeChain(c.CompleteActivity(ctx, token, "async done", nil)))
	result(run)
}

// OperatedActivitiesOfficial are the activities of a workflow that the
// scenarios operate on.
type OperatedActivitiesOfficial struct {
	mu     sync.Mutex
	calls  map[string]int // by workflow ID
	seen   []string       // how each attempt that ended on its context saw it
	tokens chan []byte    // the task tokens of Async
}

func NewOperatedActivitiesOfficial() *OperatedActivitiesOfficial {
	return &OperatedActivitiesOfficial{calls: map[string]int{}, tokens: make(chan []byte, 10)}
}

// Working heartbeats until its context ends, on its workflow's first
// call; later calls say which call and attempt they are.
func (a *OperatedActivitiesOfficial) Working(ctx context.Context) (string, error) {
	info := officialactivity.GetInfo(ctx)
	a.mu.Lock()
	a.calls[info.WorkflowExecution.ID]++
	call := a.calls[info.WorkflowExecution.ID]
	a.mu.Unlock()
	if call > 1 {
		return fmt.Sprintf("call %d, attempt %d, heartbeat timeout %v", call, info.Attempt, info.HeartbeatTimeout), nil
	}
	for {
		officialactivity.RecordHeartbeat(ctx, "working")
		select {
		case <-ctx.Done():
			a.mu.Lock()
			a.seen = append(a.seen, fmt.Sprintf("ctx.Err %s, cause %s", describeChain(ctx.Err()), describeChain(context.Cause(ctx))))
			a.mu.Unlock()
			return "", ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Async completes asynchronously: it hands its task token over.
func (a *OperatedActivitiesOfficial) Async(ctx context.Context) (string, error) {
	a.tokens <- officialactivity.GetInfo(ctx).TaskToken
	return "", officialactivity.ErrResultPending
}

func (a *OperatedActivitiesOfficial) takeSeen() []string {
	for wait := time.Now().Add(10 * time.Second); time.Now().Before(wait); time.Sleep(50 * time.Millisecond) {
		a.mu.Lock()
		seen := a.seen
		a.seen = nil
		a.mu.Unlock()
		if len(seen) > 0 {
			return seen
		}
	}
	return nil
}

// OperatedWorkflowOfficial runs the activity named once, as "op", and says
// how it ended.
func OperatedWorkflowOfficial(ctx officialworkflow.Context, activityName string) (string, error) {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{ActivityID: "op",
		StartToCloseTimeout: time.Minute, HeartbeatTimeout: 2 * time.Second,
		RetryPolicy: &officialtemporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaximumAttempts: 5}})
	var out string
	err := officialworkflow.ExecuteActivity(ctx, activityName).Get(ctx, &out)
	return fmt.Sprintf("result %q, error %s", out, describeChain(err)), nil
}

// OperatedActivityScenariosOfficial pauses, unpauses, resets and updates the
// options of a workflow's running activity through the service's
// activity operations, and heartbeats an asynchronous one from c.
func OperatedActivityScenariosOfficial(ctx context.Context, c official.Client, acts *OperatedActivitiesOfficial, taskQueue string, newID func() string, say func(string, ...any)) {
	ops := activityOperator{service: c.WorkflowService()}
	start := func(activityName string) (official.WorkflowRun, string) {
		id := newID()
		run, err := c.ExecuteWorkflow(ctx, official.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, "OperatedWorkflow", activityName)
		if err != nil {
			say("start: %s", describeChain(err))
		}
		return run, id
	}
	result := func(run official.WorkflowRun) {
		if run == nil {
			return
		}
		var out string
		err := run.Get(ctx, &out)
		say("workflow: %s %s", out, describeChain(err))
	}

	// Pause, update the options, unpause with jitter.
	run, id := start("Working")
	ops.waitForHeartbeat(ctx, id)
	say("pause: %s", describeChain(ops.pause(ctx, id)))
	say("paused activity saw: %v", acts.takeSeen())
	say("paused state: %s", ops.state(ctx, id, enumspb.PENDING_ACTIVITY_STATE_PAUSED))
	say("update: %s", ops.update(ctx, id, 3*time.Second))
	say("unpause: %s", describeChain(ops.unpause(ctx, id, time.Millisecond)))
	result(run)

	// Reset.
	run, id = start("Working")
	ops.waitForHeartbeat(ctx, id)
	say("reset: %s", describeChain(ops.reset(ctx, id)))
	say("reset activity saw: %v", acts.takeSeen())
	result(run)

	// An asynchronous activity's heartbeats from a client.
	run, id = start("Async")
	var token []byte
	select {
	case token = <-acts.tokens:
	case <-ctx.Done():
		say("no task token")
		return
	}
	say("heartbeat: %s", describeChain(c.RecordActivityHeartbeat(ctx, token, "beat")))
	say("pause: %s", describeChain(ops.pause(ctx, id)))
	say("heartbeat when paused: %s", describeChain(c.RecordActivityHeartbeat(ctx, token, "beat")))
	say("heartbeat by ID when paused: %s", describeChain(c.RecordActivityHeartbeatByID(ctx, "default", id, "", "op", "beat")))
	say("unpause: %s", describeChain(ops.unpause(ctx, id, 0)))
	say("heartbeat when unpaused: %s", describeChain(c.RecordActivityHeartbeat(ctx, token, "beat")))
	say("complete: %s", describeChain(c.CompleteActivity(ctx, token, "async done", nil)))
	result(run)
}
