package worker_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/proxy"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/localstorage"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// storedThreshold is the external storage threshold of these tests: the
// payloads below are above it, their small companions below.
const storedThreshold = 4096

func largeText(tag string) string { return tag + ":" + strings.Repeat("0123456789", 1000) }

func largeReport(ctx context.Context, order string) (string, error) {
	activity.RecordHeartbeat(ctx, largeText("progress")) // stored as well
	return largeText("report of " + order[:5]), nil
}

func largeOrderWorkflow(ctx workflow.Context, order string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var report string
	if err := workflow.ExecuteActivity(ctx, largeReport, order).Get(ctx, &report); err != nil {
		return "", err
	}
	var note string
	workflow.GetSignalChannel(ctx, "note").Receive(ctx, &note)
	if err := workflow.SetQueryHandler(ctx, "report", func() (string, error) { return report, nil }); err != nil {
		return "", err
	}
	return largeText("done " + report[:15] + " " + note[:4]), nil
}

// A workflow whose input, signal, activity result, query answer and result
// are above the threshold runs as any other; the history the server keeps
// holds references, the payloads are in the driver's directory, and the
// client's reads (result, query, history) get the payloads back.
func TestExternalStorageKeepsLargePayloadsOutOfTheHistory(t *testing.T) {
	dir := t.TempDir()
	driver, err := localstorage.NewDriver(localstorage.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	storage := converter.ExternalStorage{Drivers: []converter.StorageDriver{driver}, PayloadSizeThreshold: storedThreshold}
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), ExternalStorage: storage})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(largeOrderWorkflow)
		w.RegisterActivity(largeReport)
	})
	order := largeText("order")
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, largeOrderWorkflow, order)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "note", largeText("note")); err != nil {
		t.Fatal(err)
	}
	var result string
	if err := run.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	if want := largeText("done report of order note"); result != want {
		t.Fatalf("result %.40q..., want %.40q...", result, want)
	}
	answer, err := c.QueryWorkflow(ctx, run.GetID(), "", "report")
	if err != nil {
		t.Fatal(err)
	}
	var report string
	if err := answer.Get(&report); err != nil || report != largeText("report of order") {
		t.Fatalf("query answered %.40q, %v", report, err)
	}

	// The server's history, read past the client: references only.
	raw := rawHistory(t, c, run.GetID())
	references := 0
	err = proxy.VisitPayloads(ctx, raw, proxy.VisitPayloadsOptions{Visitor: func(_ *proxy.VisitPayloadsContext, ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
		for _, p := range ps {
			if bytes.Contains(p.GetData(), []byte("0123456789")) {
				t.Errorf("the history holds a large payload itself: %.60q", p.GetData())
			}
			if string(p.GetMetadata()["messageType"]) == "temporal.api.sdk.v1.ExternalStorageReference" {
				references++
				if len(p.GetExternalPayloads()) != 1 || p.GetExternalPayloads()[0].GetSizeBytes() < storedThreshold {
					t.Errorf("a reference does not record its payload's size: %v", p.GetExternalPayloads())
				}
			}
		}
		return ps, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	// The input, the activity's input and result, the signal, the result.
	if references != 5 {
		t.Errorf("the history holds %d references, want 5", references)
	}
	// The directory holds each large payload once (the order was sent
	// twice: the workflow's input, the activity's), the heartbeat's too.
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var p commonpb.Payload
		var text string
		if err := proto.Unmarshal(data, &p); err != nil || converter.GetDefaultDataConverter().FromPayload(&p, &text) != nil {
			t.Fatalf("%s is not a stored string payload: %v", f.Name(), err)
		}
		stored = append(stored, text[:strings.Index(text, ":")])
	}
	slices.Sort(stored)
	if want := []string{"done report of order note", "note", "order", "progress", "report of order"}; !slices.Equal(stored, want) {
		t.Errorf("the directory holds %q, want %q", stored, want)
	}

	// The client's history has the payloads back.
	for _, e := range history(t, c, run.GetID()) {
		if in := e.GetWorkflowExecutionStartedEventAttributes().GetInput(); in != nil {
			var got string
			if err := converter.GetDefaultDataConverter().FromPayloads(in, &got); err != nil || got != order {
				t.Errorf("the client's history holds the input %.40q, %v", got, err)
			}
		}
	}

	// A replayer with the same storage replays the recorded history.
	replayer, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{ExternalStorage: storage})
	if err != nil {
		t.Fatal(err)
	}
	replayer.RegisterWorkflow(largeOrderWorkflow)
	if err := replayer.ReplayWorkflowHistory(nil, raw); err != nil {
		t.Fatalf("replay with the storage: %v", err)
	}
}

