package worker_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// These tests feed a worker user code that panics outside the workflow
// function (a data converter, a payload codec, a failure converter) at
// every boundary where the worker runs it, and check the outcome
// go.temporal.io/sdk's worker has: the workflow task fails and is retried,
// the query fails, the activity fails with a PanicError. The process
// surviving is what lets the next check run at all.

// poison is a value the panicking converter refuses to encode, and
// poisonText a string it refuses to decode.
type poison struct{ Reason string }

const poisonText = "poison-pill"

// panickyConverter is a data converter with a bug: it panics encoding a
// poison value and decoding a payload that holds poisonText.
type panickyConverter struct{ converter.DataConverter }

func newPanickyConverter() panickyConverter {
	return panickyConverter{converter.GetDefaultDataConverter()}
}

func (c panickyConverter) ToPayload(v any) (*commonpb.Payload, error) {
	if _, ok := v.(poison); ok {
		panic("panickyConverter: cannot encode poison")
	}
	return c.DataConverter.ToPayload(v)
}

func (c panickyConverter) ToPayloads(vs ...any) (*commonpb.Payloads, error) {
	out := &commonpb.Payloads{}
	for _, v := range vs {
		p, err := c.ToPayload(v)
		if err != nil {
			return nil, err
		}
		out.Payloads = append(out.Payloads, p)
	}
	return out, nil
}

func (c panickyConverter) FromPayload(p *commonpb.Payload, ptr any) error {
	if bytes.Contains(p.GetData(), []byte(poisonText)) {
		panic("panickyConverter: refusing to decode a poisoned payload")
	}
	return c.DataConverter.FromPayload(p, ptr)
}

func (c panickyConverter) FromPayloads(ps *commonpb.Payloads, ptrs ...any) error {
	for i, p := range ps.GetPayloads() {
		if i >= len(ptrs) {
			break
		}
		if err := c.FromPayload(p, ptrs[i]); err != nil {
			return err
		}
	}
	return nil
}

// nonceCodec is a hand-written "encryption" codec with the bug of many
// such codecs: Decode cuts its 12-byte nonce off without checking that the
// payload is that long, so a short payload sent by anyone who may start
// workflows or send queries makes it panic.
type nonceCodec struct{}

const encryptedEncoding = "binary/encrypted"

func (nonceCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		b, err := proto.Marshal(p)
		if err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{converter.MetadataEncoding: []byte(encryptedEncoding)},
			Data:     append([]byte("nonce-nonce-"), b...),
		}
	}
	return out, nil
}

func (nonceCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != encryptedEncoding {
			out[i] = p
			continue
		}
		body := p.Data[12:] // the bug: no length check
		out[i] = &commonpb.Payload{}
		if err := proto.Unmarshal(body, out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// shortCodec is what a hostile or broken client sends: it turns the
// string "x" into a payload that claims the encrypted encoding and holds
// one byte, and leaves other payloads alone.
type shortCodec struct{}

func (shortCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		out[i] = p
		if string(p.GetData()) == `"x"` {
			out[i] = &commonpb.Payload{
				Metadata: map[string][]byte{converter.MetadataEncoding: []byte(encryptedEncoding)},
				Data:     []byte{'x'},
			}
		}
	}
	return out, nil
}

func (shortCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) { return ps, nil }

// panickyFailures is a failure converter with a bug: it panics converting
// an error whose message holds poisonText.
type panickyFailures struct{ converter.FailureConverter }

func (f panickyFailures) ErrorToFailure(err error) *failurepb.Failure {
	if err != nil && strings.Contains(err.Error(), poisonText) {
		panic("panickyFailures: refusing to convert a poisoned error")
	}
	return f.FailureConverter.ErrorToFailure(err)
}

// logHolds reports a logged line holding every one of parts.
func logHolds(l *lineLogger, parts ...string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
next:
	for _, line := range l.lines {
		for _, p := range parts {
			if !strings.Contains(line, p) {
				continue next
			}
		}
		return true
	}
	return false
}

// Workflows and activities of the panic tests.

func EchoInput(ctx workflow.Context, s string) (string, error) { return s, nil }

func WaitsForSignal(ctx workflow.Context) (string, error) {
	var got string
	if err := workflow.SetQueryHandler(ctx, "echo", func(s string) (string, error) { return "echo: " + s, nil }); err != nil {
		return "", err
	}
	if err := workflow.SetQueryHandler(ctx, "poison", func() (poison, error) { return poison{"query result"}, nil }); err != nil {
		return "", err
	}
	if err := workflow.SetUpdateHandler(ctx, "echo", func(ctx workflow.Context, s string) (string, error) { return "update: " + s, nil }); err != nil {
		return "", err
	}
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, &got)
	return got, nil
}

