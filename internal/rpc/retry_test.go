package rpc

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func startWorkflow(c *Conn, ctx context.Context) error {
	_, err := c.WorkflowService().StartWorkflowExecution(ctx, &workflowservice.StartWorkflowExecutionRequest{Namespace: "default", WorkflowId: "wf"})
	return err
}

func TestRetriesUnavailableUntilSuccess(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: fastRetries})
	f.failNext("StartWorkflowExecution", serviceerror.NewUnavailable("down"), serviceerror.NewUnavailable("still down"))

	must(t, startWorkflow(c, context.Background()))
	wantCalls(t, f, "StartWorkflowExecution", 3)
}

func TestDoesNotRetryInvalidArgument(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: fastRetries})
	f.failNext("StartWorkflowExecution", serviceerror.NewInvalidArgument("bad request"))

	err := startWorkflow(c, context.Background())

	var invalid *serviceerror.InvalidArgument
	if !errors.As(err, &invalid) || invalid.Message != "bad request" {
		t.Errorf("got %T %v, want *serviceerror.InvalidArgument", err, err)
	}
	wantCalls(t, f, "StartWorkflowExecution", 1)
}

func TestErrorsAreConvertedToServiceErrors(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: fastRetries})
	f.failNext("StartWorkflowExecution", serviceerror.NewWorkflowExecutionAlreadyStarted("exists", "req", "run-0"))

	err := startWorkflow(c, context.Background())

	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if !errors.As(err, &started) || started.RunId != "run-0" {
		t.Errorf("got %T %v, want *serviceerror.WorkflowExecutionAlreadyStarted for run-0", err, err)
	}
}

// A call that keeps failing with a retryable error is retried until the
// caller's deadline, then returns *serviceerror.DeadlineExceeded quoting
// the last failure, as go.temporal.io/sdk returns it (issue 32 item 5).
func TestRetryGoesOnUntilTheCallersDeadline(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: RetryPolicy{InitialInterval: 20 * time.Millisecond}})
	for range 1000 {
		f.failNext("StartWorkflowExecution", serviceerror.NewUnavailable("down"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()

	err := startWorkflow(c, ctx)

	if deadline, _ := ctx.Deadline(); time.Now().Before(deadline) {
		t.Errorf("returned %v before the caller's deadline", err)
	}
	if _, ok := err.(*serviceerror.DeadlineExceeded); !ok || !strings.Contains(err.Error(), "down") {
		t.Errorf("got %T %v, want *serviceerror.DeadlineExceeded quoting the last failure", err, err)
	}
	if n := f.count("StartWorkflowExecution"); n <= 2 {
		t.Errorf("only %d attempts", n)
	}
}

func TestRetryStopsAfterMaximumElapsedWithoutDeadline(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: RetryPolicy{
		InitialInterval: 10 * time.Millisecond,
		MaximumInterval: 10 * time.Millisecond,
		MaximumElapsed:  200 * time.Millisecond,
	}})
	for range 1000 {
		f.failNext("StartWorkflowExecution", serviceerror.NewUnavailable("down"))
	}

	start := time.Now()
	err := startWorkflow(c, context.Background())
	elapsed := time.Since(start)

	wantCode(t, err, codes.Unavailable)
	if elapsed < 150*time.Millisecond || elapsed > 2*time.Second {
		t.Errorf("gave up after %v, want about 200ms", elapsed)
	}
}

func TestCancelStopsRetries(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: RetryPolicy{InitialInterval: time.Hour}})
	f.failNext("StartWorkflowExecution", serviceerror.NewUnavailable("down"))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)

	start := time.Now()
	err := startWorkflow(c, ctx)

	if err == nil {
		t.Fatal("want an error")
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("returned %v after cancel", elapsed)
	}
	wantCalls(t, f, "StartWorkflowExecution", 1)
}

func TestWithoutRetriesAttemptsOnce(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: fastRetries})
	f.failNext("StartWorkflowExecution", serviceerror.NewUnavailable("down"))

	err := startWorkflow(c, WithoutRetries(context.Background()))

	wantCode(t, err, codes.Unavailable)
	wantCalls(t, f, "StartWorkflowExecution", 1)
}

func TestNamespaceRateLimitIsNotRetriedButOverloadIs(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: fastRetries})
	f.failNext("StartWorkflowExecution", &serviceerror.ResourceExhausted{
		Cause: enumspb.RESOURCE_EXHAUSTED_CAUSE_RPS_LIMIT, Scope: enumspb.RESOURCE_EXHAUSTED_SCOPE_NAMESPACE, Message: "namespace rps",
	})

	err := startWorkflow(c, context.Background())

	var exhausted *serviceerror.ResourceExhausted
	if !errors.As(err, &exhausted) || exhausted.Scope != enumspb.RESOURCE_EXHAUSTED_SCOPE_NAMESPACE {
		t.Errorf("got %T %v, want a namespace-scoped *serviceerror.ResourceExhausted", err, err)
	}
	wantCalls(t, f, "StartWorkflowExecution", 1)

	f.failNext("StartWorkflowExecution", &serviceerror.ResourceExhausted{
		Cause: enumspb.RESOURCE_EXHAUSTED_CAUSE_SYSTEM_OVERLOADED, Scope: enumspb.RESOURCE_EXHAUSTED_SCOPE_SYSTEM, Message: "busy",
	})
	must(t, startWorkflow(c, context.Background()))
	wantCalls(t, f, "StartWorkflowExecution", 3)
}

