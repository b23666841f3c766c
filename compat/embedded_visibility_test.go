package compat

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// embeddedCompatAttributes are registered on the dev server (TestMain) and
// on the embedded server alike, for the comparisons of this file;
// EmbeddedTags, a KeywordList, is registered by the test itself through
// the OperatorService (the durable-devserver installed may predate its
// taking KeywordList from --search-attribute).
var embeddedCompatAttributes = map[string]string{
	"EmbeddedRun": "Keyword", "EmbeddedColor": "Keyword", "EmbeddedSize": "Int",
	"EmbeddedDue": "Datetime", "EmbeddedScore": "Double", "EmbeddedUrgent": "Bool", "EmbeddedNote": "Text",
}

var (
	embeddedRunKey   = temporal.NewSearchAttributeKeyKeyword("EmbeddedRun")
	embeddedColorKey = temporal.NewSearchAttributeKeyKeyword("EmbeddedColor")
	embeddedSizeKey  = temporal.NewSearchAttributeKeyInt64("EmbeddedSize")
)

// EmbeddedAttributed sets search attributes as its mode says, then waits
// for the signal "next" ("continue": it continues as new, and the next
// run completes), or its cancellation.
func EmbeddedAttributed(ctx workflow.Context, mode string) error {
	var err error
	switch mode {
	case "upsert-unregistered":
		err = workflow.UpsertTypedSearchAttributes(ctx, temporal.NewSearchAttributeKeyKeyword("EmbeddedUnregistered").ValueSet("x"))
	case "upsert-mistyped":
		err = workflow.UpsertTypedSearchAttributes(ctx, temporal.NewSearchAttributeKeyInt64("EmbeddedColor").ValueSet(3))
	case "child-unregistered":
		ctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID:            workflow.GetInfo(ctx).WorkflowExecution.ID + "-child",
			TypedSearchAttributes: temporal.NewSearchAttributes(temporal.NewSearchAttributeKeyKeyword("EmbeddedUnregistered").ValueSet("x")),
		})
		err = workflow.ExecuteChildWorkflow(ctx, EmbeddedAttributed, "wait").Get(ctx, nil)
	case "done":
		return nil
	}
	if err != nil {
		return err
	}
	var signal string
	selector := workflow.NewSelector(ctx)
	selector.AddReceive(workflow.GetSignalChannel(ctx, "next"), func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, &signal) })
	selector.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) {})
	selector.Select(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	if signal == "continue" {
		return workflow.NewContinueAsNewError(ctx, EmbeddedAttributed, "done")
	}
	return nil
}

// scenarioResult is what a scenario saw, line by line, by what it asked.
type scenarioResult map[string]string

