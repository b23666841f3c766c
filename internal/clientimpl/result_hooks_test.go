package clientimpl

import (
	"context"
	"sync"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
)

// resultHooks counts the run, result and history hooks and records their
// inputs; the change functions, when set, alter what passes through.
type resultHooks struct {
	internal.ClientInterceptorBase
	mu            sync.Mutex
	runInputs     []clientapi.ClientGetWorkflowRunInput
	resultInputs  []clientapi.ClientGetWorkflowResultInput
	historyInputs []clientapi.ClientGetWorkflowHistoryInput
	pagesRead     int

	changeResultInput func(*clientapi.ClientGetWorkflowResultInput)
	changeResult      func(*clientapi.ClientGetWorkflowResultOutput)
}

func (h *resultHooks) InterceptClient(next clientapi.ClientOutboundInterceptor) clientapi.ClientOutboundInterceptor {
	return &resultHooksOutbound{ClientOutboundInterceptorBase: clientapi.ClientOutboundInterceptorBase{Next: next}, h: h}
}

func (h *resultHooks) counts() (runs, results, histories int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.runInputs), len(h.resultInputs), len(h.historyInputs)
}

type resultHooksOutbound struct {
	clientapi.ClientOutboundInterceptorBase
	h *resultHooks
}

func (o *resultHooksOutbound) GetWorkflowRun(ctx context.Context, in *clientapi.ClientGetWorkflowRunInput) clientapi.WorkflowRun {
	o.h.mu.Lock()
	o.h.runInputs = append(o.h.runInputs, *in)
	o.h.mu.Unlock()
	return o.Next.GetWorkflowRun(ctx, in)
}

func (o *resultHooksOutbound) GetWorkflowResult(ctx context.Context, in *clientapi.ClientGetWorkflowResultInput) (*clientapi.ClientGetWorkflowResultOutput, error) {
	o.h.mu.Lock()
	o.h.resultInputs = append(o.h.resultInputs, *in)
	o.h.mu.Unlock()
	if o.h.changeResultInput != nil {
		changed := *in
		o.h.changeResultInput(&changed)
		in = &changed
	}
	out, err := o.Next.GetWorkflowResult(ctx, in)
	if err == nil && o.h.changeResult != nil {
		o.h.changeResult(out)
	}
	return out, err
}

func (o *resultHooksOutbound) GetWorkflowHistory(ctx context.Context, in *clientapi.ClientGetWorkflowHistoryInput) *clientapi.ClientGetWorkflowHistoryOutput {
	o.h.mu.Lock()
	o.h.historyInputs = append(o.h.historyInputs, *in)
	o.h.mu.Unlock()
	out := o.Next.GetWorkflowHistory(ctx, in)
	out.Iterator = &countingHistoryIterator{HistoryEventIterator: out.Iterator, h: o.h}
	return out
}

// countingHistoryIterator counts the events an interceptor saw go by.
type countingHistoryIterator struct {
	clientapi.HistoryEventIterator
	h *resultHooks
}

func (it *countingHistoryIterator) Next() (*historypb.HistoryEvent, error) {
	it.h.mu.Lock()
	it.h.pagesRead++
	it.h.mu.Unlock()
	return it.HistoryEventIterator.Next()
}

// chainOfThreeRuns makes r1 continue as new to r2, r2 fail and retry as
// r3, and r3 complete with "result".
func chainOfThreeRuns(t *testing.T, f *fakeClientFrontend) {
	f.set(func(f *fakeClientFrontend) {
		f.startResponse = &workflowservice.StartWorkflowExecutionResponse{RunId: "r1"}
		f.describeRunID = "r1"
		f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runContinuedAsNewEvent("r2"))}
		f.history["r2"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runFailedEvent("first attempt", "r3"))}
		f.history["r3"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runCompletedEvent(t, "result", ""))}
	})
}

