package compat

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	officialactivity "go.temporal.io/sdk/activity"
	officialclient "go.temporal.io/sdk/client"
	officialconverter "go.temporal.io/sdk/converter"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Serialization contexts (issue 37): a payload codec or failure converter
// that implements WithSerializationContext is told, for every payload and
// failure, where it belongs: the workflow's own payloads with the
// workflow's WorkflowSerializationContext, an activity's (local or not)
// with its ActivitySerializationContext, a child's with the child's, an
// external signal's with its target's. The codec here records each context
// it is told and keys its payloads with it, so a payload decoded with
// another context than it was encoded with fails: each SDK's worker must
// be told the same contexts as go.temporal.io/sdk's, and each SDK's client
// must read what the other's worker wrote.

// scKey is a serialization context in terms both SDKs share; Kind is ""
// for a converter told no context.
type scKey struct {
	Kind                                                         string
	Namespace, WorkflowID, WorkflowType, ActivityType, TaskQueue string
	IsLocal                                                      bool
}

func scKeyOurs(sc converter.SerializationContext) scKey {
	switch c := sc.(type) {
	case converter.WorkflowSerializationContext:
		return scKey{Kind: "workflow", Namespace: c.Namespace, WorkflowID: c.WorkflowID}
	case converter.ActivitySerializationContext:
		return scKey{Kind: "activity", Namespace: c.Namespace, WorkflowID: c.WorkflowID, WorkflowType: c.WorkflowType,
			ActivityType: c.ActivityType, TaskQueue: c.TaskQueue, IsLocal: c.IsLocal}
	}
	return scKey{Kind: fmt.Sprintf("%T", sc)}
}

func scKeyOfficial(sc officialconverter.SerializationContext) scKey {
	switch c := sc.(type) {
	case officialconverter.WorkflowSerializationContext:
		return scKey{Kind: "workflow", Namespace: c.Namespace, WorkflowID: c.WorkflowID}
	case officialconverter.ActivitySerializationContext:
		return scKey{Kind: "activity", Namespace: c.Namespace, WorkflowID: c.WorkflowID, WorkflowType: c.WorkflowType,
			ActivityType: c.ActivityType, TaskQueue: c.TaskQueue, IsLocal: c.IsLocal}
	}
	return scKey{Kind: fmt.Sprintf("%T", sc)}
}

// scRecorder notes what a converter did with which context.
type scRecorder struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (r *scRecorder) note(k scKey, what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	r.seen[fmt.Sprintf("%s %+v", what, k)] = true
}

// notes returns what was noted, sorted, with the run's prefix (in its
// workflow IDs and task queue) replaced by "<run>", and a session's
// resource-specific task queue (a random resource ID @ the host) by
// "<session>".
func (r *scRecorder) notes(prefix string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for s := range r.seen {
		s = scSessionQueue.ReplaceAllString(s, "TaskQueue:<session> ")
		out = append(out, strings.ReplaceAll(s, prefix, "<run>"))
	}
	sort.Strings(out)
	return out
}

var scSessionQueue = regexp.MustCompile(`TaskQueue:[^ ]*@[^ ]* `)

// scCodec keys each payload with its context: a payload decoded with
// another context than it was encoded with fails.
type scCodec struct {
	key scKey
	rec *scRecorder
}

const scEncoding = "binary/context-keyed"

func (c scCodec) mac(data []byte) []byte {
	sum := sha256.Sum256(append([]byte(fmt.Sprintf("%+v|", c.key)), data...))
	return sum[:8]
}

func (c scCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if len(ps) > 0 {
		c.rec.note(c.key, "encode")
	}
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		b, err := proto.Marshal(p)
		if err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte(scEncoding)}, Data: append(c.mac(b), b...)}
	}
	return out, nil
}

