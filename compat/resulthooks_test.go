package compat

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	officialclient "go.temporal.io/sdk/client"
	officialinterceptor "go.temporal.io/sdk/interceptor"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The client hooks v1.51 added (GetWorkflowRun, GetWorkflowResult,
// GetWorkflowHistory) are called as often, with the same inputs, on both
// SDKs, for a workflow that continues as new once (issue 33 item 1). The
// scenario is written once per SDK, line for line.

// hookCalls is what a counting interceptor saw. Run IDs are named by the
// run they are: "first", "second", or "" (none given).
type hookCalls struct {
	Runs, Results, Histories int
	RunInputs                []string
	ResultInputs             []string
	// HistoryEventsSeen is whether the wrapped history iterator handed the
	// caller every event it got.
	HistoryEventsSeen bool
	Result            string
}

// hookCounter is the counting state both SDKs' interceptors share.
type hookCounter struct {
	mu                    sync.Mutex
	first, second         string
	runs, results, histos int
	runInputs             []string
	resultInputs          []string
	wrappedEvents         int
}

func (h *hookCounter) name(runID string) string {
	switch runID {
	case "":
		return ""
	case h.first:
		return "first"
	case h.second:
		return "second"
	}
	return "other"
}

func (h *hookCounter) sawRun(runID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runs++
	h.runInputs = append(h.runInputs, runID)
}

func (h *hookCounter) sawResult(runID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.results++
	h.resultInputs = append(h.resultInputs, runID)
}

func (h *hookCounter) sawHistory() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.histos++
}

func (h *hookCounter) sawEvent() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.wrappedEvents++
}

// calls reads the counts, naming the run IDs once both runs are known.
func (h *hookCounter) calls(result string, eventsIterated int) hookCalls {
	h.mu.Lock()
	defer h.mu.Unlock()
	got := hookCalls{Runs: h.runs, Results: h.results, Histories: h.histos, Result: result,
		HistoryEventsSeen: eventsIterated > 0 && eventsIterated == h.wrappedEvents}
	for _, id := range h.runInputs {
		got.RunInputs = append(got.RunInputs, h.name(id))
	}
	for _, id := range h.resultInputs {
		got.ResultInputs = append(got.ResultInputs, h.name(id))
	}
	return got
}

// HookChainOurs continues as new once, then returns "done".
func HookChainOurs(ctx workflow.Context, n int) (string, error) {
	if n == 0 {
		return "", workflow.NewContinueAsNewError(ctx, "HookChain", 1)
	}
	return "done", nil
}

func HookChainOfficial(ctx officialworkflow.Context, n int) (string, error) {
	if n == 0 {
		return "", officialworkflow.NewContinueAsNewError(ctx, "HookChain", 1)
	}
	return "done", nil
}

type ourHookCounter struct {
	interceptor.ClientInterceptorBase
	h *hookCounter
}

func (i *ourHookCounter) InterceptClient(next interceptor.ClientOutboundInterceptor) interceptor.ClientOutboundInterceptor {
	return &ourHookCounterOutbound{ClientOutboundInterceptorBase: interceptor.ClientOutboundInterceptorBase{Next: next}, h: i.h}
}

type ourHookCounterOutbound struct {
	interceptor.ClientOutboundInterceptorBase
	h *hookCounter
}

func (o *ourHookCounterOutbound) GetWorkflowRun(ctx context.Context, in *interceptor.ClientGetWorkflowRunInput) client.WorkflowRun {
	o.h.sawRun(in.RunID)
	return o.Next.GetWorkflowRun(ctx, in)
}

func (o *ourHookCounterOutbound) GetWorkflowResult(ctx context.Context, in *interceptor.ClientGetWorkflowResultInput) (*interceptor.ClientGetWorkflowResultOutput, error) {
	o.h.sawResult(in.RunID)
	return o.Next.GetWorkflowResult(ctx, in)
}

func (o *ourHookCounterOutbound) GetWorkflowHistory(ctx context.Context, in *interceptor.ClientGetWorkflowHistoryInput) *interceptor.ClientGetWorkflowHistoryOutput {
	o.h.sawHistory()
	out := o.Next.GetWorkflowHistory(ctx, in)
	out.Iterator = &ourCountingIterator{HistoryEventIterator: out.Iterator, h: o.h}
	return out
}

type ourCountingIterator struct {
	client.HistoryEventIterator
	h *hookCounter
}

func (it *ourCountingIterator) Next() (*historypb.HistoryEvent, error) {
	e, err := it.HistoryEventIterator.Next()
	if err == nil {
		it.h.sawEvent()
	}
	return e, err
}

type officialHookCounter struct {
	officialinterceptor.ClientInterceptorBase
	h *hookCounter
}

func (i *officialHookCounter) InterceptClient(next officialinterceptor.ClientOutboundInterceptor) officialinterceptor.ClientOutboundInterceptor {
	return &officialHookCounterOutbound{ClientOutboundInterceptorBase: officialinterceptor.ClientOutboundInterceptorBase{Next: next}, h: i.h}
}