func ReturnsPoison(ctx workflow.Context) (poison, error) { return poison{"workflow result"}, nil }

func SideEffectOfPoison(ctx workflow.Context) error {
	return workflow.SideEffect(ctx, func(workflow.Context) any { return poison{"side effect"} }).Get(nil)
}

func PoisonActivity(ctx context.Context) (poison, error) { return poison{"activity result"}, nil }

func EchoActivity(ctx context.Context, s string) (string, error) { return s, nil }

func HeartbeatsPoison(ctx context.Context) error {
	activity.RecordHeartbeat(ctx, poison{"heartbeat details"})
	return nil
}

func FailsWithPoison(ctx context.Context) error {
	return errors.New("the activity failed: " + poisonText)
}

// CallsActivity runs the activity named, once, on the task queue given
// ("" for the workflow's own), with arg as its argument unless it is "",
// and returns its error's type and message. An arg of "poison" passes
// poisonText, which the workflow's own input must not hold, and "short"
// passes "x", which shortCodec cuts short.
func CallsActivity(ctx workflow.Context, name, taskQueue string, local bool, arg string) (string, error) {
	var args []any
	switch arg {
	case "":
	case "poison":
		args = []any{poisonText}
	case "short":
		args = []any{"x"}
	default:
		args = []any{arg}
	}
	var err error
	if local {
		ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
			StartToCloseTimeout: 10 * time.Second, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
		err = workflow.ExecuteLocalActivity(ctx, name, args...).Get(ctx, nil)
	} else {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			TaskQueue: taskQueue, StartToCloseTimeout: 10 * time.Second, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
		err = workflow.ExecuteActivity(ctx, name, args...).Get(ctx, nil)
	}
	var panicErr *temporal.PanicError
	var appErr *temporal.ApplicationError
	switch {
	case err == nil:
		return "no error", nil
	case errors.As(err, &panicErr):
		return fmt.Sprintf("PanicError (stack %t): %s", panicErr.StackTrace() != "", panicErr.Error()), nil
	case errors.As(err, &appErr):
		return fmt.Sprintf("ApplicationError %s (retryable %t): %s", appErr.Type(), !appErr.NonRetryable(), appErr.Error()), nil
	}
	return fmt.Sprintf("%T: %v", err, err), nil
}

func registerPanicFixtures(w worker.Worker) {
	w.RegisterWorkflow(EchoInput)
	w.RegisterWorkflow(WaitsForSignal)
	w.RegisterWorkflow(ReturnsPoison)
	w.RegisterWorkflow(SideEffectOfPoison)
	w.RegisterWorkflow(CallsActivity)
	w.RegisterActivity(PoisonActivity)
	w.RegisterActivity(EchoActivity)
	w.RegisterActivity(HeartbeatsPoison)
	w.RegisterActivity(FailsWithPoison)
}

// faultyWorker is a worker whose client has a buggy data converter,
// codec or failure converter, and a client to drive it with.
type faultyWorker struct {
	c      client.Client // the worker's
	tq     string
	logger *lineLogger
}

func startFaultyWorker(t *testing.T, opts client.Options) *faultyWorker {
	t.Helper()
	f := &faultyWorker{logger: &lineLogger{}}
	opts.Logger = f.logger
	c := dialWith(t, opts)
	f.c = c
	f.tq, _ = startWorker(t, c, worker.Options{}, registerPanicFixtures)
	return f
}

// waitForTaskFailure waits until the run's history records a failed
// workflow task whose failure holds want and a stack trace, and the
// worker's log says the task failed, naming the panic.
func (f *faultyWorker) waitForTaskFailure(t *testing.T, c client.Client, run client.WorkflowRun, want string) {
	t.Helper()
	waitFor(t, "the failed workflow task", func() bool {
		for _, e := range history(t, c, run.GetID()) {
			if a := e.GetWorkflowTaskFailedEventAttributes(); a != nil {
				fail := a.GetFailure()
				if !strings.Contains(fail.GetMessage(), want) || fail.GetStackTrace() == "" {
					t.Fatalf("the task failed with %q (stack %q), want the panic %q and its stack", fail.GetMessage(), fail.GetStackTrace(), want)
				}
				return true
			}
		}
		return false
	})
	if !logHolds(f.logger, "workflow task", want) {
		t.Errorf("no log line says the workflow task failed with %q:\n%s", want, strings.Join(f.logger.lines, "\n"))
	}
}