func (c scCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if len(ps) > 0 {
		c.rec.note(c.key, "decode")
	}
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		if string(p.GetMetadata()["encoding"]) != scEncoding {
			out[i] = p
			continue
		}
		if len(p.Data) < 8 || !bytes.Equal(p.Data[:8], c.mac(p.Data[8:])) {
			return nil, fmt.Errorf("payload decoded with serialization context %+v was encoded with another", c.key)
		}
		out[i] = &commonpb.Payload{}
		if err := proto.Unmarshal(p.Data[8:], out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

type scCodecOurs struct{ scCodec }

func (c scCodecOurs) WithSerializationContext(sc converter.SerializationContext) converter.PayloadCodec {
	return scCodecOurs{scCodec{key: scKeyOurs(sc), rec: c.rec}}
}

type scCodecOfficial struct{ scCodec }

func (c scCodecOfficial) WithSerializationContext(sc officialconverter.SerializationContext) officialconverter.PayloadCodec {
	return scCodecOfficial{scCodec{key: scKeyOfficial(sc), rec: c.rec}}
}

// scFailures records the contexts failures are converted with.
type scFailures struct {
	key  scKey
	rec  *scRecorder
	next interface {
		ErrorToFailure(error) *failurepb.Failure
		FailureToError(*failurepb.Failure) error
	}
}

func (f scFailures) ErrorToFailure(err error) *failurepb.Failure {
	if err != nil {
		f.rec.note(f.key, "error-to-failure")
	}
	return f.next.ErrorToFailure(err)
}

func (f scFailures) FailureToError(failure *failurepb.Failure) error {
	if failure != nil {
		f.rec.note(f.key, "failure-to-error")
	}
	return f.next.FailureToError(failure)
}

type scFailuresOurs struct{ scFailures }

func (f scFailuresOurs) WithSerializationContext(sc converter.SerializationContext) converter.FailureConverter {
	return scFailuresOurs{scFailures{key: scKeyOurs(sc), rec: f.rec, next: f.next}}
}

type scFailuresOfficial struct{ scFailures }

func (f scFailuresOfficial) WithSerializationContext(sc officialconverter.SerializationContext) officialconverter.FailureConverter {
	return scFailuresOfficial{scFailures{key: scKeyOfficial(sc), rec: f.rec, next: f.next}}
}

// The workflows and activities, in both SDKs. SCParent answers a query
// (or fails it) and an update, upserts its memo, runs an activity, one that fails, a
// local activity, one that fails, a child, one that fails, an activity
// in a session, signals the workflow "<its ID>-target", and returns when signaled "sc-finish".

func scActivity(_ context.Context, s string) (string, error) { return "activity:" + s, nil }

func scLocalActivity(_ context.Context, s string) (string, error) { return "local:" + s, nil }

func scFailingActivityOurs(_ context.Context, s string) error {
	return temporal.NewNonRetryableApplicationError("refused "+s, "SCRefused", nil)
}

func scFailingActivityOfficial(_ context.Context, s string) error {
	return officialtemporal.NewNonRetryableApplicationError("refused "+s, "SCRefused", nil)
}

func SCParentOurs(ctx workflow.Context, in string) (string, error) {
	var updated string
	if err := workflow.SetQueryHandler(ctx, "sc-query", func(q string) (string, error) {
		if q == "fail" {
			return "", errors.New("the query failed")
		}
		return "query:" + q + ":" + in, nil
	}); err != nil {
		return "", err
	}
	if err := workflow.SetUpdateHandler(ctx, "sc-update", func(ctx workflow.Context, u string) (string, error) {
		updated = u
		return "update:" + u, nil
	}); err != nil {
		return "", err
	}
	if err := workflow.UpsertMemo(ctx, map[string]any{"sc": "memo:" + in}); err != nil {
		return "", err
	}
	ao := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
	var a string
	if err := workflow.ExecuteActivity(ao, "SCActivity", in).Get(ctx, &a); err != nil {
		return "", err
	}
	refused := workflow.ExecuteActivity(ao, "SCFailingActivity", in).Get(ctx, nil)
	var appErr *temporal.ApplicationError
	if !errors.As(refused, &appErr) {
		return "", fmt.Errorf("the failing activity: %v", refused)
	}
	lo := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var l string
	if err := workflow.ExecuteLocalActivity(lo, "SCLocalActivity", in).Get(ctx, &l); err != nil {
		return "", err
	}
	lo = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
	localRefused := workflow.ExecuteLocalActivity(lo, "SCFailingActivity", in).Get(ctx, nil)
	if !errors.As(localRefused, new(*temporal.ApplicationError)) {
		return "", fmt.Errorf("the failing local activity: %v", localRefused)
	}
	id := workflow.GetInfo(ctx).WorkflowExecution.ID
	co := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: id + "-child"})
	var c string
	if err := workflow.ExecuteChildWorkflow(co, "SCChild", in).Get(ctx, &c); err != nil {
		return "", err
	}
	co = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: id + "-failing-child"})
	childRefused := workflow.ExecuteChildWorkflow(co, "SCFailingChild", in).Get(ctx, nil)
	if !errors.As(childRefused, new(*temporal.ApplicationError)) {
		return "", fmt.Errorf("the failing child: %v", childRefused)
	}
	sctx, err := workflow.CreateSession(ao, &workflow.SessionOptions{CreationTimeout: time.Minute, ExecutionTimeout: time.Minute})
	if err != nil {
		return "", err
	}
	var inSession string
	if err := workflow.ExecuteActivity(sctx, "SCActivity", "session").Get(ctx, &inSession); err != nil {
		return "", err
	}
	workflow.CompleteSession(sctx)
	if err := workflow.SignalExternalWorkflow(ctx, id+"-target", "", "sc-ping", "ping:"+in).Get(ctx, nil); err != nil {
		return "", err
	}
	var finish string
	workflow.GetSignalChannel(ctx, "sc-finish").Receive(ctx, &finish)
	if err := workflow.Await(ctx, func() bool { return updated != "" }); err != nil {
		return "", err
	}
	return strings.Join([]string{a, appErr.Error(), l, c, inSession, updated, finish}, "|"), nil
}

