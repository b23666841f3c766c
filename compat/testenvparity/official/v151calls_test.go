package parity

import (
	"fmt"

	"github.com/stretchr/testify/mock"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// The workflow calls go.temporal.io/sdk v1.51 added beside the old ones
// (GetVersionWithOptions, the external calls and upserts with options,
// event groups) and worker.Options.PreferredVersionProvider, as a test
// environment shows them.

// hookLog counts the outbound hooks each call reaches.
type hookLog struct {
	interceptor.WorkerInterceptorBase
	interceptor.WorkflowInboundInterceptorBase
	interceptor.WorkflowOutboundInterceptorBase
	calls map[string]int
}

func (h *hookLog) InterceptWorkflow(_ workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &hookLog{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, calls: h.calls}
}

func (h *hookLog) Init(outbound interceptor.WorkflowOutboundInterceptor) error {
	return h.WorkflowInboundInterceptorBase.Next.Init(&hookLog{WorkflowOutboundInterceptorBase: interceptor.WorkflowOutboundInterceptorBase{Next: outbound}, calls: h.calls})
}

func (h *hookLog) GetVersion(ctx workflow.Context, id string, lo, hi workflow.Version) workflow.Version {
	h.calls["GetVersion"]++
	return h.WorkflowOutboundInterceptorBase.Next.GetVersion(ctx, id, lo, hi)
}

func (h *hookLog) GetVersionWithOptions(ctx workflow.Context, id string, lo, hi workflow.Version, o workflow.GetVersionOptions) workflow.Version {
	h.calls["GetVersionWithOptions"]++
	return h.WorkflowOutboundInterceptorBase.Next.GetVersionWithOptions(ctx, id, lo, hi, o)
}

func (h *hookLog) SignalExternalWorkflow(ctx workflow.Context, id, runID, name string, arg any) workflow.Future {
	h.calls["SignalExternalWorkflow"]++
	return h.WorkflowOutboundInterceptorBase.Next.SignalExternalWorkflow(ctx, id, runID, name, arg)
}

func (h *hookLog) SignalExternalWorkflowWithOptions(ctx workflow.Context, id, runID, name string, arg any, o workflow.SignalExternalWorkflowOptions) workflow.Future {
	h.calls["SignalExternalWorkflowWithOptions"]++
	return h.WorkflowOutboundInterceptorBase.Next.SignalExternalWorkflowWithOptions(ctx, id, runID, name, arg, o)
}

func (h *hookLog) RequestCancelExternalWorkflow(ctx workflow.Context, id, runID string) workflow.Future {
	h.calls["RequestCancelExternalWorkflow"]++
	return h.WorkflowOutboundInterceptorBase.Next.RequestCancelExternalWorkflow(ctx, id, runID)
}

func (h *hookLog) RequestCancelExternalWorkflowWithOptions(ctx workflow.Context, id, runID string, o workflow.CancelExternalWorkflowOptions) workflow.Future {
	h.calls["RequestCancelExternalWorkflowWithOptions"]++
	return h.WorkflowOutboundInterceptorBase.Next.RequestCancelExternalWorkflowWithOptions(ctx, id, runID, o)
}

func (h *hookLog) UpsertMemo(ctx workflow.Context, memo map[string]any) error {
	h.calls["UpsertMemo"]++
	return h.WorkflowOutboundInterceptorBase.Next.UpsertMemo(ctx, memo)
}

func (h *hookLog) UpsertMemoWithOptions(ctx workflow.Context, memo map[string]any, o workflow.UpsertMemoOptions) error {
	h.calls["UpsertMemoWithOptions"]++
	return h.WorkflowOutboundInterceptorBase.Next.UpsertMemoWithOptions(ctx, memo, o)
}

func (h *hookLog) SideEffect(ctx workflow.Context, f func(workflow.Context) any) converter.EncodedValue {
	h.calls["SideEffect"]++
	return h.WorkflowOutboundInterceptorBase.Next.SideEffect(ctx, f)
}

func (h *hookLog) SideEffectWithOptions(ctx workflow.Context, o workflow.SideEffectOptions, f func(workflow.Context) any) converter.EncodedValue {
	h.calls["SideEffectWithOptions"]++
	return h.WorkflowOutboundInterceptorBase.Next.SideEffectWithOptions(ctx, o, f)
}

func (h *hookLog) NewContinueAsNewError(ctx workflow.Context, wfn any, args ...any) error {
	h.calls["NewContinueAsNewError"]++
	return h.WorkflowOutboundInterceptorBase.Next.NewContinueAsNewError(ctx, wfn, args...)
}

func (h *hookLog) NewContinueAsNewErrorWithOptions(ctx workflow.Context, o workflow.ContinueAsNewErrorOptions, wfn any, args ...any) error {
	h.calls["NewContinueAsNewErrorWithOptions"]++
	return h.WorkflowOutboundInterceptorBase.Next.NewContinueAsNewErrorWithOptions(ctx, o, wfn, args...)
}

// CallsBothWays makes each call without options and with, in an event
// group, and reports what the calls returned.
func CallsBothWays(ctx workflow.Context) (string, error) {
	group := workflow.NewEventGroupWithOptions("both", workflow.EventGroupOptions{Label: "both ways"})
	ctx = workflow.WithEventGroups(ctx, group)
	own := []workflow.EventGroup{workflow.NewEventGroup("own")}
	a := workflow.GetVersion(ctx, "a", workflow.DefaultVersion, 2)
	b := workflow.GetVersionWithOptions(ctx, "b", workflow.DefaultVersion, 2, workflow.GetVersionOptions{EventGroups: own})
	signaled := workflow.SignalExternalWorkflow(ctx, "other", "", "ping", 1).Get(ctx, nil)
	signaledWith := workflow.SignalExternalWorkflowWithOptions(ctx, "other", "", "ping", 2, workflow.SignalExternalWorkflowOptions{EventGroups: own}).Get(ctx, nil)
	canceled := workflow.RequestCancelExternalWorkflow(ctx, "other", "").Get(ctx, nil)
	canceledWith := workflow.RequestCancelExternalWorkflowWithOptions(ctx, "other", "", workflow.CancelExternalWorkflowOptions{EventGroups: own}).Get(ctx, nil)
	var n, m int
	_ = workflow.SideEffect(ctx, func(workflow.Context) any { return 1 }).Get(&n)
	_ = workflow.SideEffectWithOptions(ctx, workflow.SideEffectOptions{EventGroups: own}, func(workflow.Context) any { return 2 }).Get(&m)
	memo := workflow.UpsertMemo(ctx, map[string]any{"a": 1})
	memoWith := workflow.UpsertMemoWithOptions(ctx, map[string]any{"b": 2}, workflow.UpsertMemoOptions{EventGroups: own})
	_ = workflow.NewContinueAsNewError(ctx, CallsBothWays)
	_ = workflow.NewContinueAsNewErrorWithOptions(ctx, workflow.ContinueAsNewErrorOptions{EventGroups: own}, CallsBothWays)
	return fmt.Sprint(a, b, signaled, signaledWith, canceled, canceledWith, n, m, memo, memoWith), nil
}

// Each call reaches the hook of its own name only; the mocks of the old
// calls answer the calls with options too.
func (s *ParitySuite) TestCallsWithOptionsReachTheirHooksAndTheOldMocks() {
	log := &hookLog{calls: map[string]int{}}
	s.env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{log}})
	s.env.OnGetVersion("a", workflow.DefaultVersion, workflow.Version(2)).Return(workflow.Version(1))
	s.env.OnGetVersion("b", workflow.DefaultVersion, workflow.Version(2)).Return(workflow.DefaultVersion)
	s.env.OnSignalExternalWorkflow(mock.Anything, "other", "", "ping", mock.Anything).Return(nil).Twice()
	s.env.OnRequestCancelExternalWorkflow(mock.Anything, "other", "").Return(nil).Twice()
	s.env.OnUpsertMemo(mock.Anything).Return(nil).Twice()
	s.env.RegisterWorkflow(CallsBothWays)
	s.env.ExecuteWorkflow(CallsBothWays)
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("1 -1 <nil> <nil> <nil> <nil> 1 2 <nil> <nil>", got)
	for _, hook := range []string{"GetVersion", "GetVersionWithOptions", "SignalExternalWorkflow", "SignalExternalWorkflowWithOptions",
		"RequestCancelExternalWorkflow", "RequestCancelExternalWorkflowWithOptions", "SideEffect", "SideEffectWithOptions", "UpsertMemo", "UpsertMemoWithOptions",
		"NewContinueAsNewError", "NewContinueAsNewErrorWithOptions"} {
		s.Equal(1, log.calls[hook], hook)
	}
}

