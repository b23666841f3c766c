package typed_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The client's typed calls run against a dev server (one per test binary,
// see testharness): each test makes the same calls typed and untyped on
// two workflows and requires their histories to be the same, but for
// what any two workflows differ in (IDs, times, request IDs).

func TestMain(m *testing.M) { testharness.Main(m) }

// awaitsPaymentFlow is the workflow of the signal-with-start tests.
func awaitsPaymentFlow(ctx workflow.Context, order Order) (Receipt, error) {
	return awaitsPayment(ctx, order)
}

// startWorker runs a worker of cartTyped and awaitsPaymentFlow on a task
// queue of the test's own. They are registered under their functions'
// names: a client names a workflow function by its own name, as
// go.temporal.io/sdk's does, whatever a worker registered it as.
func startWorker(t *testing.T) (client.Client, string) {
	t.Helper()
	quiet := log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Namespace: testharness.Namespace(t), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	taskQueue := "typed-" + t.Name()
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(cartTyped)
	w.RegisterWorkflow(awaitsPaymentFlow)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return c, taskQueue
}

// requireSameServerHistory fails t unless the two workflows' histories
// are the same but for their IDs, times, request IDs and sizes.
func requireSameServerHistory(t *testing.T, c client.Client, typedID, untypedID string) {
	t.Helper()
	typedHistory, untypedHistory := serverHistory(t, c, typedID), serverHistory(t, c, untypedID)
	if err := typedtest.CompareHistories(untypedHistory, typedHistory); err != nil {
		t.Fatalf("the typed calls wrote another history than the untyped ones: %v", err)
	}
}

// serverHistory is the workflow's history without what differs between
// any two workflows of a server beyond what CompareHistories ignores:
// their IDs, the events' task IDs, and the history sizes (which count the
// IDs' lengths).
func serverHistory(t *testing.T, c client.Client, workflowID string) *historypb.History {
	t.Helper()
	iter := c.GetWorkflowHistory(context.Background(), workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	ids := map[string]bool{workflowID: true}
	for iter.HasNext() {
		e, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := e.GetWorkflowExecutionStartedEventAttributes(); a != nil {
			ids[a.GetOriginalExecutionRunId()] = true
		}
		h.Events = append(h.Events, e)
	}
	for _, e := range h.Events {
		e.TaskId = 0
		scrub(e.ProtoReflect(), ids)
	}
	return h
}

// scrub clears the fields of m that name one of ids or differ between
// runs anyway.
func scrub(m protoreflect.Message, ids map[string]bool) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Name() == "history_size_bytes":
			m.Clear(fd)
		case fd.Kind() == protoreflect.StringKind && !fd.IsList() && !fd.IsMap() && ids[v.String()]:
			m.Clear(fd)
		case fd.IsList():
			if fd.Kind() != protoreflect.MessageKind {
				break
			}
			for i := 0; i < v.List().Len(); i++ {
				scrub(v.List().Get(i).Message(), ids)
			}
		case fd.IsMap():
			if fd.MapValue().Kind() != protoreflect.MessageKind {
				break
			}
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				scrub(mv.Message(), ids)
				return true
			})
		case fd.Kind() == protoreflect.MessageKind:
			scrub(v.Message(), ids)
		}
		return true
	})
}