func SCParentOfficial(ctx officialworkflow.Context, in string) (string, error) {
	var updated string
	if err := officialworkflow.SetQueryHandler(ctx, "sc-query", func(q string) (string, error) {
		if q == "fail" {
			return "", errors.New("the query failed")
		}
		return "query:" + q + ":" + in, nil
	}); err != nil {
		return "", err
	}
	if err := officialworkflow.SetUpdateHandler(ctx, "sc-update", func(ctx officialworkflow.Context, u string) (string, error) {
		updated = u
		return "update:" + u, nil
	}); err != nil {
		return "", err
	}
	if err := officialworkflow.UpsertMemo(ctx, map[string]any{"sc": "memo:" + in}); err != nil {
		return "", err
	}
	ao := officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &officialtemporal.RetryPolicy{MaximumAttempts: 1}})
	var a string
	if err := officialworkflow.ExecuteActivity(ao, "SCActivity", in).Get(ctx, &a); err != nil {
		return "", err
	}
	refused := officialworkflow.ExecuteActivity(ao, "SCFailingActivity", in).Get(ctx, nil)
	var appErr *officialtemporal.ApplicationError
	if !errors.As(refused, &appErr) {
		return "", fmt.Errorf("the failing activity: %v", refused)
	}
	lo := officialworkflow.WithLocalActivityOptions(ctx, officialworkflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var l string
	if err := officialworkflow.ExecuteLocalActivity(lo, "SCLocalActivity", in).Get(ctx, &l); err != nil {
		return "", err
	}
	lo = officialworkflow.WithLocalActivityOptions(ctx, officialworkflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &officialtemporal.RetryPolicy{MaximumAttempts: 1}})
	localRefused := officialworkflow.ExecuteLocalActivity(lo, "SCFailingActivity", in).Get(ctx, nil)
	if !errors.As(localRefused, new(*officialtemporal.ApplicationError)) {
		return "", fmt.Errorf("the failing local activity: %v", localRefused)
	}
	id := officialworkflow.GetInfo(ctx).WorkflowExecution.ID
	co := officialworkflow.WithChildOptions(ctx, officialworkflow.ChildWorkflowOptions{WorkflowID: id + "-child"})
	var c string
	if err := officialworkflow.ExecuteChildWorkflow(co, "SCChild", in).Get(ctx, &c); err != nil {
		return "", err
	}
	co = officialworkflow.WithChildOptions(ctx, officialworkflow.ChildWorkflowOptions{WorkflowID: id + "-failing-child"})
	childRefused := officialworkflow.ExecuteChildWorkflow(co, "SCFailingChild", in).Get(ctx, nil)
	if !errors.As(childRefused, new(*officialtemporal.ApplicationError)) {
		return "", fmt.Errorf("the failing child: %v", childRefused)
	}
	sctx, err := officialworkflow.CreateSession(ao, &officialworkflow.SessionOptions{CreationTimeout: time.Minute, ExecutionTimeout: time.Minute})
	if err != nil {
		return "", err
	}
	var inSession string
	if err := officialworkflow.ExecuteActivity(sctx, "SCActivity", "session").Get(ctx, &inSession); err != nil {
		return "", err
	}
	officialworkflow.CompleteSession(sctx)
	if err := officialworkflow.SignalExternalWorkflow(ctx, id+"-target", "", "sc-ping", "ping:"+in).Get(ctx, nil); err != nil {
		return "", err
	}
	var finish string
	officialworkflow.GetSignalChannel(ctx, "sc-finish").Receive(ctx, &finish)
	if err := officialworkflow.Await(ctx, func() bool { return updated != "" }); err != nil {
		return "", err
	}
	return strings.Join([]string{a, appErr.Error(), l, c, inSession, updated, finish}, "|"), nil
}

