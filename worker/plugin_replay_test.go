package worker_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// replayHookPlugin is a worker plugin that records its replayer hooks and
// may change or stop the replay.
type replayHookPlugin struct {
	worker.PluginBase
	name string
	log  *replayHookLog
	// What to do in ReplayWorkflow.
	replaceHistory *historypb.History
	skipNext       bool
	errBefore      error
	configureErr   error
}

// replayHookLog is the hooks the plugins of a test saw, in order.
type replayHookLog struct {
	mu    sync.Mutex
	calls []string
	seen  []worker.PluginReplayWorkflowOptions
}

func (l *replayHookLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, fmt.Sprintf(format, args...))
}

func (l *replayHookLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	calls := l.calls
	l.calls = nil
	return calls
}

func (p *replayHookPlugin) Name() string { return p.name }

func (p *replayHookPlugin) ConfigureWorkflowReplayer(_ context.Context, o worker.PluginConfigureWorkflowReplayerOptions) error {
	p.log.add("%s configure key-set=%v", p.name, o.WorkflowReplayerInstanceKey != "")
	previous := o.WorkflowReplayerRegistryOptions.OnRegisterWorkflow
	o.WorkflowReplayerRegistryOptions.OnRegisterWorkflow = func(w any, options workflow.RegisterOptions) {
		p.log.add("%s OnRegisterWorkflow %q", p.name, options.Name)
		if previous != nil {
			previous(w, options)
		}
	}
	o.WorkflowReplayerRegistryOptions.OnRegisterDynamicWorkflow = func(any, workflow.DynamicRegisterOptions) {
		p.log.add("%s OnRegisterDynamicWorkflow", p.name)
	}
	return p.configureErr
}

func (p *replayHookPlugin) ReplayWorkflow(ctx context.Context, o worker.PluginReplayWorkflowOptions, next func(context.Context, worker.PluginReplayWorkflowOptions) error) error {
	p.log.add("%s replay %d events", p.name, len(o.History.GetEvents()))
	p.log.mu.Lock()
	p.log.seen = append(p.log.seen, o)
	p.log.mu.Unlock()
	if p.errBefore != nil {
		return p.errBefore
	}
	if p.skipNext {
		return nil
	}
	if p.replaceHistory != nil {
		o.History = p.replaceHistory
	}
	err := next(ctx, o)
	p.log.add("%s replay done err=%v", p.name, err != nil)
	return err
}

