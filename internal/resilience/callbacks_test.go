package resilience

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// LogsAndRunsAnActivity logs from the workflow and from an activity that
// heartbeats, and returns the activity's result.
func LogsAndRunsAnActivity(ctx workflow.Context) (string, error) {
	workflow.GetLogger(ctx).Info("the workflow runs")
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second, HeartbeatTimeout: 5 * time.Second})
	var out string
	err := workflow.ExecuteActivity(ctx, HeartbeatsAndLogs).Get(ctx, &out)
	return out, err
}

func HeartbeatsAndLogs(ctx context.Context) (string, error) {
	activity.GetLogger(ctx).Info("the activity runs")
	activity.RecordHeartbeat(ctx, "halfway")
	return "done", nil
}

// panicSwitch is a HeadersProvider and an API key callback that panic
// while on is set.
type panicSwitch struct {
	on     atomic.Bool
	panics atomic.Int64
}

func (s *panicSwitch) GetHeaders(context.Context) (map[string]string, error) {
	s.maybePanic()
	return map[string]string{"x-tenant": "acme"}, nil
}

func (s *panicSwitch) apiKey(context.Context) (string, error) {
	s.maybePanic()
	return "a-key", nil
}

func (s *panicSwitch) maybePanic() {
	if s.on.Load() {
		s.panics.Add(1)
		panic("the token store is gone")
	}
}

// panickingLogger panics in every method.
type panickingLogger struct{ calls atomic.Int64 }

func (l *panickingLogger) log() { l.calls.Add(1); panic("the log sink is gone") }

func (l *panickingLogger) Debug(string, ...any) { l.log() }
func (l *panickingLogger) Info(string, ...any)  { l.log() }
func (l *panickingLogger) Warn(string, ...any)  { l.log() }
func (l *panickingLogger) Error(string, ...any) { l.log() }

// whileCallbacksPanic runs a worker whose client's callback (set in opts
// to s) panics for a while, from the moment its polls are open: a client
// call fails, naming the callback; the workflow started meanwhile (by
// another client) gets its task on a poll opened before, whose next poll
// and the task's report fail; once the callback works again the worker
// completes the workflow by itself.
func whileCallbacksPanic(t *testing.T, opts client.Options, s *panicSwitch, wantErr string) {
	t.Helper()
	opts.HostPort = testharness.HostPort(t)
	c, err := client.Dial(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	starter := dialDirect(t)
	tq := unique(t, "tq")
	w := worker.New(c, tq, worker.Options{})
	w.RegisterWorkflow(LogsAndRunsAnActivity)
	w.RegisterActivity(HeartbeatsAndLogs)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	s.on.Store(true)
	_, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq}, LogsAndRunsAnActivity)
	if err == nil || !strings.Contains(err.Error(), wantErr) {
		t.Errorf("a call while the callback panics: %v, want an error saying %q", err, wantErr)
	}
	run, err := starter.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq, WorkflowTaskTimeout: 2 * time.Second}, LogsAndRunsAnActivity)
	if err != nil {
		t.Fatal(err)
	}
	// Polls opened while the callback panics fail (on the worker's own
	// goroutines), and the worker logs them.
	waitUntil(t, time.Minute, "the worker's calls failing", func() bool { return s.panics.Load() >= 3 })
	if logs, ok := opts.Logger.(*lineLogger); ok {
		waitUntil(t, time.Minute, "a failed poll logged", func() bool {
			return logs.count("polling failed") > 0 && logs.count(wantErr) > 0
		})
		if n := logs.count("panicked; the calls it was asked for fail"); n != 1 {
			t.Errorf("the callback's panic was logged with its stack %d times, want once:\n%s", n, strings.Join(logs.all(), "\n"))
		}
	}
	s.on.Store(false)
	var out string
	if err := run.Get(ctx, &out); err != nil || out != "done" {
		t.Errorf("the workflow returned %q, %v; want it completed once the callback works", out, err)
	}
}

// TestPanickingHeadersProviderFailsCallsNotTheWorker: a HeadersProvider
// that panics ends the process with go.temporal.io/sdk; here the calls
// it was asked for fail, and the worker lives and recovers.
func TestPanickingHeadersProviderFailsCallsNotTheWorker(t *testing.T) {
	s := &panicSwitch{}
	whileCallbacksPanic(t, client.Options{Logger: &lineLogger{}, HeadersProvider: s}, s,
		"the client's HeadersProvider (client.Options.HeadersProvider) panicked: the token store is gone")
}

// TestPanickingAPIKeyCallbackFailsCallsNotTheWorker is the same for a
// dynamic API key's callback (the dev server takes any key).
func TestPanickingAPIKeyCallbackFailsCallsNotTheWorker(t *testing.T) {
	s := &panicSwitch{}
	whileCallbacksPanic(t, client.Options{Logger: &lineLogger{}, Credentials: client.NewAPIKeyDynamicCredentials(s.apiKey),
		ConnectionOptions: client.ConnectionOptions{TLSDisabled: true}}, s,
		"the client's API key callback (client.NewAPIKeyDynamicCredentials) panicked: the token store is gone")
}

// TestPanickingLoggerNeverEndsTheWorker: a logger that panics in every
// call, used by the SDK from the caller's goroutine (Start, Stop), from
// its own (polls failing, through a HeadersProvider that panics for a
// while; tasks; heartbeats) and from workflow and activity code. Its
// calls are dropped; the worker runs the workflow to its end and stops.
func TestPanickingLoggerNeverEndsTheWorker(t *testing.T) {
	logger := &panickingLogger{}
	s := &panicSwitch{}
	whileCallbacksPanic(t, client.Options{Logger: logger, HeadersProvider: s}, s,
		"the client's HeadersProvider (client.Options.HeadersProvider) panicked")
	if logger.calls.Load() == 0 {
		t.Error("the logger was never called")
	}
}