func SCChildOurs(_ workflow.Context, in string) (string, error) { return "child:" + in, nil }

func SCChildOfficial(_ officialworkflow.Context, in string) (string, error) {
	return "child:" + in, nil
}

func SCFailingChildOurs(_ workflow.Context, in string) error {
	return temporal.NewNonRetryableApplicationError("child refused "+in, "SCRefused", nil)
}

func SCFailingChildOfficial(_ officialworkflow.Context, in string) error {
	return officialtemporal.NewNonRetryableApplicationError("child refused "+in, "SCRefused", nil)
}

func SCTargetOurs(ctx workflow.Context) (string, error) {
	var s string
	workflow.GetSignalChannel(ctx, "sc-ping").Receive(ctx, &s)
	return "target:" + s, nil
}

func SCTargetOfficial(ctx officialworkflow.Context) (string, error) {
	var s string
	officialworkflow.GetSignalChannel(ctx, "sc-ping").Receive(ctx, &s)
	return "target:" + s, nil
}

// scClient is what the scenario asks of a client of either SDK.
type scClient interface {
	start(ctx context.Context, id, tq, workflowType string, args ...any) error
	query(ctx context.Context, id, name, arg string) (string, error)
	update(ctx context.Context, id, name, arg string) (string, error)
	signal(ctx context.Context, id, name, arg string) error
	result(ctx context.Context, id string) (string, error)
}

type scOurClient struct{ c client.Client }

func (s scOurClient) start(ctx context.Context, id, tq, workflowType string, args ...any) error {
	_, err := s.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: tq}, workflowType, args...)
	return err
}

func (s scOurClient) query(ctx context.Context, id, name, arg string) (string, error) {
	v, err := s.c.QueryWorkflow(ctx, id, "", name, arg)
	if err != nil {
		return "", err
	}
	var out string
	return out, v.Get(&out)
}

func (s scOurClient) update(ctx context.Context, id, name, arg string) (string, error) {
	h, err := s.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: name, Args: []any{arg},
		WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		return "", err
	}
	var out string
	return out, h.Get(ctx, &out)
}

func (s scOurClient) signal(ctx context.Context, id, name, arg string) error {
	return s.c.SignalWorkflow(ctx, id, "", name, arg)
}

func (s scOurClient) result(ctx context.Context, id string) (string, error) {
	var out string
	return out, s.c.GetWorkflow(ctx, id, "").Get(ctx, &out)
}

type scOfficialClient struct{ c officialclient.Client }

func (s scOfficialClient) start(ctx context.Context, id, tq, workflowType string, args ...any) error {
	_, err := s.c.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: id, TaskQueue: tq}, workflowType, args...)
	return err
}

func (s scOfficialClient) query(ctx context.Context, id, name, arg string) (string, error) {
	v, err := s.c.QueryWorkflow(ctx, id, "", name, arg)
	if err != nil {
		return "", err
	}
	var out string
	return out, v.Get(&out)
}

func (s scOfficialClient) update(ctx context.Context, id, name, arg string) (string, error) {
	h, err := s.c.UpdateWorkflow(ctx, officialclient.UpdateWorkflowOptions{WorkflowID: id, UpdateName: name, Args: []any{arg},
		WaitForStage: officialclient.WorkflowUpdateStageCompleted})
	if err != nil {
		return "", err
	}
	var out string
	return out, h.Get(ctx, &out)
}

func (s scOfficialClient) signal(ctx context.Context, id, name, arg string) error {
	return s.c.SignalWorkflow(ctx, id, "", name, arg)
}

func (s scOfficialClient) result(ctx context.Context, id string) (string, error) {
	var out string
	return out, s.c.GetWorkflow(ctx, id, "").Get(ctx, &out)
}

