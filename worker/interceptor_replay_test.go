package worker_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// TestReplayerRunsWorkflowInterceptors replays histories recorded by
// go.temporal.io/sdk with a recording interceptor: it sees the workflow's
// calls, and its activity headers do not disturb the replay.
func TestReplayerRunsWorkflowInterceptors(t *testing.T) {
	cases := []struct {
		file string
		want []string
	}{
		{"activities.json", []string{"Go root", "ExecuteWorkflow header=",
			"ExecuteActivity(workflow) Greet", "ExecuteActivity(workflow) Shout", "ExecuteActivity(workflow) Greet"}},
		{"timers.json", []string{"Go root", "ExecuteWorkflow header=", "Sleep 1s", "NewTimer 2s", "NewTimer 200ms"}},
		{"sideeffects.json", []string{"Go root", "ExecuteWorkflow header=", "SideEffect", "ExecuteActivity(workflow) Increment", "SideEffect"}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			log := &callLog{}
			r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
				Interceptors: []interceptor.WorkerInterceptor{&recordingInterceptor{log: log}},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, wf := range []any{ActivitiesWorkflow, TimersWorkflow, SideEffectsWorkflow} {
				r.RegisterWorkflow(wf)
			}
			if err := r.ReplayWorkflowHistoryFromJSONFile(logging.NewDefaultLogger(), filepath.Join(fixtures, tc.file)); err != nil {
				t.Fatal(err)
			}
			if got := log.list(); !slices.Equal(got, tc.want) {
				t.Errorf("calls seen:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestStackedBaseInterceptorsChangeNothing replays every recorded history
// through three interceptors that only embed the Base structs.
func TestStackedBaseInterceptorsChangeNothing(t *testing.T) {
	bases := []interceptor.WorkerInterceptor{&passThrough{}, &passThrough{}, &passThrough{}}
	for _, m := range loadManifest(t) {
		t.Run(m.File, func(t *testing.T) {
			r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: bases})
			if err != nil {
				t.Fatal(err)
			}
			for _, wf := range fixtureWorkflows() {
				r.RegisterWorkflow(wf)
			}
			if err := r.ReplayWorkflowHistoryFromJSONFile(logging.NewDefaultLogger(), filepath.Join(fixtures, m.File)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// passThrough intercepts workflows with the Base structs alone, on both
// sides.
type passThrough struct {
	interceptor.WorkerInterceptorBase
}

func (*passThrough) InterceptWorkflow(_ workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &passThroughInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}}
}

type passThroughInbound struct {
	interceptor.WorkflowInboundInterceptorBase
}

func (p *passThroughInbound) Init(outbound interceptor.WorkflowOutboundInterceptor) error {
	return p.Next.Init(&interceptor.WorkflowOutboundInterceptorBase{Next: outbound})
}

// TestWorkflowCallsCostNoAllocation measures, inside a replayed workflow,
// the calls that workflows make most, without interceptors and through
// Base interceptors: going through the chain allocates nothing.
func TestWorkflowCallsCostNoAllocation(t *testing.T) {
	for _, tc := range []struct {
		name         string
		interceptors []interceptor.WorkerInterceptor
	}{
		{"no interceptors", nil},
		{"base interceptors", []interceptor.WorkerInterceptor{&passThrough{}, &passThrough{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			allocs := -1.0
			measured := func(ctx workflow.Context) (int, error) {
				workflow.GetSignalChannel(ctx, "warm-up")
				allocs = testing.AllocsPerRun(100, func() {
					_ = workflow.Now(ctx)
					_ = workflow.GetInfo(ctx)
					_ = workflow.IsReplaying(ctx)
					_ = workflow.GetLogger(ctx)
					_ = workflow.HasLastCompletionResult(ctx)
					_ = workflow.GetSignalChannel(ctx, "warm-up")
				})
				return TimersWorkflow(ctx)
			}
			r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: tc.interceptors})
			if err != nil {
				t.Fatal(err)
			}
			r.RegisterWorkflowWithOptions(measured, workflow.RegisterOptions{Name: "TimersWorkflow"})
			if err := r.ReplayWorkflowHistoryFromJSONFile(logging.NewDefaultLogger(), filepath.Join(fixtures, "timers.json")); err != nil {
				t.Fatal(err)
			}
			if allocs != 0 {
				t.Errorf("%v allocations per round of calls, want none", allocs)
			}
		})
	}
}