func TestResultHooksAreCalledWhereTheOfficialSDKCallsThem(t *testing.T) {
	f := startFakeClientFrontend(t)
	chainOfThreeRuns(t, f)
	hooks := &resultHooks{}
	c := f.client(t, internal.ClientOptions{Interceptors: []internal.ClientInterceptor{hooks}})
	ctx := context.Background()

	// A started workflow's handle is not made through GetWorkflowRun; its
	// Get is one GetWorkflowResult call however many runs it follows, and
	// its history reads are not GetWorkflowHistory calls.
	run, err := c.ExecuteWorkflow(ctx, clientapi.StartWorkflowOptions{ID: "wf", TaskQueue: "q"}, "W")
	chk.NoErr(t, err)
	var result string
	chk.NoErr(t, run.Get(ctx, &result))
	chk.Equal(t, "result", result)
	runs, results, histories := hooks.counts()
	chk.Equal(t, [3]int{0, 1, 0}, [3]int{runs, results, histories})
	chk.Equal(t, "r1", hooks.resultInputs[0].RunID)
	chk.Equal(t, "wf", hooks.resultInputs[0].WorkflowID)

	// The next Get starts from the run the first one followed to.
	chk.NoErr(t, run.GetWithOptions(ctx, nil, clientapi.WorkflowRunGetOptions{DisableFollowingRuns: true}))
	chk.Equal(t, "r3", hooks.resultInputs[1].RunID)
	chk.True(t, hooks.resultInputs[1].Options.DisableFollowingRuns)

	// GetWorkflow goes through GetWorkflowRun; a handle without a run ID
	// gives GetWorkflowResult an empty one, resolved after the chain.
	pinned := c.GetWorkflow(ctx, "wf", "")
	runs, _, _ = hooks.counts()
	chk.Equal(t, 1, runs)
	chk.Equal(t, clientapi.ClientGetWorkflowRunInput{WorkflowID: "wf"}, hooks.runInputs[0])
	chk.NoErr(t, pinned.Get(ctx, &result))
	chk.Equal(t, "", hooks.resultInputs[2].RunID)
	chk.Equal(t, "r3", pinned.GetRunID())

	// GetWorkflowHistory is one call per iterator, not per page or event.
	it := c.GetWorkflowHistory(ctx, "wf", "r2", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		_, err := it.Next()
		chk.NoErr(t, err)
	}
	runs, results, histories = hooks.counts()
	chk.Equal(t, [3]int{1, 3, 1}, [3]int{runs, results, histories})
	chk.Equal(t, clientapi.ClientGetWorkflowHistoryInput{WorkflowID: "wf", RunID: "r2", FilterType: enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT}, hooks.historyInputs[0])
	chk.Equal(t, 1, hooks.pagesRead, "the wrapped iterator is the one the caller iterates")
}

func TestGetWorkflowResultCanChangeTheOutcome(t *testing.T) {
	f := startFakeClientFrontend(t)
	chainOfThreeRuns(t, f)
	hooks := &resultHooks{}
	c := f.client(t, internal.ClientOptions{Interceptors: []internal.ClientInterceptor{hooks}})
	ctx := context.Background()

	// Turning the workflow's failure into a result: Get decodes what the
	// chain returned.
	hooks.changeResult = func(out *clientapi.ClientGetWorkflowResultOutput) {
		if out.Error != nil {
			p, _ := converter.GetDefaultDataConverter().ToPayloads("replaced")
			out.Error, out.Result = nil, failure.NewEncodedValue(p, converter.GetDefaultDataConverter())
		}
	}
	var result string
	chk.NoErr(t, c.GetWorkflow(ctx, "wf", "r2").GetWithOptions(ctx, &result, clientapi.WorkflowRunGetOptions{DisableFollowingRuns: true}))
	chk.Equal(t, "replaced", result)

	// A non-pointer is reported after the chain has seen the call.
	var s string
	chk.ErrContains(t, c.GetWorkflow(ctx, "wf", "r3").Get(ctx, s), "must be a pointer")
	_, results, _ := hooks.counts()
	chk.Equal(t, 2, results)
}

func TestGetWorkflowResultRedirectMovesTheWaitNotTheHandle(t *testing.T) {
	f := startFakeClientFrontend(t)
	chainOfThreeRuns(t, f)
	hooks := &resultHooks{changeResultInput: func(in *clientapi.ClientGetWorkflowResultInput) { in.RunID = "r3" }}
	c := f.client(t, internal.ClientOptions{Interceptors: []internal.ClientInterceptor{hooks}})
	ctx := context.Background()

	run := c.GetWorkflow(ctx, "wf", "r1")
	var result string
	chk.NoErr(t, run.Get(ctx, &result))
	chk.Equal(t, "result", result)
	chk.Equal(t, "r1", run.GetRunID(), "the redirected wait leaves the handle where it was")
	reqs := receivedRequests[*workflowservice.GetWorkflowExecutionHistoryRequest](f)
	chk.Len(t, reqs, 1)
	chk.Equal(t, "r3", reqs[0].GetExecution().GetRunId())
}
