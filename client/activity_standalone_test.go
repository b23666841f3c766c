package client_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Standalone activities on the dev server, as a user starts and operates
// them: the client starts the activity, a worker runs it.

// skipWithoutStandaloneActivities skips on the Temporal CLI's server 1.29,
// which has no standalone activities (server 1.31 and later).
func skipWithoutStandaloneActivities(t *testing.T) {
	t.Helper()
	testharness.NeedsDevServer(t, "standalone activities")
	if os.Getenv(devserver.TargetEnv) == "1.29" {
		t.Skipf("%s=1.29: server 1.29 has no standalone activities (1.31 and later); durable-devserver (server %s) has them", devserver.TargetEnv, devserver.DevServerVersion)
	}
}

// standaloneActivities are the activities of these tests, with what they
// saw.
type standaloneActivities struct {
	mu     sync.Mutex
	errs   []error // ctx.Err() of each attempt that ended on its context
	causes []error // and context.Cause
}

func (a *standaloneActivities) Greet(_ context.Context, name string) (string, error) {
	return "hello " + name, nil
}

func (a *standaloneActivities) Refuse(_ context.Context, why string) (string, error) {
	return "", temporal.NewNonRetryableApplicationError("refused: "+why, "Refusal", nil, "detail")
}

// HeartbeatUntilDone heartbeats until its context ends and returns its
// error; from the second attempt it returns "done" at once, so that an
// unpaused activity completes.
func (a *standaloneActivities) HeartbeatUntilDone(ctx context.Context) (string, error) {
	if activity.GetInfo(ctx).Attempt > 1 {
		return "done", nil
	}
	for {
		activity.RecordHeartbeat(ctx, "beat")
		select {
		case <-ctx.Done():
			a.mu.Lock()
			a.errs = append(a.errs, ctx.Err())
			a.causes = append(a.causes, context.Cause(ctx))
			a.mu.Unlock()
			return "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Pending completes asynchronously, by activity ID.
func (a *standaloneActivities) Pending(context.Context) (string, error) {
	return "", activity.ErrResultPending
}

func (a *standaloneActivities) seenErrs() []error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.errs)
}

func (a *standaloneActivities) seenCauses() []error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.causes)
}

// startStandaloneWorker runs a worker of the activities on a task queue of
// its own, and returns the queue.
func startStandaloneWorker(t *testing.T, c client.Client, acts *standaloneActivities) string {
	t.Helper()
	taskQueue := workflowID(t)
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterActivity(acts)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return taskQueue
}

func standaloneOptions(t *testing.T, taskQueue string) client.StartActivityOptions {
	return client.StartActivityOptions{ID: workflowID(t), TaskQueue: taskQueue, StartToCloseTimeout: 20 * time.Second}
}

