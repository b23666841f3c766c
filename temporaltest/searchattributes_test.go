package temporaltest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/workflow"
)

var (
	colorKey = temporal.NewSearchAttributeKeyKeyword("Color")
	sizeKey  = temporal.NewSearchAttributeKeyInt64("Size")
	// unregisteredKey names an attribute no test registers.
	unregisteredKey = temporal.NewSearchAttributeKeyKeyword("Unregistered")
)

// registered are the custom attributes the tests of this file register.
var registered = map[string]enumspb.IndexedValueType{
	"Color": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "Size": enumspb.INDEXED_VALUE_TYPE_INT,
}

// Attributed sets search attributes as its mode says, then waits for the
// signal "done" (or "continue", to continue as new with the attributes it
// has).
func Attributed(ctx workflow.Context, mode string) error {
	var err error
	switch mode {
	case "upsert":
		err = workflow.UpsertTypedSearchAttributes(ctx, colorKey.ValueSet("blue"), sizeKey.ValueSet(3))
	case "upsert-unregistered":
		err = workflow.UpsertTypedSearchAttributes(ctx, unregisteredKey.ValueSet("x"))
	case "upsert-mistyped":
		err = workflow.UpsertTypedSearchAttributes(ctx, temporal.NewSearchAttributeKeyInt64("Color").ValueSet(3))
	case "child-unregistered":
		ctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID: workflow.GetInfo(ctx).WorkflowExecution.ID + "-child", TypedSearchAttributes: temporal.NewSearchAttributes(unregisteredKey.ValueSet("x")),
		})
		err = workflow.ExecuteChildWorkflow(ctx, Attributed, "wait").Get(ctx, nil)
	case "done":
		return nil
	}
	if err != nil {
		return err
	}
	var signal string
	workflow.GetSignalChannel(ctx, "next").Receive(ctx, &signal)
	if signal == "continue" {
		return workflow.NewContinueAsNewError(ctx, Attributed, "done")
	}
	return nil
}

func TestSearchAttributesAreRegisteredListedAndRemoved(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{SearchAttributes: registered})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	op := c.OperatorService()
	list := func() *operatorservice.ListSearchAttributesResponse {
		t.Helper()
		resp, err := op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: srv.Namespace()})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	listed := list()
	for name, want := range map[string]enumspb.IndexedValueType{
		"WorkflowId": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "StartTime": enumspb.INDEXED_VALUE_TYPE_DATETIME,
		"ExecutionStatus": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "TemporalChangeVersion": enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST,
		"BuildIds": enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, "HistoryLength": enumspb.INDEXED_VALUE_TYPE_INT,
	} {
		if got := listed.GetSystemAttributes()[name]; got != want {
			t.Errorf("system attribute %s: %v, want %v", name, got, want)
		}
	}
	if got := listed.GetCustomAttributes(); len(got) != 2 || got["Color"] != enumspb.INDEXED_VALUE_TYPE_KEYWORD || got["Size"] != enumspb.INDEXED_VALUE_TYPE_INT {
		t.Errorf("custom attributes %v; want those of ServerOptions.SearchAttributes", got)
	}

	if _, err := op.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: srv.Namespace(),
		SearchAttributes: map[string]enumspb.IndexedValueType{"Due": enumspb.INDEXED_VALUE_TYPE_DATETIME, "Color": enumspb.INDEXED_VALUE_TYPE_INT}}); err != nil {
		t.Fatal(err)
	}
	if got := list().GetCustomAttributes(); got["Due"] != enumspb.INDEXED_VALUE_TYPE_DATETIME || got["Color"] != enumspb.INDEXED_VALUE_TYPE_KEYWORD {
		t.Errorf("after adding Due, and Color again as an Int: %v; want Due added and Color as it was", got)
	}
	keys, err := c.GetSearchAttributes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if keys.GetKeys()["Due"] != enumspb.INDEXED_VALUE_TYPE_DATETIME || keys.GetKeys()["RunId"] != enumspb.INDEXED_VALUE_TYPE_KEYWORD {
		t.Errorf("GetSearchAttributes lists %v; want the system and custom attributes", keys.GetKeys())
	}

	var invalid *serviceerror.InvalidArgument
	_, err = op.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: srv.Namespace(),
		SearchAttributes: map[string]enumspb.IndexedValueType{"WorkflowId": enumspb.INDEXED_VALUE_TYPE_KEYWORD}})
	if !errors.As(err, &invalid) || !strings.Contains(err.Error(), "Search attribute WorkflowId is reserved by system.") {
		t.Errorf("adding WorkflowId: %v; want InvalidArgument, reserved", err)
	}
	_, err = op.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: srv.Namespace(),
		SearchAttributes: map[string]enumspb.IndexedValueType{"B1": enumspb.INDEXED_VALUE_TYPE_BOOL, "B2": enumspb.INDEXED_VALUE_TYPE_BOOL,
			"B3": enumspb.INDEXED_VALUE_TYPE_BOOL, "B4": enumspb.INDEXED_VALUE_TYPE_BOOL}})
	if !errors.As(err, &invalid) || !strings.Contains(err.Error(), "cannot have more than 3 search attribute of type Bool") {
		t.Errorf("adding a fourth Bool: %v; want InvalidArgument, as a dev server's 3 Bool columns", err)
	}
	_, err = op.RemoveSearchAttributes(ctx, &operatorservice.RemoveSearchAttributesRequest{Namespace: srv.Namespace(), SearchAttributes: []string{"StartTime"}})
	if !errors.As(err, &invalid) {
		t.Errorf("removing StartTime: %v; want InvalidArgument", err)
	}
	if _, err := op.RemoveSearchAttributes(ctx, &operatorservice.RemoveSearchAttributesRequest{Namespace: srv.Namespace(),
		SearchAttributes: []string{"Due", "NeverRegistered"}}); err != nil {
		t.Fatal(err)
	}
	if got := list().GetCustomAttributes(); len(got) != 2 || got["Due"] != enumspb.INDEXED_VALUE_TYPE_UNSPECIFIED {
		t.Errorf("after removing Due: %v", got)
	}
	_, err = op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: "elsewhere"})
	var nsNotFound *serviceerror.NamespaceNotFound
	if !errors.As(err, &nsNotFound) {
		t.Errorf("listing another namespace's: %T %v; want NamespaceNotFound", err, err)
	}
}