type officialHookCounterOutbound struct {
	officialinterceptor.ClientOutboundInterceptorBase
	h *hookCounter
}

func (o *officialHookCounterOutbound) GetWorkflowRun(ctx context.Context, in *officialinterceptor.ClientGetWorkflowRunInput) officialclient.WorkflowRun {
	o.h.sawRun(in.RunID)
	return o.Next.GetWorkflowRun(ctx, in)
}

func (o *officialHookCounterOutbound) GetWorkflowResult(ctx context.Context, in *officialinterceptor.ClientGetWorkflowResultInput) (*officialinterceptor.ClientGetWorkflowResultOutput, error) {
	o.h.sawResult(in.RunID)
	return o.Next.GetWorkflowResult(ctx, in)
}

func (o *officialHookCounterOutbound) GetWorkflowHistory(ctx context.Context, in *officialinterceptor.ClientGetWorkflowHistoryInput) *officialinterceptor.ClientGetWorkflowHistoryOutput {
	o.h.sawHistory()
	out := o.Next.GetWorkflowHistory(ctx, in)
	out.Iterator = &officialCountingIterator{HistoryEventIterator: out.Iterator, h: o.h}
	return out
}

type officialCountingIterator struct {
	officialclient.HistoryEventIterator
	h *hookCounter
}

func (it *officialCountingIterator) Next() (*historypb.HistoryEvent, error) {
	e, err := it.HistoryEventIterator.Next()
	if err == nil {
		it.h.sawEvent()
	}
	return e, err
}

// ourHookCalls runs the scenario with this SDK's client and worker:
// ExecuteWorkflow and Get (twice), GetWorkflow of the first run and Get
// following the chain, GetWorkflow of the current run and Get, and
// GetWorkflowHistory of the first run read to its end.
func ourHookCalls(t *testing.T, hp string) hookCalls {
	h := &hookCounter{}
	c, err := client.Dial(client.Options{HostPort: hp, Interceptors: []interceptor.ClientInterceptor{&ourHookCounter{h: h}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := fmt.Sprintf("hooks-ours-%d", time.Now().UnixNano())
	w := worker.New(c, tq, worker.Options{})
	w.RegisterWorkflowWithOptions(HookChainOurs, workflow.RegisterOptions{Name: "HookChain"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq}, "HookChain", 0)
	if err != nil {
		t.Fatal(err)
	}
	h.first = run.GetRunID()
	var result string
	if err := run.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	h.second = run.GetRunID()
	if err := run.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	if err := c.GetWorkflow(ctx, run.GetID(), h.first).Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	if err := c.GetWorkflow(ctx, run.GetID(), "").Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	events := 0
	it := c.GetWorkflowHistory(ctx, run.GetID(), h.first, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		if _, err := it.Next(); err != nil {
			t.Fatal(err)
		}
		events++
	}
	return h.calls(result, events)
}

func officialHookCalls(t *testing.T, hp string) hookCalls {
	h := &hookCounter{}
	c, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{}, Interceptors: []officialinterceptor.ClientInterceptor{&officialHookCounter{h: h}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := fmt.Sprintf("hooks-official-%d", time.Now().UnixNano())
	w := officialworker.New(c, tq, officialworker.Options{})
	w.RegisterWorkflowWithOptions(HookChainOfficial, officialworkflow.RegisterOptions{Name: "HookChain"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	run, err := c.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{TaskQueue: tq}, "HookChain", 0)
	if err != nil {
		t.Fatal(err)
	}
	h.first = run.GetRunID()
	var result string
	if err := run.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	h.second = run.GetRunID()
	if err := run.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	if err := c.GetWorkflow(ctx, run.GetID(), h.first).Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	if err := c.GetWorkflow(ctx, run.GetID(), "").Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	events := 0
	it := c.GetWorkflowHistory(ctx, run.GetID(), h.first, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		if _, err := it.Next(); err != nil {
			t.Fatal(err)
		}
		events++
	}
	return h.calls(result, events)
}

func TestClientResultHooksAreCalledAsTheOfficialSDKCallsThem(t *testing.T) {
	hp := testharness.HostPort(t)
	theirs := officialHookCalls(t, hp)
	ours := ourHookCalls(t, hp)
	if !reflect.DeepEqual(ours, theirs) {
		t.Errorf("hook calls differ:\n ours:     %+v\n official: %+v", ours, theirs)
	}
	// The official SDK's calls are the expected ones; this says what they
	// are, so that a change in either shows here.
	want := hookCalls{Runs: 2, Results: 4, Histories: 1, RunInputs: []string{"first", ""},
		ResultInputs: []string{"first", "second", "first", ""}, HistoryEventsSeen: true, Result: "done"}
	if !reflect.DeepEqual(theirs, want) {
		t.Errorf("official SDK's hook calls: %+v, want %+v", theirs, want)
	}
}
