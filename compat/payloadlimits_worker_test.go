package compat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	officialclient "go.temporal.io/sdk/client"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Payloads larger than the server takes (its blob size limit, 2 MiB on a
// dev server, which DescribeNamespace reports) and larger than the
// warning size (PayloadLimits, 512 KiB by default), sent by a worker of
// each SDK: what history records and what the worker logs.

const (
	tooLargeForTheServer = 2<<20 + 1000 // above the dev server's 2 MiB
	largeEnoughToWarn    = 600 << 10    // above the default 512 KiB warning
)

// LargeResult returns a string of size bytes.
func LargeResult(_ context.Context, size int) (string, error) { return strings.Repeat("x", size), nil }

func ReturnsLargeOurs(ctx workflow.Context, size int, viaActivity bool) (string, error) {
	if !viaActivity {
		return strings.Repeat("x", size), nil
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
	// Not decoded: decoding takes seconds under the race detector on a
	// busy machine, which the deadlock detector would take for a hang.
	return "activity done", workflow.ExecuteActivity(ctx, LargeResult, size).Get(ctx, nil)
}

func ReturnsLargeOfficial(ctx officialworkflow.Context, size int, viaActivity bool) (string, error) {
	if !viaActivity {
		return strings.Repeat("x", size), nil
	}
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &officialtemporal.RetryPolicy{MaximumAttempts: 1}})
	return "activity done", officialworkflow.ExecuteActivity(ctx, LargeResult, size).Get(ctx, nil)
}

// warningLog keeps the warnings a client's logger receives.
type warningLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *warningLog) Debug(string, ...any) {}
func (l *warningLog) Info(string, ...any)  {}
func (l *warningLog) Error(string, ...any) {}
func (l *warningLog) Warn(msg string, keyvals ...any) {
	if !strings.Contains(msg, "TMPRL1103") {
		return
	}
	// The message and the sizes: the other tags (task queue, worker ID)
	// differ between the two workers.
	line := msg
	for i := 0; i+1 < len(keyvals); i += 2 {
		if k := fmt.Sprint(keyvals[i]); strings.Contains(k, "Size") {
			line += fmt.Sprintf(" %s=%v", k, keyvals[i+1])
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
}

// distinct are the different warnings logged: a workflow task that
// fails is retried, and how many retries run before the test looks
// depends on timing.
func (l *warningLog) distinct() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := slices.Clone(l.lines)
	slices.Sort(lines)
	return slices.Compact(lines)
}

// payloadOutcome is what one run shows: the first workflow task failure
// (cause, failure message and type), an activity's failure, or the result;
// and the warnings logged.
type payloadOutcome struct {
	WorkflowTaskFailure string
	ActivityFailure     string
	Result              string
	Warnings            []string
}

// runPayloadsOurs runs ReturnsLarge(size, viaActivity) on a worker of
// this SDK (runPayloadsOfficial: of go.temporal.io/sdk).
func runPayloadsOurs(t *testing.T, size int, viaActivity, disableErrorLimit bool) payloadOutcome {
	logs := &warningLog{}
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := fmt.Sprintf("payload-limits-ours-%d", time.Now().UnixNano())
	w := worker.New(c, tq, worker.Options{DisablePayloadErrorLimit: disableErrorLimit})
	w.RegisterWorkflowWithOptions(ReturnsLargeOurs, workflow.RegisterOptions{Name: "ReturnsLarge"})
	w.RegisterActivity(LargeResult)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq, WorkflowExecutionTimeout: time.Minute}, "ReturnsLarge", size, viaActivity)
	if err != nil {
		t.Fatal(err)
	}
	out := payloadOutcomeOf(t, ctx, size, viaActivity, disableErrorLimit, func(ctx context.Context) []*historypb.HistoryEvent {
		var events []*historypb.HistoryEvent
		it := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			e, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			events = append(events, e)
		}
		return events
	})
	_ = c.TerminateWorkflow(ctx, run.GetID(), "", "test over")
	out.Warnings = logs.distinct()
	return out
}

func runPayloadsOfficial(t *testing.T, size int, viaActivity, disableErrorLimit bool) payloadOutcome {
	logs := &warningLog{}
	c, err := officialclient.Dial(officialclient.Options{HostPort: testharness.HostPort(t), Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := fmt.Sprintf("payload-limits-official-%d", time.Now().UnixNano())
	w := officialworker.New(c, tq, officialworker.Options{DisablePayloadErrorLimit: disableErrorLimit})
	w.RegisterWorkflowWithOptions(ReturnsLargeOfficial, officialworkflow.RegisterOptions{Name: "ReturnsLarge"})
	w.RegisterActivity(LargeResult)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{TaskQueue: tq, WorkflowExecutionTimeout: time.Minute}, "ReturnsLarge", size, viaActivity)
	if err != nil {
		t.Fatal(err)
	}
	out := payloadOutcomeOf(t, ctx, size, viaActivity, disableErrorLimit, func(ctx context.Context) []*historypb.HistoryEvent {
		var events []*historypb.HistoryEvent
		it := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			e, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			events = append(events, e)
		}
		return events
	})
	_ = c.TerminateWorkflow(ctx, run.GetID(), "", "test over")
	out.Warnings = logs.distinct()
	return out
}