func TestEachNamespaceHasItsOwnSearchAttributes(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{Namespaces: []string{"other"}, SearchAttributes: registered})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	op := c.OperatorService()
	if _, err := op.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: "other",
		SearchAttributes: map[string]enumspb.IndexedValueType{"OnlyOther": enumspb.INDEXED_VALUE_TYPE_BOOL}}); err != nil {
		t.Fatal(err)
	}
	for ns, want := range map[string]string{srv.Namespace(): "map[Color:Keyword Size:Int]", "other": "map[Color:Keyword OnlyOther:Bool Size:Int]"} {
		listed, err := op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ns})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(listed.GetCustomAttributes()); got != want {
			t.Errorf("namespace %s: custom attributes %s; want %s (ServerOptions.SearchAttributes in every namespace at the start, the rest its own)", ns, got, want)
		}
	}
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "only-other", TaskQueue: "nobody-polls",
		TypedSearchAttributes: temporal.NewSearchAttributes(temporal.NewSearchAttributeKeyBool("OnlyOther").ValueSet(true))}, Attributed, "done")
	var invalid *serviceerror.InvalidArgument
	if !errors.As(err, &invalid) {
		t.Errorf("a start in %s with an attribute of another namespace: %v; want InvalidArgument", srv.Namespace(), err)
	}
}