// A client whose reader lacks the driver that stored a payload says which
// driver it needs.
func TestExternalStorageNamesAMissingDriver(t *testing.T) {
	driver, err := localstorage.NewDriver(localstorage.Options{Dir: t.TempDir(), Name: "archive"})
	if err != nil {
		t.Fatal(err)
	}
	writer, err := client.Dial(client.Options{HostPort: testharness.HostPort(t),
		ExternalStorage: converter.ExternalStorage{Drivers: []converter.StorageDriver{driver}, PayloadSizeThreshold: storedThreshold}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(writer.Close)
	other, err := localstorage.NewDriver(localstorage.Options{Dir: t.TempDir(), Name: "scratch"})
	if err != nil {
		t.Fatal(err)
	}
	reader, err := client.Dial(client.Options{HostPort: testharness.HostPort(t),
		ExternalStorage: converter.ExternalStorage{Drivers: []converter.StorageDriver{other}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reader.Close)
	ctx := testCtx(t)
	run, err := writer.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: unique(t, "tq")}, "nobody", largeText("input"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = writer.TerminateWorkflow(context.Background(), run.GetID(), "", "test over") })
	it := reader.GetWorkflowHistory(ctx, run.GetID(), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	_, err = it.Next()
	if err == nil || !strings.Contains(err.Error(), `storage driver "archive"`) || !strings.Contains(err.Error(), `add a driver named "archive"`) {
		t.Fatalf("reading the history without the driver: %v", err)
	}
}

// rawHistory is a run's history as the server keeps it, read with the
// client's plain workflow service (which does not retrieve payloads).
func rawHistory(t *testing.T, c client.Client, id string) *historypb.History {
	t.Helper()
	h := &historypb.History{}
	var token []byte
	for {
		resp, err := c.WorkflowService().GetWorkflowExecutionHistory(testCtx(t), &workflowservice.GetWorkflowExecutionHistoryRequest{
			Namespace: "default", Execution: &commonpb.WorkflowExecution{WorkflowId: id}, NextPageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, resp.GetHistory().GetEvents()...)
		if token = resp.GetNextPageToken(); len(token) == 0 {
			return h
		}
	}
}

// flakyRetrieval fails the first retrieval of each payload, as a store
// that is briefly unavailable.
type flakyRetrieval struct {
	*localstorage.Driver
	mu       sync.Mutex
	seen     map[string]bool
	failures int
}

func (d *flakyRetrieval) Retrieve(ctx converter.StorageDriverRetrieveContext, claims []converter.StorageDriverClaim) ([]*commonpb.Payload, error) {
	d.mu.Lock()
	for _, c := range claims {
		if file := c.ClaimData[localstorage.ClaimKeyFile]; !d.seen[file] {
			d.seen[file] = true
			d.failures++
			d.mu.Unlock()
			return nil, errors.New("store unavailable")
		}
	}
	d.mu.Unlock()
	return d.Driver.Retrieve(ctx, claims)
}

func relayLarge(ctx workflow.Context, in string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond}})
	var out string
	err := workflow.ExecuteActivity(ctx, echoActivity, in+" relayed").Get(ctx, &out)
	return out, err
}

func echoActivity(_ context.Context, in string) (string, error) { return in, nil }

// A task whose payload the worker cannot retrieve fails, and is retried:
// the workflow task (the server retries it), the activity attempt (its
// retry policy does); the workflow completes once the store answers.
func TestExternalStorageRetrievalFailureFailsTheTask(t *testing.T) {
	dir := t.TempDir()
	driver, err := localstorage.NewDriver(localstorage.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	flaky := &flakyRetrieval{Driver: driver, seen: map[string]bool{}}
	dialWith := func(d converter.StorageDriver) client.Client {
		c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t),
			ExternalStorage: converter.ExternalStorage{Drivers: []converter.StorageDriver{d}, PayloadSizeThreshold: storedThreshold}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	starter, workers := dialWith(driver), dialWith(flaky)
	tq, _ := startWorker(t, workers, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(relayLarge)
		w.RegisterActivity(echoActivity)
	})
	ctx := testCtx(t)
	in := largeText("parcel")
	run, err := starter.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, relayLarge, in)
	if err != nil {
		t.Fatal(err)
	}
	var out string
	if err := run.Get(ctx, &out); err != nil || out != in+" relayed" {
		t.Fatalf("result %.30q, %v", out, err)
	}
	flaky.mu.Lock()
	failures := flaky.failures
	flaky.mu.Unlock()
	if failures != 2 {
		t.Errorf("%d retrievals failed, want 2 (the workflow's input, the activity's)", failures)
	}
	events := history(t, starter, run.GetID())
	if n := countEvents(events, enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED); n != 1 {
		t.Errorf("%d workflow task failures in the history, want 1", n)
	}
	for _, e := range events {
		if a := e.GetActivityTaskStartedEventAttributes(); a != nil && a.GetAttempt() != 2 {
			t.Errorf("the activity completed on attempt %d, want 2", a.GetAttempt())
		}
	}
}