func TestInternalIsRetriedUntilServerSaysItIsFinal(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: fastRetries})
	f.failNext("StartWorkflowExecution", serviceerror.NewInternal("blip"))
	must(t, startWorkflow(c, context.Background()))
	wantCalls(t, f, "StartWorkflowExecution", 2)

	f.set(func(f *fakeServer) { f.internalFinal = true })
	_, err := c.SystemInfo(context.Background())
	must(t, err)
	f.failNext("StartWorkflowExecution", serviceerror.NewInternal("bug"))

	err = startWorkflow(c, context.Background())

	var internal *serviceerror.Internal
	if !errors.As(err, &internal) {
		t.Errorf("got %T %v, want *serviceerror.Internal", err, err)
	}
	wantCalls(t, f, "StartWorkflowExecution", 3)
}

func TestLostAttemptIsRetriedWithinCallerDeadline(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: RetryPolicy{InitialInterval: time.Millisecond, AttemptTimeout: 100 * time.Millisecond}})
	f.delayNext("StartWorkflowExecution", time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	must(t, startWorkflow(c, ctx))
	wantCalls(t, f, "StartWorkflowExecution", 2)
}

func TestBackoffGrowsAndStaysWithinBounds(t *testing.T) {
	p := RetryPolicy{InitialInterval: 100 * time.Millisecond, MaximumInterval: time.Second, Jitter: 0.2}.withDefaults()
	now := time.Now()
	ctx := context.Background()
	for attempt, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		want *= time.Millisecond
		low, high := time.Duration(float64(want)*0.8), time.Duration(float64(want)*1.2)
		for range 50 {
			if got := p.backoff(ctx, attempt, now); got < low || got > high {
				t.Fatalf("attempt %d: backoff %v outside [%v, %v]", attempt, got, low, high)
			}
		}
	}

	// A close deadline caps the wait at a tenth of the time left.
	short, cancel := context.WithDeadline(ctx, now.Add(2*time.Second))
	defer cancel()
	if got, limit := p.backoff(short, 5, now), 240*time.Millisecond; got > limit {
		t.Errorf("backoff %v with 2s left, want at most %v", got, limit)
	}
}

func TestRetryPolicyDefaults(t *testing.T) {
	got := RetryPolicy{}.withDefaults()
	if got != DefaultRetryPolicy() {
		t.Errorf("zero policy became %+v, want %+v", got, DefaultRetryPolicy())
	}
	if got.AttemptTimeout != 10*time.Second || got.LongPollAttemptTimeout != 70*time.Second {
		t.Errorf("attempt timeouts %v / %v, want 10s / 70s", got.AttemptTimeout, got.LongPollAttemptTimeout)
	}
}

func TestIsRetryable(t *testing.T) {
	bufferLost := serviceerror.NewWorkflowTaskCompletionBufferLost("pages lost")
	tooLarge := serviceerror.NewResourceExhausted(enumspb.RESOURCE_EXHAUSTED_CAUSE_UNSPECIFIED,
		"grpc: received message larger than max (5000000 vs. 4194304)")
	for _, tc := range []struct {
		name            string
		err             error
		internalIsFinal bool
		want            bool
	}{
		{"unavailable", serviceerror.NewUnavailable("x"), false, true},
		{"unknown", errors.New("plain error"), false, true},
		{"aborted", serviceerror.NewAborted("x"), false, true},
		{"completion buffer lost", bufferLost, false, false},
		{"resource exhausted", serviceerror.NewResourceExhausted(enumspb.RESOURCE_EXHAUSTED_CAUSE_CONCURRENT_LIMIT, "x"), false, true},
		{"message too large", tooLarge, false, false},
		{"internal, old server", serviceerror.NewInternal("x"), false, true},
		{"internal, server differentiates", serviceerror.NewInternal("x"), true, false},
		{"invalid argument", serviceerror.NewInvalidArgument("x"), false, false},
		{"not found", serviceerror.NewNotFound("x"), false, false},
		{"already started", serviceerror.NewWorkflowExecutionAlreadyStarted("x", "", ""), false, false},
		{"permission denied", serviceerror.NewPermissionDenied("x", ""), false, false},
		{"deadline exceeded", serviceerror.NewDeadlineExceeded("x"), false, false},
		{"canceled", serviceerror.NewCanceled("x"), false, false},
	} {
		if got := IsRetryable(tc.err, tc.internalIsFinal); got != tc.want {
			t.Errorf("%s: IsRetryable = %v, want %v", tc.name, got, tc.want)
		}
	}
	if !IsMessageTooLarge(tooLarge) {
		t.Error("IsMessageTooLarge missed gRPC's size error")
	}
	if IsMessageTooLarge(serviceerror.NewResourceExhausted(enumspb.RESOURCE_EXHAUSTED_CAUSE_RPS_LIMIT, "x")) {
		t.Error("IsMessageTooLarge took a rate limit for a size error")
	}
}