func TestAStartWithAnUnregisteredOrMistypedSearchAttributeIsRefused(t *testing.T) {
	_, c := start(t, temporaltest.ServerOptions{SearchAttributes: registered})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, tc := range []struct {
		attrs temporal.SearchAttributes
		want  string
	}{
		{temporal.NewSearchAttributes(unregisteredKey.ValueSet("x")), "Namespace default has no mapping defined for search attribute Unregistered"},
		{temporal.NewSearchAttributes(temporal.NewSearchAttributeKeyInt64("Color").ValueSet(3)), "invalid value for search attribute Color of type Keyword: 3"},
		{temporal.NewSearchAttributes(temporal.NewSearchAttributeKeyKeyword("Size").ValueSet("big")), "invalid value for search attribute Size of type Int: big"},
		{temporal.NewSearchAttributes(temporal.NewSearchAttributeKeyKeyword("WorkflowId").ValueSet("x")), "WorkflowId attribute can't be set in SearchAttributes"},
	} {
		opts := client.StartWorkflowOptions{ID: "refused", TaskQueue: "nobody-polls", TypedSearchAttributes: tc.attrs}
		_, err := c.ExecuteWorkflow(ctx, opts, Attributed, "done")
		var invalid *serviceerror.InvalidArgument
		if !errors.As(err, &invalid) || invalid.Message != tc.want {
			t.Errorf("start: %v; want InvalidArgument %q", err, tc.want)
		}
		_, err = c.SignalWithStartWorkflow(ctx, "refused", "next", "", opts, Attributed, "done")
		if !errors.As(err, &invalid) || invalid.Message != tc.want {
			t.Errorf("signal-with-start: %v; want InvalidArgument %q", err, tc.want)
		}
	}
	if _, err := c.DescribeWorkflowExecution(ctx, "refused", ""); err == nil {
		t.Error("a refused start started a run")
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "accepted", TaskQueue: "nobody-polls",
		TypedSearchAttributes: temporal.NewSearchAttributes(colorKey.ValueSet("red"), sizeKey.ValueSet(7))}, Attributed, "done")
	if err != nil {
		t.Fatal(err)
	}
	described, err := c.DescribeWorkflow(ctx, run.GetID(), run.GetRunID())
	if err != nil {
		t.Fatal(err)
	}
	if color, _ := described.TypedSearchAttributes.GetKeyword(colorKey); color != "red" {
		t.Errorf("the run's Color is %q", color)
	}
	if size, _ := described.TypedSearchAttributes.GetInt64(sizeKey); size != 7 {
		t.Errorf("the run's Size is %d", size)
	}
}

// failedTask waits for the run's first failed workflow task.
func failedTask(t *testing.T, c client.Client, workflowID string) *historypb.WorkflowTaskFailedEventAttributes {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		iter := c.GetWorkflowHistory(ctx, workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for iter.HasNext() {
			ev, err := iter.Next()
			if err != nil {
				t.Fatal(err)
			}
			if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil {
				return a
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("workflow %s: no workflow task failed", workflowID)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func TestACommandWithABadSearchAttributeFailsTheWorkflowTask(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{SearchAttributes: registered})
	startWorker(t, c, "attributed", []any{Attributed}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const cause = "BadSearchAttributes: " // as a server words it
	for mode, want := range map[string]string{
		"upsert-unregistered": cause + "Namespace default has no mapping defined for search attribute Unregistered",
		"upsert-mistyped":     cause + "invalid value for search attribute Color of type Keyword: 3",
		"child-unregistered":  cause + "Namespace default has no mapping defined for search attribute Unregistered",
	} {
		if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: mode, TaskQueue: "attributed"}, Attributed, mode); err != nil {
			t.Fatal(err)
		}
		failed := failedTask(t, c, mode)
		if failed.GetCause() != enumspb.WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES || failed.GetFailure().GetMessage() != want {
			t.Errorf("%s: the workflow task failed with %v %q; want %q", mode, failed.GetCause(), failed.GetFailure().GetMessage(), want)
		}
		if err := c.TerminateWorkflow(ctx, mode, "", "test done"); err != nil {
			t.Fatal(err)
		}
	}

	// An upsert of registered attributes shows in Describe; once one of
	// them is removed, the continue-as-new that carries it is refused.
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "upsert", TaskQueue: "attributed"}, Attributed, "upsert")
	if err != nil {
		t.Fatal(err)
	}
	for {
		described, err := c.DescribeWorkflow(ctx, run.GetID(), run.GetRunID())
		if err != nil {
			t.Fatal(err)
		}
		color, _ := described.TypedSearchAttributes.GetKeyword(colorKey)
		size, _ := described.TypedSearchAttributes.GetInt64(sizeKey)
		if color == "blue" && size == 3 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("Describe never showed the upsert: Color %q, Size %d", color, size)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if _, err := c.OperatorService().RemoveSearchAttributes(ctx, &operatorservice.RemoveSearchAttributesRequest{
		Namespace: srv.Namespace(), SearchAttributes: []string{"Size"}}); err != nil {
		t.Fatal(err)
	}
	if err := c.SignalWorkflow(ctx, "upsert", "", "next", "continue"); err != nil {
		t.Fatal(err)
	}
	failed := failedTask(t, c, "upsert")
	if want := cause + "Namespace default has no mapping defined for search attribute Size"; failed.GetFailure().GetMessage() != want {
		t.Errorf("continue-as-new: the workflow task failed with %q; want %q", failed.GetFailure().GetMessage(), want)
	}
}