// stillWorks checks that the worker goes on running workflows.
func (f *faultyWorker) stillWorks(t *testing.T) {
	t.Helper()
	ctx := testCtx(t)
	run, err := f.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "after"), TaskQueue: f.tq}, CallsActivity, "EchoActivity", "", false, "fine")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil || got != "no error" {
		t.Fatalf("after the panic, a workflow of the worker ended with %q, %v", got, err)
	}
}

func TestPanickingConverterFailsTheWorkflowTask(t *testing.T) {
	f := startFaultyWorker(t, client.Options{DataConverter: newPanickyConverter()})
	ctx := testCtx(t)
	start := func(t *testing.T, wf any, args ...any) client.WorkflowRun {
		run, err := f.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: f.tq}, wf, args...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = f.c.TerminateWorkflow(context.Background(), run.GetID(), "", "test done") })
		return run
	}
	t.Run("start input", func(t *testing.T) {
		run := start(t, EchoInput, poisonText)
		f.waitForTaskFailure(t, f.c, run, "refusing to decode a poisoned payload")
	})
	t.Run("workflow result", func(t *testing.T) {
		run := start(t, ReturnsPoison)
		f.waitForTaskFailure(t, f.c, run, "cannot encode poison")
	})
	t.Run("side effect marker", func(t *testing.T) {
		run := start(t, SideEffectOfPoison)
		f.waitForTaskFailure(t, f.c, run, "cannot encode poison")
	})
	t.Run("signal", func(t *testing.T) {
		run := start(t, WaitsForSignal)
		if err := f.c.SignalWorkflow(ctx, run.GetID(), "", "go", poisonText); err != nil {
			t.Fatal(err)
		}
		f.waitForTaskFailure(t, f.c, run, "refusing to decode a poisoned payload")
	})
	t.Run("update argument", func(t *testing.T) {
		run := start(t, WaitsForSignal)
		uctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		// The update's task fails and is retried, so the call waits.
		_, _ = f.c.UpdateWorkflow(uctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), UpdateName: "echo",
			Args: []any{poisonText}, WaitForStage: client.WorkflowUpdateStageCompleted})
		if !logHolds(f.logger, "workflow task", "refusing to decode a poisoned payload") {
			t.Errorf("no log line says the update's workflow task failed with the panic:\n%s", strings.Join(f.logger.lines, "\n"))
		}
	})
	t.Run("local activity result", func(t *testing.T) {
		run := start(t, CallsActivity, "PoisonActivity", "", true, "")
		var got string
		if err := run.Get(ctx, &got); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got, "PanicError (stack true)") || !strings.Contains(got, "cannot encode poison") {
			t.Errorf("the local activity ended with %q, want a PanicError with its stack", got)
		}
	})
	t.Run("activity input", func(t *testing.T) {
		run := start(t, CallsActivity, "EchoActivity", "", false, "poison")
		var got string
		if err := run.Get(ctx, &got); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got, "PanicError (stack true)") || !strings.Contains(got, "refusing to decode a poisoned payload") {
			t.Errorf("the activity ended with %q, want a PanicError with its stack", got)
		}
	})
	t.Run("activity result", func(t *testing.T) {
		run := start(t, CallsActivity, "PoisonActivity", "", false, "")
		var got string
		if err := run.Get(ctx, &got); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got, "PanicError (stack true)") || !strings.Contains(got, "cannot encode poison") {
			t.Errorf("the activity ended with %q, want a PanicError with its stack", got)
		}
	})
	t.Run("heartbeat details", func(t *testing.T) {
		run := start(t, CallsActivity, "HeartbeatsPoison", "", false, "")
		var got string
		if err := run.Get(ctx, &got); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got, "PanicError (stack true)") || !strings.Contains(got, "cannot encode poison") {
			t.Errorf("the activity ended with %q, want a PanicError with its stack", got)
		}
	})
	t.Run("query", func(t *testing.T) {
		run := start(t, WaitsForSignal)
		var echo string
		waitFor(t, "the first query's answer", func() bool {
			v, err := f.c.QueryWorkflow(ctx, run.GetID(), "", "echo", "hi")
			return err == nil && v.Get(&echo) == nil
		})
		for _, q := range []struct {
			name string
			args []any
			want string
		}{
			{"echo", []any{poisonText}, "refusing to decode a poisoned payload"},
			{"poison", nil, "cannot encode poison"},
		} {
			_, err := f.c.QueryWorkflow(ctx, run.GetID(), "", q.name, q.args...)
			if err == nil || !strings.Contains(err.Error(), q.want) || !strings.Contains(err.Error(), "panic") {
				t.Errorf("query %q: error %v, want the panic %q", q.name, err, q.want)
			}
		}
		// The run is still whole: it answers, and goes on to complete.
		v, err := f.c.QueryWorkflow(ctx, run.GetID(), "", "echo", "again")
		if err != nil || v.Get(&echo) != nil || echo != "echo: again" {
			t.Fatalf("a good query after the panics: %q, %v", echo, err)
		}
		if err := f.c.SignalWorkflow(ctx, run.GetID(), "", "go", "done"); err != nil {
			t.Fatal(err)
		}
		var got string
		if err := run.Get(ctx, &got); err != nil || got != "done" {
			t.Fatalf("the queried workflow ended with %q, %v", got, err)
		}
	})
	f.stillWorks(t)
}