// awaitFirstTask waits until the workflow completed its first workflow
// task: an update sent before it would share that task, one sent after
// gets a task of its own, and the two histories would differ for that
// alone.
func awaitFirstTask(t *testing.T, c client.Client, workflowID string) {
	t.Helper()
	for range 200 {
		iter := c.GetWorkflowHistory(context.Background(), workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for iter.HasNext() {
			e, err := iter.Next()
			if err != nil {
				t.Fatal(err)
			}
			if e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("workflow %s did not complete its first task in 10s", workflowID)
}

// workflowIDs returns IDs for the typed and the untyped workflow of a
// test, new on each run (go test -count).
func workflowIDs(t *testing.T, kind string) (typedID, untypedID string) {
	suffix := fmt.Sprintf("%s-%s-%d", kind, t.Name(), time.Now().UnixNano())
	return "typed-" + suffix, "untyped-" + suffix
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestClientStartUpdateQueryAndSignalWriteTheSameHistory(t *testing.T) {
	c, taskQueue := startWorker(t)
	ctx := testContext(t)
	typedID, untypedID := workflowIDs(t, "cart")
	completed := func(id, updateID string) client.UpdateWorkflowOptions {
		return client.UpdateWorkflowOptions{WorkflowID: id, UpdateID: updateID, WaitForStage: client.WorkflowUpdateStageCompleted}
	}

	// Typed.
	run, err := typed.ExecuteWorkflow0(ctx, c, client.StartWorkflowOptions{ID: typedID, TaskQueue: taskQueue}, cartTyped)
	if err != nil {
		t.Fatal(err)
	}
	awaitFirstTask(t, c, typedID)
	added, err := typed.UpdateWorkflow(ctx, c, completed(typedID, "u1"), AddItem, "apple")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := added.Get(ctx); err != nil || n != 1 {
		t.Fatalf("add-item: %d, %v; want 1", n, err)
	}
	rejected, err := typed.UpdateWorkflow(ctx, c, completed(typedID, "u2"), AddItem, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rejected.Get(ctx); err == nil || !strings.Contains(err.Error(), "an item needs a name") {
		t.Fatalf("an item without a name: %v, want the validator's rejection", err)
	}
	added, err = typed.UpdateWorkflow(ctx, c, completed(typedID, "u3"), AddItem, "avocado")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := added.Get(ctx); err != nil || n != 2 {
		t.Fatalf("add-item: %d, %v; want 2", n, err)
	}
	count, err := typed.QueryWorkflow0(ctx, c, typedID, "", ItemCount)
	if err != nil || count != 2 {
		t.Fatalf("item-count: %d, %v; want 2", count, err)
	}
	matching, err := typed.QueryWorkflow(ctx, c, typedID, "", ItemsMatching, "av")
	if err != nil || fmt.Sprint(matching) != "[avocado]" {
		t.Fatalf("items-matching: %v, %v; want [avocado]", matching, err)
	}
	cleared, err := typed.UpdateWorkflow(ctx, c, completed(typedID, "u4"), ClearCart, "changed my mind")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cleared.Get(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := typed.UpdateWorkflow(ctx, c, completed(typedID, "u5"), AddItem, "fig"); err != nil {
		t.Fatal(err)
	}
	// The handle of an update sent before, by its ID.
	if n, err := typed.GetWorkflowUpdateHandle(c, client.GetWorkflowUpdateHandleOptions{WorkflowID: typedID, UpdateID: "u3"}, AddItem).Get(ctx); err != nil || n != 2 {
		t.Fatalf("the handle of u3: %d, %v; want 2", n, err)
	}
	if err := typed.SignalWorkflow(ctx, c, typedID, "", Checkout, typed.None{}); err != nil {
		t.Fatal(err)
	}
	items, err := run.Get(ctx)
	if err != nil || fmt.Sprint(items) != "[fig]" {
		t.Fatalf("the cart: %v, %v; want [fig]", items, err)
	}
	if again, err := typed.GetWorkflow[[]string](ctx, c, typedID, run.GetRunID()).GetWithOptions(ctx, client.WorkflowRunGetOptions{}); err != nil || fmt.Sprint(again) != "[fig]" {
		t.Fatalf("GetWorkflow: %v, %v; want [fig]", again, err)
	}

	// Untyped, the same calls.
	urun, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: untypedID, TaskQueue: taskQueue}, cartTyped)
	if err != nil {
		t.Fatal(err)
	}
	awaitFirstTask(t, c, untypedID)
	update := func(updateID, name string, arg any) {
		t.Helper()
		o := completed(untypedID, updateID)
		o.UpdateName, o.Args = name, []any{arg}
		h, err := c.UpdateWorkflow(ctx, o)
		if err == nil {
			err = h.Get(ctx, nil)
		}
		if err != nil && arg != "" {
			t.Fatal(err)
		}
	}
	update("u1", "add-item", "apple")
	update("u2", "add-item", "")
	update("u3", "add-item", "avocado")
	if _, err := c.QueryWorkflow(ctx, untypedID, "", "item-count"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.QueryWorkflow(ctx, untypedID, "", "items-matching", "av"); err != nil {
		t.Fatal(err)
	}
	update("u4", "clear-cart", "changed my mind")
	update("u5", "add-item", "fig")
	if err := c.SignalWorkflow(ctx, untypedID, "", "checkout", nil); err != nil {
		t.Fatal(err)
	}
	if err := urun.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}

	requireSameServerHistory(t, c, typedID, untypedID)
}

func TestSignalWithStartWritesTheSameHistory(t *testing.T) {
	c, taskQueue := startWorker(t)
	ctx := testContext(t)
	typedID, untypedID := workflowIDs(t, "order")
	order, payment := Order{ID: "o-9", Customer: "Ada", Cents: 990}, Payment{Cents: 990, By: "card"}

	run, err := typed.SignalWithStartWorkflow(ctx, c, typedID, OrderPaid, payment,
		client.StartWorkflowOptions{TaskQueue: taskQueue}, awaitsPaymentFlow, order)
	if err != nil {
		t.Fatal(err)
	}
	receipt, err := run.Get(ctx)
	if err != nil || receipt != (Receipt{OrderID: "o-9", Charged: 990}) {
		t.Fatalf("got %+v, %v", receipt, err)
	}

	urun, err := c.SignalWithStartWorkflow(ctx, untypedID, "order-paid", payment,
		client.StartWorkflowOptions{TaskQueue: taskQueue}, awaitsPaymentFlow, order)
	if err != nil {
		t.Fatal(err)
	}
	if err := urun.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	requireSameServerHistory(t, c, typedID, untypedID)
}

func TestUpdateWithStartWritesTheSameHistory(t *testing.T) {
	c, taskQueue := startWorker(t)
	ctx := testContext(t)
	typedID, untypedID := workflowIDs(t, "cart")
	startOptions := func(id string) client.StartWorkflowOptions {
		return client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue, WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}
	}
	updateOptions := client.UpdateWorkflowOptions{UpdateID: "u1", WaitForStage: client.WorkflowUpdateStageCompleted}

	start := typed.NewWithStartWorkflowOperation0(c, startOptions(typedID), cartTyped)
	handle, err := typed.UpdateWithStartWorkflow(ctx, c, start, updateOptions, AddItem, "apple")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := handle.Get(ctx); err != nil || n != 1 {
		t.Fatalf("add-item with start: %d, %v; want 1", n, err)
	}
	run, err := start.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := typed.SignalWorkflow(ctx, c, typedID, "", Checkout, typed.None{}); err != nil {
		t.Fatal(err)
	}
	if items, err := run.Get(ctx); err != nil || fmt.Sprint(items) != "[apple]" {
		t.Fatalf("the cart: %v, %v; want [apple]", items, err)
	}

	ustart := c.NewWithStartWorkflowOperation(startOptions(untypedID), cartTyped)
	o := updateOptions
	o.UpdateName, o.Args = "add-item", []any{"apple"}
	uhandle, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: ustart, UpdateOptions: o})
	if err != nil {
		t.Fatal(err)
	}
	if err := uhandle.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	urun, err := ustart.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SignalWorkflow(ctx, untypedID, "", "checkout", nil); err != nil {
		t.Fatal(err)
	}
	if err := urun.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	requireSameServerHistory(t, c, typedID, untypedID)
}

// The definition gives the update's name and argument: options that name
// another, or carry arguments, are refused before anything is sent.
func TestUpdateOptionsThatContradictTheDefinitionAreRefused(t *testing.T) {
	ctx := context.Background()
	_, err := typed.UpdateWorkflow(ctx, nil, client.UpdateWorkflowOptions{WorkflowID: "w", UpdateName: "remove-item"}, AddItem, "x")
	if err == nil || err.Error() != `typed.UpdateWorkflow: options.UpdateName is "remove-item" but the update's definition is "add-item": leave UpdateName empty, the definition gives it` {
		t.Errorf("another update's name: %v", err)
	}
	_, err = typed.UpdateWithStartWorkflow(ctx, nil, typed.WithStartWorkflowOperation[[]string]{}, client.UpdateWorkflowOptions{Args: []any{"x"}}, AddItem, "y")
	if err == nil || !strings.Contains(err.Error(), `typed.UpdateWithStartWorkflow("add-item"): options.Args holds 1 value(s)`) {
		t.Errorf("arguments in the options: %v", err)
	}
}