// ChoosesVersions asks GetVersion about three changes, the first twice.
func ChoosesVersions(ctx workflow.Context) (string, error) {
	a := workflow.GetVersion(ctx, "keep-old", workflow.DefaultVersion, 2)
	b := workflow.GetVersionWithOptions(ctx, "clamped", workflow.DefaultVersion, 2, workflow.GetVersionOptions{})
	c := workflow.GetVersion(ctx, "no-preference", 1, 3)
	again := workflow.GetVersion(ctx, "keep-old", workflow.DefaultVersion, 2)
	return fmt.Sprint(a, b, c, again), nil
}

// The worker's PreferredVersionProvider chooses each change's first
// version, once per change.
func (s *ParitySuite) TestPreferredVersionProviderChoosesFirstVersions() {
	var asked []string
	s.env.SetWorkerOptions(worker.Options{PreferredVersionProvider: func(in worker.PreferredVersionProviderInput) *worker.VersionPreference {
		asked = append(asked, fmt.Sprintf("%s[%d,%d] %s", in.ChangeID, in.MinSupported, in.MaxSupported, in.WorkflowInfo.WorkflowType.Name))
		switch in.ChangeID {
		case "keep-old":
			return &worker.VersionPreference{Version: workflow.DefaultVersion}
		case "clamped":
			return &worker.VersionPreference{Version: 7, ClampToSupportedRange: true}
		}
		return nil
	}})
	s.env.RegisterWorkflow(ChoosesVersions)
	s.env.ExecuteWorkflow(ChoosesVersions)
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("-1 2 3 -1", got)
	s.Equal([]string{"keep-old[-1,2] ChoosesVersions", "clamped[-1,2] ChoosesVersions", "no-preference[1,3] ChoosesVersions"}, asked)
}