func TestShortInputToANonceCodecFailsTheTask(t *testing.T) {
	f := startFaultyWorker(t, client.Options{DataConverter: converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), nonceCodec{})})
	hostile := dialWith(t, client.Options{DataConverter: converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), shortCodec{})})
	ctx := testCtx(t)
	const sliceBug = "slice bounds out of range"
	t.Run("workflow input", func(t *testing.T) {
		run, err := hostile.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: f.tq}, EchoInput, "x")
		if err != nil {
			t.Fatal(err)
		}
		defer f.c.TerminateWorkflow(ctx, run.GetID(), "", "test done")
		f.waitForTaskFailure(t, f.c, run, sliceBug)
	})
	t.Run("query argument", func(t *testing.T) {
		run, err := f.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: f.tq}, WaitsForSignal)
		if err != nil {
			t.Fatal(err)
		}
		defer f.c.TerminateWorkflow(ctx, run.GetID(), "", "test done")
		waitFor(t, "the first query's answer", func() bool {
			_, err := f.c.QueryWorkflow(ctx, run.GetID(), "", "echo", "hi")
			return err == nil
		})
		_, err = hostile.QueryWorkflow(ctx, run.GetID(), "", "echo", "x")
		if err == nil || !strings.Contains(err.Error(), sliceBug) {
			t.Errorf("a query with a one-byte argument: error %v, want the codec's panic", err)
		}
		if _, err := f.c.QueryWorkflow(ctx, run.GetID(), "", "echo", "again"); err != nil {
			t.Errorf("a good query after the panic: %v", err)
		}
	})
	t.Run("activity input", func(t *testing.T) {
		// A workflow of a worker with the short codec schedules an
		// activity on the nonce codec's worker's task queue.
		hostileTQ, _ := startWorker(t, hostile, worker.Options{}, registerPanicFixtures)
		run, err := hostile.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: hostileTQ},
			CallsActivity, "EchoActivity", f.tq, false, "short")
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := run.Get(ctx, &got); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got, "PanicError (stack true)") || !strings.Contains(got, sliceBug) {
			t.Errorf("the activity ended with %q, want a PanicError with its stack", got)
		}
	})
	f.stillWorks(t)
}

func TestPanickingFailureConverter(t *testing.T) {
	f := startFaultyWorker(t, client.Options{FailureConverter: panickyFailures{temporal.GetDefaultFailureConverter()}})
	ctx := testCtx(t)
	run, err := f.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: f.tq},
		CallsActivity, "FailsWithPoison", "", false, "")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "PanicError") || !strings.Contains(got, "refusing to convert a poisoned error") {
		t.Errorf("the activity ended with %q, want a PanicError naming the failure converter's panic", got)
	}
	f.stillWorks(t)
}