func TestMayWait(t *testing.T) {
	p := RetryPolicy{MaximumElapsed: time.Second}.withDefaults()
	now := time.Now()
	soon, cancel := context.WithDeadline(context.Background(), now.Add(150*time.Millisecond))
	defer cancel()
	later, cancelLater := context.WithDeadline(context.Background(), now.Add(time.Second))
	defer cancelLater()

	for _, tc := range []struct {
		name         string
		ctx          context.Context
		firstFailure time.Time
		wait         time.Duration
		want         bool
	}{
		{"little left after the wait: retry until the deadline", soon, now, 100 * time.Millisecond, true},
		{"enough left", later, now, 100 * time.Millisecond, true},
		{"less left than the wait: wait until the deadline", later, now, 600 * time.Millisecond, true},
		{"no deadline, within budget", context.Background(), now.Add(-500 * time.Millisecond), 400 * time.Millisecond, true},
		{"no deadline, budget spent", context.Background(), now.Add(-900 * time.Millisecond), 200 * time.Millisecond, false},
	} {
		if got := p.mayWait(tc.ctx, tc.firstFailure, now, tc.wait); got != tc.want {
			t.Errorf("%s: mayWait = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestACallItsContextEndedIsTheServiceError: a call its context ended
// returns what go.temporal.io/sdk returns, a *serviceerror.DeadlineExceeded
// or a *serviceerror.Canceled (code written for it asserts the type, issue
// 32 item 5), whether the context ended during an attempt or during the
// wait before a retry.
func TestACallItsContextEndedIsTheServiceError(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})
	f.delayNext("StartWorkflowExecution", 2*time.Second, 2*time.Second)

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := startWorkflow(c, ctx)
	if _, ok := err.(*serviceerror.DeadlineExceeded); !ok || err.Error() != "context deadline exceeded" {
		t.Errorf("past its deadline: %T %q; want a *serviceerror.DeadlineExceeded saying so once", err, err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	err = startWorkflow(c, ctx)
	if _, ok := err.(*serviceerror.Canceled); !ok {
		t.Errorf("canceled: %T %q; want a *serviceerror.Canceled", err, err)
	}

	slowRetries := Options{Retry: RetryPolicy{InitialInterval: time.Hour, MaximumInterval: time.Hour, MaximumElapsed: 2 * time.Hour}}
	c = dialFake(t, f, slowRetries)
	f.failNext("StartWorkflowExecution", serviceerror.NewUnavailable("down"))
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	err = startWorkflow(c, ctx)
	if _, ok := err.(*serviceerror.Canceled); !ok || err.Error() != "context canceled (retrying: down)" {
		t.Errorf("canceled while waiting to retry: %T %q; want a *serviceerror.Canceled that names the failure retried", err, err)
	}
}

// TestWhatACallItsContextEndedReturns: the error a call returns once its
// context has ended, for each error gRPC may give it.
func TestWhatACallItsContextEndedReturns(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name    string
		ctx     context.Context
		call    error
		want    error // its type is the one wanted
		message string
	}{
		{"deadline", expired, status.Error(codes.DeadlineExceeded, "context deadline exceeded"), &serviceerror.DeadlineExceeded{}, "context deadline exceeded"},
		{"deadline, stream reset", expired, status.Error(codes.Canceled, "stream terminated by RST_STREAM with error code: CANCEL"), &serviceerror.DeadlineExceeded{}, "context deadline exceeded"},
		{"deadline while retrying", expired, status.Error(codes.Unavailable, "connection refused"), &serviceerror.DeadlineExceeded{}, "context deadline exceeded (retrying: connection refused)"},
		{"canceled", canceled, status.Error(codes.Canceled, "context canceled"), &serviceerror.Canceled{}, "context canceled"},
		{"the server's answer", expired, status.Error(codes.NotFound, "no such workflow"), &serviceerror.NotFound{}, "no such workflow"},
		{"in time", context.Background(), status.Error(codes.DeadlineExceeded, "the server's deadline"), &serviceerror.DeadlineExceeded{}, "the server's deadline"},
	}
	for _, c := range cases {
		invoker := func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error { return c.call }
		err := convertErrorsInterceptor(c.ctx, "/m", nil, nil, nil, invoker)
		if reflect.TypeOf(err) != reflect.TypeOf(c.want) || err.Error() != c.message {
			t.Errorf("%s: %T %q; want %T %q", c.name, err, err, c.want, c.message)
		}
	}
}