func TestStandaloneActivityResultAndDescription(t *testing.T) {
	skipWithoutStandaloneActivities(t)
	c := dial(t)
	acts := &standaloneActivities{}
	taskQueue := startStandaloneWorker(t, c, acts)
	ctx := ctxFor(t)

	options := standaloneOptions(t, taskQueue)
	options.Summary, options.StaticDetails = "greets", "greets someone\nby name"
	handle, err := c.ExecuteActivity(ctx, options, acts.Greet, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	if handle.GetID() != options.ID || handle.GetRunID() == "" {
		t.Fatalf("handle is %q run %q; want %q and a run ID", handle.GetID(), handle.GetRunID(), options.ID)
	}
	var got string
	if err := handle.Get(ctx, &got); err != nil || got != "hello Ada" {
		t.Fatalf("Get = %q, %v; want hello Ada", got, err)
	}

	// A handle by ID alone reaches the same activity.
	byID := c.GetActivityHandle(client.GetActivityHandleOptions{ActivityID: options.ID})
	if byID.GetRunID() != "" {
		t.Errorf("GetActivityHandle without a run ID: GetRunID = %q, want empty", byID.GetRunID())
	}
	got = ""
	if err := byID.Get(ctx, &got); err != nil || got != "hello Ada" {
		t.Fatalf("Get by ID = %q, %v; want hello Ada", got, err)
	}
	d, err := byID.Describe(ctx, client.DescribeActivityOptions{IncludeInput: true, IncludeOutcome: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.ActivityID != options.ID || d.ActivityRunID != handle.GetRunID() || d.ActivityType != "Greet" || d.TaskQueue != taskQueue {
		t.Errorf("Describe: ID %q run %q type %q queue %q; want %q %q Greet %q", d.ActivityID, d.ActivityRunID, d.ActivityType, d.TaskQueue, options.ID, handle.GetRunID(), taskQueue)
	}
	if d.Status != enumspb.ACTIVITY_EXECUTION_STATUS_COMPLETED || d.StartToCloseTimeout != 20*time.Second || d.Attempt != 1 {
		t.Errorf("Describe: status %v, start-to-close %v, attempt %d; want completed, 20s, 1", d.Status, d.StartToCloseTimeout, d.Attempt)
	}
	var input string
	if !d.HasInput() || d.GetInput(&input) != nil || input != "Ada" {
		t.Errorf("Describe input: has %v, %q; want Ada", d.HasInput(), input)
	}
	var result string
	if !d.HasResult() || d.GetResult(&result) != nil || result != "hello Ada" || d.HasOutcomeFailure() || d.GetOutcomeFailure() != nil {
		t.Errorf("Describe outcome: has result %v %q, failure %v; want hello Ada and no failure", d.HasResult(), result, d.GetOutcomeFailure())
	}
	if s, err := d.GetSummary(); err != nil || s != "greets" {
		t.Errorf("GetSummary = %q, %v", s, err)
	}
	if s, err := d.GetStaticDetails(); err != nil || s != "greets someone\nby name" {
		t.Errorf("GetStaticDetails = %q, %v", s, err)
	}
	// Without IncludeOutcome the result is not there.
	d, err = byID.Describe(ctx, client.DescribeActivityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.HasResult() || !errors.Is(d.GetResult(&result), temporal.ErrNoData) || d.HasInput() {
		t.Errorf("Describe without payloads: HasResult %v, HasInput %v", d.HasResult(), d.HasInput())
	}
}

func TestStandaloneActivityFailure(t *testing.T) {
	skipWithoutStandaloneActivities(t)
	c := dial(t)
	acts := &standaloneActivities{}
	taskQueue := startStandaloneWorker(t, c, acts)
	ctx := ctxFor(t)

	handle, err := c.ExecuteActivity(ctx, standaloneOptions(t, taskQueue), "Refuse", "no")
	if err != nil {
		t.Fatal(err)
	}
	err = handle.Get(ctx, nil)
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != "Refusal" || appErr.Message() != "refused: no" || !appErr.NonRetryable() {
		t.Fatalf("Get = %T %v; want the activity's non-retryable ApplicationError Refusal", err, err)
	}
	var detail string
	if err := appErr.Details(&detail); err != nil || detail != "detail" {
		t.Errorf("details = %q, %v", detail, err)
	}
	d, err := handle.Describe(ctx, client.DescribeActivityOptions{IncludeOutcome: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != enumspb.ACTIVITY_EXECUTION_STATUS_FAILED || !d.HasOutcomeFailure() || !errors.As(d.GetOutcomeFailure(), &appErr) || appErr.Type() != "Refusal" {
		t.Errorf("Describe: status %v, outcome failure %v", d.Status, d.GetOutcomeFailure())
	}
}

func TestStandaloneActivityCancelAndTerminate(t *testing.T) {
	skipWithoutStandaloneActivities(t)
	c := dial(t)
	acts := &standaloneActivities{}
	taskQueue := startStandaloneWorker(t, c, acts)
	ctx := ctxFor(t)

	options := standaloneOptions(t, taskQueue)
	options.HeartbeatTimeout = 5 * time.Second
	handle, err := c.ExecuteActivity(ctx, options, acts.HeartbeatUntilDone)
	if err != nil {
		t.Fatal(err)
	}
	waitForAttempt(t, handle)
	if err := handle.Cancel(ctx, client.CancelActivityOptions{Reason: "no longer needed"}); err != nil {
		t.Fatal(err)
	}
	err = handle.Get(ctx, nil)
	var canceled *temporal.CanceledError
	if !errors.As(err, &canceled) {
		t.Fatalf("Get after Cancel = %T %v; want a CanceledError", err, err)
	}
	if errs := acts.seenErrs(); len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
		t.Errorf("the activity's context ended with %v; want context.Canceled", errs)
	}
	d, err := handle.Describe(ctx, client.DescribeActivityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != enumspb.ACTIVITY_EXECUTION_STATUS_CANCELED || d.CanceledReason != "no longer needed" {
		t.Errorf("Describe after Cancel: status %v, reason %q", d.Status, d.CanceledReason)
	}

	options = standaloneOptions(t, taskQueue)
	handle, err = c.ExecuteActivity(ctx, options, acts.HeartbeatUntilDone)
	if err != nil {
		t.Fatal(err)
	}
	waitForAttempt(t, handle)
	if err := handle.Terminate(ctx, client.TerminateActivityOptions{Reason: "stop now"}); err != nil {
		t.Fatal(err)
	}
	err = handle.Get(ctx, nil)
	var terminated *temporal.TerminatedError
	if !errors.As(err, &terminated) {
		t.Fatalf("Get after Terminate = %T %v; want a TerminatedError", err, err)
	}
	if d, err = handle.Describe(ctx, client.DescribeActivityOptions{}); err != nil || d.Status != enumspb.ACTIVITY_EXECUTION_STATUS_TERMINATED {
		t.Errorf("Describe after Terminate: %v, %v", d.Status, err)
	}
	// A second terminate finds the activity closed.
	var notFound *serviceerror.NotFound
	if err := handle.Terminate(ctx, client.TerminateActivityOptions{}); err == nil {
		t.Errorf("Terminate of a closed activity: no error")
	} else if !errors.As(err, &notFound) {
		var failedPrecondition *serviceerror.FailedPrecondition
		if !errors.As(err, &failedPrecondition) {
			t.Logf("Terminate of a closed activity: %T %v", err, err)
		}
	}
}

// waitForAttempt waits until the activity's first attempt has started.
func waitForAttempt(t *testing.T, handle client.ActivityHandle) {
	t.Helper()
	ctx := ctxFor(t)
	for {
		d, err := handle.Describe(ctx, client.DescribeActivityOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d.RunState == enumspb.PENDING_ACTIVITY_STATE_STARTED {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the activity's attempt never started: %v", d.RunState)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func TestStandaloneActivityIDPolicies(t *testing.T) {
	skipWithoutStandaloneActivities(t)
	c := dial(t)
	acts := &standaloneActivities{}
	taskQueue := startStandaloneWorker(t, c, acts)
	ctx := ctxFor(t)

	options := standaloneOptions(t, taskQueue)
	running, err := c.ExecuteActivity(ctx, options, acts.HeartbeatUntilDone)
	if err != nil {
		t.Fatal(err)
	}
	// Another start with the ID of a running activity fails by default...
	_, err = c.ExecuteActivity(ctx, options, acts.HeartbeatUntilDone)
	var started *serviceerror.ActivityExecutionAlreadyStarted
	if !errors.As(err, &started) {
		t.Fatalf("second start: %T %v; want ActivityExecutionAlreadyStarted", err, err)
	}
	// ...and returns the running one with USE_EXISTING.
	options.ActivityIDConflictPolicy = enumspb.ACTIVITY_ID_CONFLICT_POLICY_USE_EXISTING
	existing, err := c.ExecuteActivity(ctx, options, acts.HeartbeatUntilDone)
	if err != nil {
		t.Fatal(err)
	}
	if existing.GetRunID() != running.GetRunID() {
		t.Errorf("USE_EXISTING: run %q, want the running %q", existing.GetRunID(), running.GetRunID())
	}
	if err := running.Terminate(ctx, client.TerminateActivityOptions{Reason: "test"}); err != nil {
		t.Fatal(err)
	}

	// Once closed, the ID is reused by default, and refused with
	// REJECT_DUPLICATE.
	options = standaloneOptions(t, taskQueue)
	first, err := c.ExecuteActivity(ctx, options, acts.Greet, "one")
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	second, err := c.ExecuteActivity(ctx, options, acts.Greet, "two")
	if err != nil {
		t.Fatal(err)
	}
	if second.GetRunID() == first.GetRunID() {
		t.Errorf("reuse: the second start has the first's run ID")
	}
	var got string
	if err := second.Get(ctx, &got); err != nil || got != "hello two" {
		t.Fatalf("second Get = %q, %v", got, err)
	}
	// The first run still answers by its run ID.
	got = ""
	if err := c.GetActivityHandle(client.GetActivityHandleOptions{ActivityID: options.ID, RunID: first.GetRunID()}).Get(ctx, &got); err != nil || got != "hello one" {
		t.Errorf("first run by run ID = %q, %v", got, err)
	}
	options.ActivityIDReusePolicy = enumspb.ACTIVITY_ID_REUSE_POLICY_REJECT_DUPLICATE
	if _, err := c.ExecuteActivity(ctx, options, acts.Greet, "three"); !errors.As(err, &started) {
		t.Errorf("REJECT_DUPLICATE start: %T %v; want ActivityExecutionAlreadyStarted", err, err)
	}
}

func TestStandaloneActivityListAndCount(t *testing.T) {
	skipWithoutStandaloneActivities(t)
	c := dial(t)
	acts := &standaloneActivities{}
	taskQueue := startStandaloneWorker(t, c, acts)
	ctx := ctxFor(t)

	ids := map[string]bool{}
	for i := range 3 {
		options := standaloneOptions(t, taskQueue)
		handle, err := c.ExecuteActivity(ctx, options, acts.Greet, fmt.Sprint(i))
		if err != nil {
			t.Fatal(err)
		}
		if err := handle.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
		ids[options.ID] = true
	}
	query := fmt.Sprintf("TaskQueue = %q", taskQueue)
	// Visibility is eventually consistent: wait for all three.
	for {
		count, err := c.CountActivities(ctx, client.CountActivitiesOptions{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		if count.Count == 3 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("CountActivities(%s) = %d, want 3", query, count.Count)
		case <-time.After(100 * time.Millisecond):
		}
	}
	list, err := c.ListActivities(ctx, client.ListActivitiesOptions{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for info, err := range list.Results {
		if err != nil {
			t.Fatal(err)
		}
		if info.ActivityType != "Greet" || info.TaskQueue != taskQueue || info.RawExecutionListInfo == nil {
			t.Errorf("listed %+v", info)
		}
		seen[info.ActivityID] = true
	}
	if len(seen) != 3 || !seen[firstKey(ids)] {
		t.Errorf("ListActivities listed %v; want %v", seen, ids)
	}
	grouped, err := c.CountActivities(ctx, client.CountActivitiesOptions{Query: query + " GROUP BY ExecutionStatus"})
	if err != nil {
		t.Fatal(err)
	}
	if grouped.Count != 3 || len(grouped.Groups) != 1 || grouped.Groups[0].Count != 3 || fmt.Sprint(grouped.Groups[0].GroupValues) != "[Completed]" {
		t.Errorf("CountActivities GROUP BY ExecutionStatus = %+v", grouped)
	}
	// A bad query is the server's InvalidArgument.
	var invalid *serviceerror.InvalidArgument
	if _, err := c.CountActivities(ctx, client.CountActivitiesOptions{Query: "NoSuchField = 1"}); !errors.As(err, &invalid) {
		t.Errorf("CountActivities with a bad query: %T %v", err, err)
	}
}

func firstKey(m map[string]bool) string {
	for k := range m {
		return k
	}
	return ""
}

func TestStandaloneActivityPauseUnpauseAndOptions(t *testing.T) {
	skipWithoutStandaloneActivities(t)
	c := dial(t)
	acts := &standaloneActivities{}
	taskQueue := startStandaloneWorker(t, c, acts)
	ctx := ctxFor(t)

	options := standaloneOptions(t, taskQueue)
	options.HeartbeatTimeout = 5 * time.Second
	handle, err := c.ExecuteActivity(ctx, options, acts.HeartbeatUntilDone)
	if err != nil {
		t.Fatal(err)
	}
	waitForAttempt(t, handle)

	updated, err := handle.UpdateOptions(ctx, client.ActivityOptionsUpdate{
		StartToCloseTimeout: &client.ActivityOptionChange[time.Duration]{Value: ptr(30 * time.Second)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if updated.StartToCloseTimeout != 30*time.Second || updated.HeartbeatTimeout != 5*time.Second || updated.TaskQueue != taskQueue {
		t.Errorf("UpdateOptions answered %+v; want start-to-close 30s, the rest unchanged", updated)
	}
	restored, err := handle.RestoreOriginalOptions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if restored.StartToCloseTimeout != 20*time.Second {
		t.Errorf("RestoreOriginalOptions answered start-to-close %v, want 20s", restored.StartToCloseTimeout)
	}
	if _, err := handle.UpdateOptions(ctx, client.ActivityOptionsUpdate{}); err == nil {
		t.Errorf("UpdateOptions with no change: no error")
	}

	if err := handle.Pause(ctx, client.PauseActivityOptions{Reason: "maintenance"}); err != nil {
		t.Fatal(err)
	}
	// The running attempt learns it at its next heartbeat: its context
	// ends with activity.ErrActivityPaused as the cause.
	for len(acts.seenCauses()) == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the paused activity's context never ended")
		case <-time.After(50 * time.Millisecond):
		}
	}
	if causes := acts.seenCauses(); !errors.Is(causes[0], activity.ErrActivityPaused) {
		t.Errorf("the paused attempt's context ended with %v; want activity.ErrActivityPaused", causes[0])
	}
	waitForRunState(t, handle, enumspb.PENDING_ACTIVITY_STATE_PAUSED)
	if err := handle.Unpause(ctx, client.UnpauseActivityOptions{Reason: "done", Jitter: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := handle.Get(ctx, &got); err != nil || got != "done" {
		t.Fatalf("Get after Unpause = %q, %v; want done (the second attempt's)", got, err)
	}
}

func waitForRunState(t *testing.T, handle client.ActivityHandle, want enumspb.PendingActivityState) {
	t.Helper()
	ctx := ctxFor(t)
	for {
		d, err := handle.Describe(ctx, client.DescribeActivityOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d.RunState == want {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("run state %v, want %v", d.RunState, want)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestStandaloneActivityCompleteByActivityID(t *testing.T) {
	skipWithoutStandaloneActivities(t)
	c := dial(t)
	acts := &standaloneActivities{}
	taskQueue := startStandaloneWorker(t, c, acts)
	ctx := ctxFor(t)

	options := standaloneOptions(t, taskQueue)
	handle, err := c.ExecuteActivity(ctx, options, acts.Pending)
	if err != nil {
		t.Fatal(err)
	}
	waitForAttempt(t, handle)
	if err := c.CompleteActivityByActivityID(ctx, "default", options.ID, "", "completed from outside", nil); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := handle.Get(ctx, &got); err != nil || got != "completed from outside" {
		t.Fatalf("Get = %q, %v", got, err)
	}

	options = standaloneOptions(t, taskQueue)
	if handle, err = c.ExecuteActivity(ctx, options, acts.Pending); err != nil {
		t.Fatal(err)
	}
	waitForAttempt(t, handle)
	err = c.CompleteActivityByActivityIDWithOptions(ctx, client.CompleteActivityByActivityIDOptions{
		Namespace: "default", ActivityID: options.ID, ActivityRunID: handle.GetRunID(),
		Err: temporal.NewNonRetryableApplicationError("failed from outside", "Outside", nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	var appErr *temporal.ApplicationError
	if err := handle.Get(ctx, nil); !errors.As(err, &appErr) || appErr.Type() != "Outside" {
		t.Fatalf("Get = %T %v; want ApplicationError Outside", err, err)
	}
	if err := c.CompleteActivityByActivityID(ctx, "", options.ID, "", nil, nil); err == nil {
		t.Errorf("CompleteActivityByActivityID without a namespace: no error")
	}
}

// activityCallRecorder records the standalone activity hooks called.
type activityCallRecorder struct {
	interceptor.ClientInterceptorBase
	mu    sync.Mutex
	calls []string
}

func (r *activityCallRecorder) record(call string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call)
}

func (r *activityCallRecorder) recorded() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

func (r *activityCallRecorder) InterceptClient(next interceptor.ClientOutboundInterceptor) interceptor.ClientOutboundInterceptor {
	return &activityCallOutbound{ClientOutboundInterceptorBase: interceptor.ClientOutboundInterceptorBase{Next: next}, r: r}
}

type activityCallOutbound struct {
	interceptor.ClientOutboundInterceptorBase
	r *activityCallRecorder
}

func (o *activityCallOutbound) ExecuteActivity(ctx context.Context, in *interceptor.ClientExecuteActivityInput) (client.ActivityHandle, error) {
	o.r.record("ExecuteActivity:" + in.ActivityType)
	return o.Next.ExecuteActivity(ctx, in)
}

func (o *activityCallOutbound) GetActivityHandle(in *interceptor.ClientGetActivityHandleInput) client.ActivityHandle {
	o.r.record("GetActivityHandle:" + in.ActivityID)
	return o.Next.GetActivityHandle(in)
}

func (o *activityCallOutbound) PollActivityResult(ctx context.Context, in *interceptor.ClientPollActivityResultInput) (*interceptor.ClientPollActivityResultOutput, error) {
	o.r.record("PollActivityResult")
	return o.Next.PollActivityResult(ctx, in)
}

func (o *activityCallOutbound) DescribeActivity(ctx context.Context, in *interceptor.ClientDescribeActivityInput) (*interceptor.ClientDescribeActivityOutput, error) {
	o.r.record("DescribeActivity")
	return o.Next.DescribeActivity(ctx, in)
}

func (o *activityCallOutbound) CancelActivity(ctx context.Context, in *interceptor.ClientCancelActivityInput) error {
	o.r.record("CancelActivity:" + in.Reason)
	return o.Next.CancelActivity(ctx, in)
}

func (o *activityCallOutbound) TerminateActivity(ctx context.Context, in *interceptor.ClientTerminateActivityInput) error {
	o.r.record("TerminateActivity:" + in.Reason)
	return o.Next.TerminateActivity(ctx, in)
}

func (o *activityCallOutbound) PauseActivity(ctx context.Context, in *interceptor.ClientPauseActivityInput) error {
	o.r.record("PauseActivity:" + in.Options.Reason)
	return o.Next.PauseActivity(ctx, in)
}

func (o *activityCallOutbound) UnpauseActivity(ctx context.Context, in *interceptor.ClientUnpauseActivityInput) error {
	o.r.record("UnpauseActivity:" + in.Options.Reason)
	return o.Next.UnpauseActivity(ctx, in)
}

func (o *activityCallOutbound) UpdateActivityOptions(ctx context.Context, in *interceptor.ClientUpdateActivityOptionsInput) (*interceptor.ClientUpdateActivityOptionsOutput, error) {
	o.r.record(fmt.Sprintf("UpdateActivityOptions:restore=%v", in.RestoreOriginal))
	return o.Next.UpdateActivityOptions(ctx, in)
}

func TestStandaloneActivityInterceptorHooks(t *testing.T) {
	skipWithoutStandaloneActivities(t)
	recorder := &activityCallRecorder{}
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Interceptors: []interceptor.ClientInterceptor{recorder}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	acts := &standaloneActivities{}
	taskQueue := startStandaloneWorker(t, c, acts)
	ctx := ctxFor(t)

	options := standaloneOptions(t, taskQueue)
	handle, err := c.ExecuteActivity(ctx, options, acts.HeartbeatUntilDone)
	if err != nil {
		t.Fatal(err)
	}
	h := c.GetActivityHandle(client.GetActivityHandleOptions{ActivityID: options.ID})
	if _, err := h.Describe(ctx, client.DescribeActivityOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.UpdateOptions(ctx, client.ActivityOptionsUpdate{HeartbeatTimeout: &client.ActivityOptionChange[time.Duration]{Value: ptr(time.Minute)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.RestoreOriginalOptions(ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.Pause(ctx, client.PauseActivityOptions{Reason: "p"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Unpause(ctx, client.UnpauseActivityOptions{Reason: "u"}); err != nil {
		t.Fatal(err)
	}
	// The unpaused activity may close at once, so the server may refuse
	// these two; the hooks are called all the same.
	_ = h.Terminate(ctx, client.TerminateActivityOptions{Reason: "t"})
	_ = h.Cancel(ctx, client.CancelActivityOptions{Reason: "c"})
	_ = handle.Get(ctx, nil)
	want := []string{
		"ExecuteActivity:HeartbeatUntilDone", "GetActivityHandle:" + options.ID, "DescribeActivity",
		"UpdateActivityOptions:restore=false", "UpdateActivityOptions:restore=true",
		"PauseActivity:p", "UnpauseActivity:u", "TerminateActivity:t", "CancelActivity:c", "PollActivityResult",
	}
	if got := recorder.recorded(); !slices.Equal(got, want) {
		t.Errorf("hooks called:\n got %v\nwant %v", got, want)
	}
}

// tenantKey is the context key of tenantPropagator's value.
type tenantKey struct{}

// tenantPropagator carries a tenant name in the "tenant" header field.
type tenantPropagator struct{}

func (tenantPropagator) Inject(ctx context.Context, w workflow.HeaderWriter) error {
	if tenant, ok := ctx.Value(tenantKey{}).(string); ok {
		payload, err := converter.GetDefaultDataConverter().ToPayload(tenant)
		if err != nil {
			return err
		}
		w.Set("tenant", payload)
	}
	return nil
}

func (tenantPropagator) Extract(ctx context.Context, r workflow.HeaderReader) (context.Context, error) {
	if payload, ok := r.Get("tenant"); ok {
		var tenant string
		if err := converter.GetDefaultDataConverter().FromPayload(payload, &tenant); err != nil {
			return nil, err
		}
		ctx = context.WithValue(ctx, tenantKey{}, tenant)
	}
	return ctx, nil
}

func (tenantPropagator) InjectFromWorkflow(workflow.Context, workflow.HeaderWriter) error { return nil }

func (tenantPropagator) ExtractToWorkflow(ctx workflow.Context, _ workflow.HeaderReader) (workflow.Context, error) {
	return ctx, nil
}

// A standalone activity's start carries the header that the client's
// context propagators write (the header a tracing interceptor's span
// travels in), and the activity's context has what they read from it.
func TestStandaloneActivityCarriesTheHeader(t *testing.T) {
	skipWithoutStandaloneActivities(t)
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), ContextPropagators: []workflow.ContextPropagator{tenantPropagator{}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	taskQueue := workflowID(t)
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterActivityWithOptions(func(ctx context.Context) (string, error) {
		tenant, _ := ctx.Value(tenantKey{}).(string)
		return "tenant " + tenant, nil
	}, activity.RegisterOptions{Name: "Tenant"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	ctx := context.WithValue(ctxFor(t), tenantKey{}, "acme")
	handle, err := c.ExecuteActivity(ctx, standaloneOptions(t, taskQueue), "Tenant")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := handle.Get(ctx, &got); err != nil || got != "tenant acme" {
		t.Fatalf("Get = %q, %v; want tenant acme", got, err)
	}
}