// panickyInterceptor is a worker interceptor with a bug: its workflow
// inbound interceptor panics handling a query whose argument, or a signal
// whose name, is "interceptor-bug".
type panickyInterceptor struct {
	interceptor.WorkerInterceptorBase
}

func (*panickyInterceptor) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &panickyWorkflowInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}}
}

type panickyWorkflowInbound struct {
	interceptor.WorkflowInboundInterceptorBase
}

func (i *panickyWorkflowInbound) HandleQuery(ctx workflow.Context, in *interceptor.HandleQueryInput) (any, error) {
	if len(in.Args) == 1 && in.Args[0] == "interceptor-bug" {
		panic("panickyInterceptor: query")
	}
	return i.Next.HandleQuery(ctx, in)
}

func (i *panickyWorkflowInbound) HandleSignal(ctx workflow.Context, in *interceptor.HandleSignalInput) error {
	if in.SignalName == "interceptor-bug" {
		panic("panickyInterceptor: signal")
	}
	return i.Next.HandleSignal(ctx, in)
}

// poisonKey marks a Go context whose header the propagator poisons.
type poisonKey struct{}

// panickyPropagator is a context propagator with a bug: it panics
// extracting a header it poisoned itself.
type panickyPropagator struct{}

func (panickyPropagator) Inject(ctx context.Context, w workflow.HeaderWriter) error {
	if ctx.Value(poisonKey{}) != nil {
		p, err := converter.GetDefaultDataConverter().ToPayload("poisoned")
		if err != nil {
			return err
		}
		w.Set("poisoned", p)
	}
	return nil
}

func (panickyPropagator) Extract(ctx context.Context, r workflow.HeaderReader) (context.Context, error) {
	if _, ok := r.Get("poisoned"); ok {
		panic("panickyPropagator: Extract")
	}
	return ctx, nil
}

func (panickyPropagator) InjectFromWorkflow(ctx workflow.Context, w workflow.HeaderWriter) error {
	return nil
}

func (panickyPropagator) ExtractToWorkflow(ctx workflow.Context, r workflow.HeaderReader) (workflow.Context, error) {
	if _, ok := r.Get("poisoned"); ok {
		panic("panickyPropagator: ExtractToWorkflow")
	}
	return ctx, nil
}

func TestPanickingInterceptorAndPropagator(t *testing.T) {
	logger := &lineLogger{}
	c := dialWith(t, client.Options{Logger: logger, ContextPropagators: []workflow.ContextPropagator{panickyPropagator{}}})
	f := &faultyWorker{c: c, logger: logger}
	f.tq, _ = startWorker(t, c, worker.Options{Interceptors: []interceptor.WorkerInterceptor{&panickyInterceptor{}}}, registerPanicFixtures)
	ctx := testCtx(t)
	start := func(t *testing.T, ctx context.Context, wf any, args ...any) client.WorkflowRun {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: f.tq}, wf, args...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.TerminateWorkflow(context.Background(), run.GetID(), "", "test done") })
		return run
	}
	t.Run("query interceptor", func(t *testing.T) {
		run := start(t, ctx, WaitsForSignal)
		waitFor(t, "the first query's answer", func() bool {
			_, err := c.QueryWorkflow(ctx, run.GetID(), "", "echo", "hi")
			return err == nil
		})
		_, err := c.QueryWorkflow(ctx, run.GetID(), "", "echo", "interceptor-bug")
		if err == nil || !strings.Contains(err.Error(), "panickyInterceptor: query") {
			t.Errorf("a query whose interceptor panics: error %v, want the panic", err)
		}
		if _, err := c.QueryWorkflow(ctx, run.GetID(), "", "echo", "again"); err != nil {
			t.Errorf("a good query after the panic: %v", err)
		}
	})
	t.Run("signal interceptor", func(t *testing.T) {
		run := start(t, ctx, WaitsForSignal)
		if err := c.SignalWorkflow(ctx, run.GetID(), "", "interceptor-bug", "x"); err != nil {
			t.Fatal(err)
		}
		f.waitForTaskFailure(t, c, run, "panickyInterceptor: signal")
	})
	t.Run("workflow context propagator", func(t *testing.T) {
		run := start(t, context.WithValue(ctx, poisonKey{}, true), EchoInput, "hi")
		f.waitForTaskFailure(t, c, run, "panickyPropagator: ExtractToWorkflow")
	})
	f.stillWorks(t)
}