func newPluginReplayer(t *testing.T, plugins ...worker.Plugin) worker.WorkflowReplayer {
	t.Helper()
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Plugins: plugins})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func requireCalls(t *testing.T, log *replayHookLog, want ...string) {
	t.Helper()
	if got := log.take(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("hooks ran:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestReplayerPluginsConfigureInOrderAndWrapEachReplay: Configure hooks run
// in order as the replayer is made, registration callbacks see each
// registration, and each replay runs inside the ReplayWorkflow hooks, the
// first plugin's outermost, with the whole history.
func TestReplayerPluginsConfigureInOrderAndWrapEachReplay(t *testing.T) {
	log := &replayHookLog{}
	a, b := &replayHookPlugin{name: "a", log: log}, &replayHookPlugin{name: "b", log: log}
	r := newPluginReplayer(t, a, b)
	requireCalls(t, log, "a configure key-set=true", "b configure key-set=true")

	r.RegisterWorkflowWithOptions(ActivitiesWorkflow, workflow.RegisterOptions{Name: "ActivitiesWorkflow"})
	r.RegisterDynamicWorkflow(func(workflow.Context, converter.EncodedValues) error { return nil }, workflow.DynamicRegisterOptions{})
	// b's callback wraps a's; the dynamic one replaces it.
	requireCalls(t, log, `b OnRegisterWorkflow "ActivitiesWorkflow"`, `a OnRegisterWorkflow "ActivitiesWorkflow"`, "b OnRegisterDynamicWorkflow")

	h := readHistory(t, "activities.json")
	res, err := r.ReplayWorkflowHistoryWithResult(nil, h, worker.ReplayWorkflowHistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var result string
	if err := res.GetWorkflowResult(&result); err != nil || !strings.HasPrefix(result, "Hello, Temporal!") {
		t.Errorf("result %q, %v", result, err)
	}
	n := len(h.GetEvents())
	requireCalls(t, log,
		fmt.Sprintf("a replay %d events", n), fmt.Sprintf("b replay %d events", n),
		"b replay done err=false", "a replay done err=false")

	// A history read from a server page by page reaches the plugins whole,
	// with where it was read from.
	server := &pagingServer{events: h.GetEvents(), pageSize: 5}
	exec := workflow.Execution{ID: "wf-id", RunID: "run-id"}
	if err := r.ReplayWorkflowExecution(testCtx(t), server, nil, "my-namespace", exec); err != nil {
		t.Fatal(err)
	}
	if server.calls < 2 {
		t.Errorf("the history was read in %d pages; the test wants several", server.calls)
	}
	requireCalls(t, log,
		fmt.Sprintf("a replay %d events", n), fmt.Sprintf("b replay %d events", n),
		"b replay done err=false", "a replay done err=false")

	seen := log.seen
	if len(seen) != 4 {
		t.Fatalf("ReplayWorkflow ran %d times, want 4", len(seen))
	}
	fromHistory, fromServer := seen[0], seen[2]
	if fromHistory.Namespace != "ReplayNamespace" || fromHistory.WorkflowServiceClient != nil || fromHistory.Logger == nil ||
		fromHistory.OriginalExecution != (workflow.Execution{}) {
		t.Errorf("a replay of a history got namespace %q, service %v, logger %v, execution %v",
			fromHistory.Namespace, fromHistory.WorkflowServiceClient, fromHistory.Logger, fromHistory.OriginalExecution)
	}
	if fromServer.Namespace != "my-namespace" || fromServer.WorkflowServiceClient != server || fromServer.OriginalExecution != exec {
		t.Errorf("a replay from a server got namespace %q, service %v, execution %v",
			fromServer.Namespace, fromServer.WorkflowServiceClient, fromServer.OriginalExecution)
	}
	if fromHistory.WorkflowReplayerInstanceKey == "" || fromServer.WorkflowReplayerInstanceKey != fromHistory.WorkflowReplayerInstanceKey {
		t.Errorf("instance keys %q and %q, want one key for the replayer", fromHistory.WorkflowReplayerInstanceKey, fromServer.WorkflowReplayerInstanceKey)
	}
}

// TestReplayerPluginsDecideWhatIsReplayed: the replay runs on the history
// that reaches the innermost next; a hook that does not call next, or
// fails, fails the replay.
func TestReplayerPluginsDecideWhatIsReplayed(t *testing.T) {
	activities, timers := readHistory(t, "activities.json"), readHistory(t, "timers.json")

	log := &replayHookLog{}
	r := newPluginReplayer(t, &replayHookPlugin{name: "swap", log: log, replaceHistory: timers})
	r.RegisterWorkflow(ActivitiesWorkflow)
	err := r.ReplayWorkflowHistory(nil, activities)
	if err == nil || !strings.Contains(err.Error(), `"TimersWorkflow" is not registered`) {
		t.Errorf("replay of a history a plugin replaced with another: %v, want the other's workflow type missing", err)
	}

	r = newPluginReplayer(t, &replayHookPlugin{name: "idle", log: log, skipNext: true})
	r.RegisterWorkflow(ActivitiesWorkflow)
	err = r.ReplayWorkflowHistory(nil, activities)
	if err == nil || !strings.Contains(err.Error(), `ReplayWorkflow hook of the worker plugins ["idle"] returned without calling next`) {
		t.Errorf("replay with a hook that skips next: %v", err)
	}

	boom := errors.New("boom")
	r = newPluginReplayer(t, &replayHookPlugin{name: "failing", log: log, errBefore: boom})
	r.RegisterWorkflow(ActivitiesWorkflow)
	if errs := r.ReplayWorkflowHistories(nil, activities, activities); !errors.Is(errs[0], boom) || !errors.Is(errs[1], boom) {
		t.Errorf("replays with a failing hook: %v, want boom for each", errs)
	}
}

func TestReplayerPluginConfigureErrors(t *testing.T) {
	boom := errors.New("boom")
	_, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Plugins: []worker.Plugin{
		&replayHookPlugin{name: "strict", log: &replayHookLog{}, configureErr: boom},
	}})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), `worker plugin "strict" failed to configure the workflow replayer`) {
		t.Errorf("replayer with a failing plugin: %v", err)
	}
	_, err = worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Plugins: []worker.Plugin{nil}})
	if err == nil || !strings.Contains(err.Error(), "worker.WorkflowReplayerOptions.Plugins[0] is nil") {
		t.Errorf("replayer with a nil plugin: %v", err)
	}
}