// TestEmbeddedVisibilityAndSearchAttributesMatchTheDevServer runs the
// same scenario with this SDK's client and worker on the dev server and
// on the embedded server: the search attributes listed, the refusals of
// starts and commands with bad search attributes, the runs that list
// filters match (in the order listed) and count, the start's summary and
// details, the cancel request's reason, history read in reverse and the
// pollers of a task queue must be the same.
func TestEmbeddedVisibilityAndSearchAttributesMatchTheDevServer(t *testing.T) {
	dev, _ := dialBoth(t)
	attrs := make(map[string]enumspb.IndexedValueType)
	for name, typeName := range embeddedCompatAttributes {
		attrs[name], _ = enumspb.IndexedValueTypeFromString(typeName)
	}
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{SearchAttributes: attrs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	embedded, err := client.Dial(srv.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(embedded.Close)
	tag := fmt.Sprintf("embedded-visibility-%d", time.Now().UnixNano())
	onDev := visibilityScenario(t, dev, tag+"-dev")
	onEmbedded := visibilityScenario(t, embedded, tag+"-embedded")
	for _, key := range slices.Sorted(maps.Keys(onDev)) {
		if onDev[key] != onEmbedded[key] {
			t.Errorf("%s:\n dev server: %s\n embedded:   %s", key, onDev[key], onEmbedded[key])
		}
	}
	if len(onDev) != len(onEmbedded) {
		t.Errorf("the dev server's scenario saw %d things, the embedded server's %d", len(onDev), len(onEmbedded))
	}
}

// visibilityScenario runs the scenario on a server, its workflow IDs
// prefixed with tag, and reports what it saw with tag taken out.
func visibilityScenario(t *testing.T, c client.Client, tag string) scenarioResult {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seen := scenarioResult{}
	queue := tag
	w := worker.New(c, queue, worker.Options{Identity: "visibility-worker"})
	w.RegisterWorkflow(EmbeddedAttributed)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	untag := func(s string) string { return strings.ReplaceAll(s, tag, "TAG") }
	if _, err := c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: client.DefaultNamespace,
		SearchAttributes: map[string]enumspb.IndexedValueType{"EmbeddedTags": enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST}}); err != nil {
		t.Fatal(err)
	}

	// The search attributes each server has.
	listed, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: client.DefaultNamespace})
	if err != nil {
		t.Fatal(err)
	}
	seen["system attributes"] = fmt.Sprint(listed.GetSystemAttributes())
	for name := range embeddedCompatAttributes {
		seen["custom attribute "+name] = listed.GetCustomAttributes()[name].String()
	}
	seen["custom attribute EmbeddedTags"] = listed.GetCustomAttributes()["EmbeddedTags"].String()

	// Starts refused for their search attributes.
	for name, attrs := range map[string]temporal.SearchAttributes{
		"unregistered": temporal.NewSearchAttributes(temporal.NewSearchAttributeKeyKeyword("EmbeddedUnregistered").ValueSet("x")),
		"mistyped":     temporal.NewSearchAttributes(temporal.NewSearchAttributeKeyKeyword("EmbeddedSize").ValueSet("big")),
		"system":       temporal.NewSearchAttributes(temporal.NewSearchAttributeKeyKeyword("WorkflowId").ValueSet("x")),
		"list":         temporal.NewSearchAttributes(temporal.NewSearchAttributeKeyKeywordList("EmbeddedColor").ValueSet([]string{"a", "b"})),
	} {
		_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: tag + "-refused", TaskQueue: queue, TypedSearchAttributes: attrs}, EmbeddedAttributed, "done")
		var invalid *serviceerror.InvalidArgument
		if errors.As(err, &invalid) {
			seen["start with a "+name+" attribute"] = "InvalidArgument: " + invalid.Message
		} else {
			seen["start with a "+name+" attribute"] = fmt.Sprintf("%T %v", err, err)
		}
	}

	// Commands refused for their search attributes.
	for _, mode := range []string{"upsert-unregistered", "upsert-mistyped", "child-unregistered"} {
		id := tag + "-" + mode
		if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, EmbeddedAttributed, mode); err != nil {
			t.Fatal(err)
		}
		for seen[mode] == "" {
			for _, ev := range fullHistory(t, c, id).GetEvents() {
				if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil {
					seen[mode] = fmt.Sprintf("%v %q", a.GetCause(), a.GetFailure().GetMessage())
					break
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err := c.TerminateWorkflow(ctx, id, "", "test done"); err != nil {
			t.Fatal(err)
		}
	}

	// Runs to list: a and d run, b completes, c is terminated, e
	// continues as new and completes.
	due := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	startRun := func(name, onQueue string, set ...temporal.SearchAttributeUpdate) client.WorkflowRun {
		set = append(set, embeddedRunKey.ValueSet(tag))
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: tag + "-" + name, TaskQueue: onQueue,
			TypedSearchAttributes: temporal.NewSearchAttributes(set...)}, EmbeddedAttributed, "wait")
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	startRun("a", queue, embeddedColorKey.ValueSet("red"), embeddedSizeKey.ValueSet(1),
		temporal.NewSearchAttributeKeyKeywordList("EmbeddedTags").ValueSet([]string{"x", "y"}),
		temporal.NewSearchAttributeKeyTime("EmbeddedDue").ValueSet(due), temporal.NewSearchAttributeKeyFloat64("EmbeddedScore").ValueSet(0.5),
		temporal.NewSearchAttributeKeyBool("EmbeddedUrgent").ValueSet(true), temporal.NewSearchAttributeKeyString("EmbeddedNote").ValueSet("call back"))
	b := startRun("b", queue, embeddedColorKey.ValueSet("blue"), embeddedSizeKey.ValueSet(2),
		temporal.NewSearchAttributeKeyKeywordList("EmbeddedTags").ValueSet([]string{"y"}),
		temporal.NewSearchAttributeKeyTime("EmbeddedDue").ValueSet(due.Add(time.Hour)), temporal.NewSearchAttributeKeyFloat64("EmbeddedScore").ValueSet(2.5))
	startRun("c", queue, embeddedColorKey.ValueSet("red"), embeddedSizeKey.ValueSet(3))
	startRun("d", tag+"-elsewhere")
	startRun("e", queue, embeddedColorKey.ValueSet("green"))
	if err := c.SignalWorkflow(ctx, tag+"-b", "", "next", "stop"); err != nil {
		t.Fatal(err)
	}
	if err := b.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.TerminateWorkflow(ctx, tag+"-c", "", "closed for the test"); err != nil {
		t.Fatal(err)
	}
	if err := c.SignalWorkflow(ctx, tag+"-e", "", "next", "continue"); err != nil {
		t.Fatal(err)
	}
	if err := c.GetWorkflow(ctx, tag+"-e", "").Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	mine := "EmbeddedRun = '" + tag + "'"
	// A dev server's visibility lags; the embedded server's does not.
	for deadline := time.Now().Add(30 * time.Second); ; {
		count, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: mine + " AND ExecutionStatus = 'Running'"})
		if err != nil {
			t.Fatal(err)
		}
		all, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: mine})
		if err != nil {
			t.Fatal(err)
		}
		if count.GetCount() == 2 && all.GetCount() == 6 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("visibility never showed the runs: %d open of %d", count.GetCount(), all.GetCount())
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, query := range []string{
		"", "EmbeddedColor = 'red'", "EmbeddedColor != 'red'", "NOT EmbeddedColor = 'red'", "EmbeddedColor IS NULL",
		"EmbeddedColor IS NOT NULL AND EmbeddedSize > 1", "EmbeddedSize BETWEEN 2 AND 3", "EmbeddedSize NOT BETWEEN 2 AND 3",
		"EmbeddedSize IN (1, 3)", "EmbeddedSize NOT IN (1, 3)", "EmbeddedColor STARTS_WITH 'r'", "EmbeddedColor NOT STARTS_WITH 'r'",
		"EmbeddedColor < 'green'", "EmbeddedTags = 'y'", "EmbeddedTags IN ('x', 'z')", "EmbeddedTags != 'x'",
		"NOT EmbeddedTags = 'x'", "EmbeddedTags NOT IN ('x')", "EmbeddedTags IS NULL", "NOT EmbeddedSize = 1", "EmbeddedSize != 1 OR EmbeddedColor = 'green'",
		"EmbeddedDue > '2030-01-02T03:30:00Z'", "EmbeddedScore >= 1", "EmbeddedUrgent = true", "EmbeddedNote = 'call back'",
		"(EmbeddedColor = 'red' OR EmbeddedSize = 2)", "ExecutionStatus = 'Running'", "ExecutionStatus != 'Running'",
		"ExecutionStatus IN (2, 'Terminated')", "CloseTime IS NULL", "CloseTime IS NOT NULL AND ExecutionDuration >= 0",
		"TaskQueue = '" + tag + "-elsewhere'", "WorkflowId STARTS_WITH '" + tag + "-a'", "RootWorkflowId = '" + tag + "-a'",
		"ParentWorkflowId IS NULL AND WorkflowType = 'EmbeddedAttributed'",
	} {
		filter := mine
		if query != "" {
			filter += " AND (" + query + ")"
		}
		var ids []string
		var token []byte
		for {
			resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: filter, PageSize: 2, NextPageToken: token})
			if err != nil {
				t.Fatalf("%q: %v", query, err)
			}
			for _, e := range resp.GetExecutions() {
				ids = append(ids, untag(e.GetExecution().GetWorkflowId())+"("+e.GetStatus().String()+")")
			}
			if token = resp.GetNextPageToken(); len(token) == 0 {
				break
			}
		}
		count, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: filter})
		if err != nil {
			t.Fatalf("%q: %v", query, err)
		}
		seen["list "+untag(query)] = fmt.Sprintf("%s, count %d", strings.Join(ids, " "), count.GetCount())
	}
	grouped, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: mine + " GROUP BY ExecutionStatus"})
	if err != nil {
		t.Fatal(err)
	}
	var groups []string
	for _, g := range grouped.GetGroups() {
		var status string
		if err := converter.GetDefaultDataConverter().FromPayload(g.GetGroupValues()[0], &status); err != nil {
			t.Fatal(err)
		}
		groups = append(groups, fmt.Sprintf("%s=%d (%s)", status, g.GetCount(), g.GetGroupValues()[0].GetMetadata()["type"]))
	}
	slices.Sort(groups)
	seen["count by status"] = fmt.Sprintf("%d: %v", grouped.GetCount(), groups)
	for _, query := range []string{"NoSuchAttribute = 1", "EmbeddedSize = 'big'", "StartTime > 'yesterday'", "ExecutionStatus = 'Sleeping'",
		"EmbeddedNote STARTS_WITH 'a'", "EmbeddedUrgent BETWEEN 1 AND 2", "EmbeddedColor = red", "EmbeddedColor LIKE 'r%'",
		"EmbeddedColor = 'red' LIMIT 1", "WorkflowId = 'x' GROUP BY WorkflowType"} {
		_, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: query})
		var invalid *serviceerror.InvalidArgument
		if errors.As(err, &invalid) {
			seen["bad filter "+query] = "InvalidArgument: " + invalid.Message
		} else {
			seen["bad filter "+query] = fmt.Sprintf("%T %v", err, err)
		}
	}
	// Syntax errors and what only a dev server serves are refused in words
	// of each server's own.
	for _, query := range []string{"EmbeddedColor = 'red' AND", "(EmbeddedColor = 'red'", "EmbeddedColor = 'red' ORDER BY StartTime"} {
		_, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		seen["bad filter "+query] = fmt.Sprintf("%T", err)
	}

	// A start's summary and details; a cancel request's reason, asked
	// twice; history in reverse.
	summarized, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: tag + "-summarized", TaskQueue: queue,
		StaticSummary: "a summary", StaticDetails: "some details"}, EmbeddedAttributed, "wait")
	if err != nil {
		t.Fatal(err)
	}
	described, err := c.DescribeWorkflow(ctx, summarized.GetID(), "")
	if err != nil {
		t.Fatal(err)
	}
	summary, _ := described.GetStaticSummary()
	details, _ := described.GetStaticDetails()
	started := fullHistory(t, c, summarized.GetID()).GetEvents()[0]
	seen["summary and details"] = fmt.Sprintf("described %q %q, started event %v", summary, details, started.GetUserMetadata() != nil)
	for _, reason := range []string{"first reason", "second reason"} {
		if err := c.CancelWorkflowWithOptions(ctx, client.CancelWorkflowOptions{WorkflowID: summarized.GetID(), Reason: reason}); err != nil {
			t.Fatal(err)
		}
	}
	if err := summarized.Get(ctx, nil); !temporal.IsCanceledError(err) {
		t.Fatalf("the canceled workflow ended with %v", err)
	}
	var causes []string
	forward := fullHistory(t, c, summarized.GetID()).GetEvents()
	for _, ev := range forward {
		if a := ev.GetWorkflowExecutionCancelRequestedEventAttributes(); a != nil {
			causes = append(causes, a.GetCause())
		}
	}
	seen["cancel requests"] = fmt.Sprint(causes)
	err = c.CancelWorkflow(ctx, summarized.GetID(), "")
	seen["cancel of a closed run"] = fmt.Sprintf("%T", err)
	var reversed []string
	var token []byte
	for {
		resp, err := c.WorkflowService().GetWorkflowExecutionHistoryReverse(ctx, &workflowservice.GetWorkflowExecutionHistoryReverseRequest{
			Namespace: client.DefaultNamespace, Execution: &commonpb.WorkflowExecution{WorkflowId: summarized.GetID()}, MaximumPageSize: 2, NextPageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range resp.GetHistory().GetEvents() {
			reversed = append(reversed, fmt.Sprint(ev.GetEventId(), ev.GetEventType()))
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	var want []string
	for i := len(forward) - 1; i >= 0; i-- {
		want = append(want, fmt.Sprint(forward[i].GetEventId(), forward[i].GetEventType()))
	}
	seen["history in reverse is history backwards"] = fmt.Sprint(slices.Equal(reversed, want))

	// The task queue's workflow pollers. (The compat dev server forgets a
	// poller 2 s after its poll began, TestMain's PollerHistoryTTL: one
	// whose long poll waits longer, as an idle activity poller's does, is
	// not listed there; the embedded server lists it, as a server with the
	// default TTL of 5 minutes does.)
	resp, err := c.DescribeTaskQueue(ctx, queue, enumspb.TASK_QUEUE_TYPE_WORKFLOW)
	if err != nil {
		t.Fatal(err)
	}
	var pollers []string
	for _, p := range resp.GetPollers() {
		pollers = append(pollers, fmt.Sprintf("%s (rate %v, recent %v)", p.GetIdentity(), p.GetRatePerSecond(), time.Since(p.GetLastAccessTime().AsTime()) < time.Minute))
	}
	seen["workflow pollers"] = fmt.Sprint(pollers)
	for key, value := range seen {
		seen[key] = untag(value)
	}
	return seen
}