// scOurs and scOfficial dial a client of their SDK with the recording
// converters; with a task queue, they also start a worker on it.
func scOurs(t *testing.T, hp, tq string, rec *scRecorder) scClient {
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), scCodecOurs{scCodec{rec: rec}})
	fc := scFailuresOurs{scFailures{rec: rec, next: temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{DataConverter: dc})}}
	c, err := client.Dial(client.Options{HostPort: hp, DataConverter: dc, FailureConverter: fc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if tq != "" {
		w := worker.New(c, tq, worker.Options{EnableSessionWorker: true})
		w.RegisterWorkflowWithOptions(SCParentOurs, workflow.RegisterOptions{Name: "SCParent"})
		w.RegisterWorkflowWithOptions(SCChildOurs, workflow.RegisterOptions{Name: "SCChild"})
		w.RegisterWorkflowWithOptions(SCTargetOurs, workflow.RegisterOptions{Name: "SCTarget"})
		w.RegisterWorkflowWithOptions(SCFailingChildOurs, workflow.RegisterOptions{Name: "SCFailingChild"})
		w.RegisterActivityWithOptions(scActivity, activity.RegisterOptions{Name: "SCActivity"})
		w.RegisterActivityWithOptions(scLocalActivity, activity.RegisterOptions{Name: "SCLocalActivity"})
		w.RegisterActivityWithOptions(scFailingActivityOurs, activity.RegisterOptions{Name: "SCFailingActivity"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
	}
	return scOurClient{c}
}

func scOfficial(t *testing.T, hp, tq string, rec *scRecorder) scClient {
	dc := officialconverter.NewCodecDataConverter(officialconverter.GetDefaultDataConverter(), scCodecOfficial{scCodec{rec: rec}})
	fc := scFailuresOfficial{scFailures{rec: rec, next: officialtemporal.NewDefaultFailureConverter(officialtemporal.DefaultFailureConverterOptions{DataConverter: dc})}}
	c, err := officialclient.Dial(officialclient.Options{HostPort: hp, DataConverter: dc, FailureConverter: fc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if tq != "" {
		w := officialworker.New(c, tq, officialworker.Options{EnableSessionWorker: true})
		w.RegisterWorkflowWithOptions(SCParentOfficial, officialworkflow.RegisterOptions{Name: "SCParent"})
		w.RegisterWorkflowWithOptions(SCChildOfficial, officialworkflow.RegisterOptions{Name: "SCChild"})
		w.RegisterWorkflowWithOptions(SCTargetOfficial, officialworkflow.RegisterOptions{Name: "SCTarget"})
		w.RegisterWorkflowWithOptions(SCFailingChildOfficial, officialworkflow.RegisterOptions{Name: "SCFailingChild"})
		w.RegisterActivityWithOptions(scActivity, officialactivity.RegisterOptions{Name: "SCActivity"})
		w.RegisterActivityWithOptions(scLocalActivity, officialactivity.RegisterOptions{Name: "SCLocalActivity"})
		w.RegisterActivityWithOptions(scFailingActivityOfficial, officialactivity.RegisterOptions{Name: "SCFailingActivity"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
	}
	return scOfficialClient{c}
}

// scOutcome is what a run of the scenario returned and recorded.
type scOutcome struct {
	query, update, result, target string
	client, worker                []string // the contexts recorded on each side
}

// runSCScenario starts SCTarget and SCParent with one SDK's client on a
// worker of the other (or the same) SDK, queries, updates and signals the
// parent, and reads both results.
func runSCScenario(t *testing.T, hp string, ourClient, ourWorker bool) scOutcome {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	prefix := fmt.Sprintf("sc-%d", time.Now().UnixNano())
	clientRec, workerRec := &scRecorder{}, &scRecorder{}
	if ourWorker {
		scOurs(t, hp, prefix, workerRec)
	} else {
		scOfficial(t, hp, prefix, workerRec)
	}
	var c scClient
	if ourClient {
		c = scOurs(t, hp, "", clientRec)
	} else {
		c = scOfficial(t, hp, "", clientRec)
	}
	parent := prefix + "-parent"
	if err := c.start(ctx, parent+"-target", prefix, "SCTarget"); err != nil {
		t.Fatal(err)
	}
	if err := c.start(ctx, parent, prefix, "SCParent", "in"); err != nil {
		t.Fatal(err)
	}
	var o scOutcome
	// The first query waits for the first workflow task, which fails, and
	// is retried, while the worker cannot decode the input.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		qctx, qcancel := context.WithTimeout(ctx, 5*time.Second)
		var err error
		o.query, err = c.query(qctx, parent, "sc-query", "q")
		qcancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the query was not answered (the worker could not run the workflow?): %v", err)
		}
	}
	var err error
	if o.update, err = c.update(ctx, parent, "sc-update", "u"); err != nil {
		t.Fatalf("the update: %v", err)
	}
	// Now that the workflow waits with no workflow task, the query is a
	// query task of its own, whose failure the worker converts (a query
	// that comes with a workflow task is answered with its message only).
	if _, err := c.query(ctx, parent, "sc-query", "fail"); err == nil || !strings.Contains(err.Error(), "the query failed") {
		t.Errorf("the failing query: %v, want its handler's error", err)
	}
	if err := c.signal(ctx, parent, "sc-finish", "finish"); err != nil {
		t.Fatal(err)
	}
	if o.result, err = c.result(ctx, parent); err != nil {
		t.Fatalf("the parent's result: %v", err)
	}
	if o.target, err = c.result(ctx, parent+"-target"); err != nil {
		t.Fatalf("the signaled workflow's result: %v", err)
	}
	o.client, o.worker = clientRec.notes(prefix), workerRec.notes(prefix)
	return o
}

func TestSerializationContextsAreTheSameOnBothSDKs(t *testing.T) {
	hp := testharness.HostPort(t)
	official := runSCScenario(t, hp, false, false)
	t.Logf("go.temporal.io/sdk's worker was told:\n%s\nand its client:\n%s", strings.Join(official.worker, "\n"), strings.Join(official.client, "\n"))
	want := scOutcome{query: "query:q:in", update: "update:u", target: "target:ping:in",
		result: "activity:in|refused in (type: SCRefused, retryable: false)|local:in|child:in|activity:session|u|finish"}
	for _, run := range []struct {
		name                 string
		ourClient, ourWorker bool
	}{
		{"go.temporal.io/sdk's client and worker", false, false},
		{"this SDK's client and worker", true, true},
		{"go.temporal.io/sdk's client, this SDK's worker", false, true},
		{"this SDK's client, go.temporal.io/sdk's worker", true, false},
	} {
		t.Run(run.name, func(t *testing.T) {
			o := official
			if run.ourClient || run.ourWorker {
				o = runSCScenario(t, hp, run.ourClient, run.ourWorker)
			}
			if o.query != want.query || o.update != want.update || o.result != want.result || o.target != want.target {
				t.Errorf("query %q, update %q, result %q, target %q; want %q, %q, %q, %q",
					o.query, o.update, o.result, o.target, want.query, want.update, want.result, want.target)
			}
			known := scQueryFailure
			if run.ourWorker {
				known = func(note string) bool {
					return scQueryFailure(note) || scCanceledActivity(note)
				}
			}
			scCompare(t, "worker", o.worker, official.worker, known)
			scCompare(t, "client", o.client, official.client, nil)
		})
	}
}

// scCanceledActivity is a known difference: the session's
// creation activity is canceled when the session completes, and this
// SDK's workflow turns the canceled event into a CanceledError through the
// failure converter (told the activity's context), where go.temporal.io/sdk
// builds the CanceledError itself, its details decoded with the
// activity's data converter.
func scCanceledActivity(note string) bool {
	return strings.HasPrefix(note, "failure-to-error ") && strings.Contains(note, "ActivityType:internalSessionCreationActivity ")
}

// scQueryFailure is the failing query's conversion, with the workflow's
// context: it happens only when the server sends the query as a query task
// of its own (it may send it with a workflow task, whose query answers
// carry the error's message alone), so a run may or may not note it.
func scQueryFailure(note string) bool {
	return note == "error-to-failure {Kind:workflow Namespace:default WorkflowID:<run>-parent WorkflowType: ActivityType: TaskQueue: IsLocal:false}"
}

// scCompare reports the contexts one side was told that go.temporal.io/sdk's
// was not, and those it was not told, unless known says they may differ.
func scCompare(t *testing.T, side string, got, want []string, known func(string) bool) {
	t.Helper()
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range list {
			m[s] = true
		}
		return m
	}
	g, w := in(got), in(want)
	for _, s := range got {
		if !w[s] && (known == nil || !known(s)) {
			t.Errorf("the %s was told %s, which go.temporal.io/sdk's was not", side, s)
		}
	}
	for _, s := range want {
		if !g[s] && (known == nil || !known(s)) {
			t.Errorf("the %s was not told %s, as go.temporal.io/sdk's was", side, s)
		}
	}
}