// payloadOutcomeOf waits until history shows how the run went: a failed
// workflow task, or the run closed.
func payloadOutcomeOf(t *testing.T, ctx context.Context, size int, viaActivity, disableErrorLimit bool, history func(context.Context) []*historypb.HistoryEvent) payloadOutcome {
	t.Helper()
	for ctx.Err() == nil {
		var out payloadOutcome
		closed := false
		for _, e := range history(ctx) {
			switch e.GetEventType() {
			case enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED:
				a := e.GetWorkflowTaskFailedEventAttributes()
				if out.WorkflowTaskFailure == "" {
					out.WorkflowTaskFailure = fmt.Sprintf("cause %v: %q (type %q)", a.GetCause(), a.GetFailure().GetMessage(), a.GetFailure().GetApplicationFailureInfo().GetType())
				}
			case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
				f := e.GetActivityTaskFailedEventAttributes().GetFailure()
				out.ActivityFailure = fmt.Sprintf("%q (type %q, non-retryable %v)", f.GetMessage(), f.GetApplicationFailureInfo().GetType(), f.GetApplicationFailureInfo().GetNonRetryable())
			case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
				out.Result = fmt.Sprintf("completed, result of %d bytes", e.GetWorkflowExecutionCompletedEventAttributes().GetResult().Size())
				closed = true
			case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
				out.Result = "failed: " + e.GetWorkflowExecutionFailedEventAttributes().GetFailure().GetMessage()
				closed = true
			case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
				out.Result = "terminated: " + e.GetWorkflowExecutionTerminatedEventAttributes().GetReason()
				closed = true
			}
		}
		if closed || out.WorkflowTaskFailure != "" {
			return out
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("ReturnsLarge(%d, %v), DisablePayloadErrorLimit %v: history shows no outcome within a minute", size, viaActivity, disableErrorLimit)
	return payloadOutcome{}
}

func TestPayloadLimitsAreTheSameOnBothSDKs(t *testing.T) {
	for _, tc := range []struct {
		name              string
		size              int
		viaActivity       bool
		disableErrorLimit bool
	}{
		{"workflow result above the server's limit", tooLargeForTheServer, false, false},
		{"activity result above the server's limit", tooLargeForTheServer, true, false},
		{"workflow result above the warning size", largeEnoughToWarn, false, false},
		{"activity result above the warning size", largeEnoughToWarn, true, false},
		{"workflow result above the server's limit, check off", tooLargeForTheServer, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			official := runPayloadsOfficial(t, tc.size, tc.viaActivity, tc.disableErrorLimit)
			ours := runPayloadsOurs(t, tc.size, tc.viaActivity, tc.disableErrorLimit)
			if fmt.Sprintf("%+v", ours) != fmt.Sprintf("%+v", official) {
				t.Errorf("outcomes differ:\n ours:     %+v\n official: %+v", ours, official)
			}
			if tc.size == tooLargeForTheServer && !tc.disableErrorLimit && official.WorkflowTaskFailure == "" && official.ActivityFailure == "" {
				t.Errorf("the official worker sent %d bytes (%+v): the scenario no longer shows the limit", tc.size, official)
			}
		})
	}
}

// TestClientsWarnOfLargeArgumentsAlike: a client of each SDK starting a
// workflow with a 600 KiB argument, with the default warning size and
// with PayloadLimits set lower, logs the same warnings; a memo over
// MemoSizeWarning is warned of too.
func TestClientsWarnOfLargeArgumentsAlike(t *testing.T) {
	hp := testharness.HostPort(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	arg := strings.Repeat("x", largeEnoughToWarn)
	memo := map[string]any{"note": strings.Repeat("m", 3000)}
	for _, limits := range []struct{ payload, memo int }{{0, 0}, {1 << 20, 4000}} {
		oursLog, officialLog := &warningLog{}, &warningLog{}
		ours, err := client.Dial(client.Options{HostPort: hp, Logger: oursLog,
			PayloadLimits: client.PayloadLimitOptions{PayloadSizeWarning: limits.payload, MemoSizeWarning: limits.memo}})
		if err != nil {
			t.Fatal(err)
		}
		official, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: officialLog,
			PayloadLimits: officialclient.PayloadLimitOptions{PayloadSizeWarning: limits.payload, MemoSizeWarning: limits.memo}})
		if err != nil {
			t.Fatal(err)
		}
		tq := fmt.Sprintf("payload-warnings-%d", time.Now().UnixNano())
		if _, err := ours.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq, Memo: memo}, "NeverRuns", arg); err != nil {
			t.Fatal(err)
		}
		if _, err := official.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{TaskQueue: tq, Memo: memo}, "NeverRuns", arg); err != nil {
			t.Fatal(err)
		}
		ours.Close()
		official.Close()
		got, want := oursLog.distinct(), officialLog.distinct()
		if !slices.Equal(got, want) {
			t.Errorf("PayloadLimits %+v: warnings differ:\n ours:     %q\n official: %q", limits, got, want)
		}
		if limits.payload == 0 && len(want) == 0 {
			t.Errorf("the official client warned of nothing: the scenario no longer shows the warning")
		}
	}
}
