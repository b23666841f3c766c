package testsuite_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// PluginWorkflow calls the activity a plugin registers.
func PluginWorkflow(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var out string
	err := workflow.ExecuteActivity(ctx, "PluginShout", name).Get(ctx, &out)
	return out, err
}

func pluginShout(_ context.Context, s string) (string, error) { return s + "!", nil }

// activityCounter is a worker interceptor that counts the activities it
// sees.
type activityCounter struct {
	interceptor.WorkerInterceptorBase
	mu    sync.Mutex
	names []string
}

func (c *activityCounter) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &countingActivity{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, c: c}
}

func (c *activityCounter) seen() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.names...)
}

type countingActivity struct {
	interceptor.ActivityInboundInterceptorBase
	c *activityCounter
}

func (a *countingActivity) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	a.c.mu.Lock()
	a.c.names = append(a.c.names, activity.GetInfo(ctx).ActivityType.Name)
	a.c.mu.Unlock()
	return a.Next.ExecuteActivity(ctx, in)
}

// shoutPlugin registers PluginWorkflow and PluginShout as a worker starts,
// and adds counter to its interceptors.
func shoutPlugin(t *testing.T, counter *activityCounter, calls *[]string) *temporal.SimplePlugin {
	p, err := temporal.NewSimplePlugin(temporal.SimplePluginOptions{
		Name:               "shout",
		WorkerInterceptors: []interceptor.WorkerInterceptor{counter},
		RunContextBefore: func(_ context.Context, o temporal.SimplePluginRunContextBeforeOptions) error {
			*calls = append(*calls, "before")
			o.Registry.RegisterWorkflowWithOptions(PluginWorkflow, workflow.RegisterOptions{})
			o.Registry.RegisterActivityWithOptions(pluginShout, activity.RegisterOptions{Name: "PluginShout"})
			return nil
		},
		RunContextAfter: func(context.Context, temporal.SimplePluginRunContextAfterOptions) {
			*calls = append(*calls, "after")
		},
	})
	require.NoError(t, err)
	return p
}

// TestWorkerPluginsRunInTheTestEnvironment: the environment runs the
// plugins of its worker options as a worker would.
func TestWorkerPluginsRunInTheTestEnvironment(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	counter, calls := &activityCounter{}, []string{}
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Plugins: []worker.Plugin{shoutPlugin(t, counter, &calls)}})

	// The workflow is known by the name the plugin registers it under.
	env.ExecuteWorkflow("PluginWorkflow", "hey")
	require.NoError(t, env.GetWorkflowError())
	var out string
	require.NoError(t, env.GetWorkflowResult(&out))
	require.Equal(t, "hey!", out)
	require.Equal(t, []string{"PluginShout"}, counter.seen(), "the plugin's interceptor sees the activity")
	require.Equal(t, []string{"before", "after"}, calls)

	require.Panics(t, func() { env.SetWorkerOptions(worker.Options{}) }, "the options, once configured by plugins, are final")
}

func TestTestEnvironmentPluginFailures(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	boom := errors.New("boom")
	failing, err := temporal.NewSimplePlugin(temporal.SimplePluginOptions{
		Name:             "failing",
		RunContextBefore: func(context.Context, temporal.SimplePluginRunContextBeforeOptions) error { return boom },
	})
	require.NoError(t, err)
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Plugins: []worker.Plugin{failing}})
	// As with go.temporal.io/sdk, a worker that cannot start is a panic of
	// ExecuteWorkflow, an error of ExecuteActivity.
	require.PanicsWithError(t, "boom", func() { env.ExecuteWorkflow(PluginWorkflow, "hey") })
	aenv := s.NewTestActivityEnvironment()
	aenv.SetWorkerOptions(worker.Options{Plugins: []worker.Plugin{failing}})
	aenv.RegisterActivity(pluginShout)
	_, err = aenv.ExecuteActivity(pluginShout, "hey")
	require.ErrorIs(t, err, boom)

	strict, err := temporal.NewSimplePlugin(temporal.SimplePluginOptions{
		Name:            "strict",
		ConfigureWorker: func(context.Context, worker.PluginConfigureWorkerOptions) error { return boom },
	})
	require.NoError(t, err)
	require.PanicsWithError(t, `SetWorkerOptions: worker plugin "strict" failed to configure the worker: boom`, func() {
		s.NewTestWorkflowEnvironment().SetWorkerOptions(worker.Options{Plugins: []worker.Plugin{strict}})
	})
}

func TestWorkerPluginsRunInTheActivityTestEnvironment(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	counter, calls := &activityCounter{}, []string{}
	env := s.NewTestActivityEnvironment()
	env.SetWorkerOptions(worker.Options{Plugins: []worker.Plugin{shoutPlugin(t, counter, &calls)}})
	v, err := env.ExecuteActivity("PluginShout", "hi")
	require.NoError(t, err)
	var out string
	require.NoError(t, v.Get(&out))
	require.Equal(t, "hi!", out)
	require.Equal(t, []string{"PluginShout"}, counter.seen())
	require.Equal(t, []string{"before", "after"}, calls)
}

// watchingPlugin records the hooks the test environment runs: the task
// queue and instance key each gets, and every registration.
type watchingPlugin struct {
	worker.PluginBase
	mu    sync.Mutex
	calls []string
	keys  map[string]bool
}

func (*watchingPlugin) Name() string { return "watching" }

func (p *watchingPlugin) record(call, key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, call)
	if p.keys == nil {
		p.keys = map[string]bool{}
	}
	if key != "" {
		p.keys[key] = true
	}
}

func (p *watchingPlugin) ConfigureWorker(_ context.Context, o worker.PluginConfigureWorkerOptions) error {
	p.record("configure "+o.TaskQueue, o.WorkerInstanceKey)
	r := o.WorkerRegistryOptions
	r.OnRegisterWorkflow = func(_ any, o workflow.RegisterOptions) { p.record("workflow "+o.Name, "") }
	r.OnRegisterActivity = func(_ any, o activity.RegisterOptions) { p.record("activity "+o.Name, "") }
	r.OnRegisterDynamicWorkflow = func(any, workflow.DynamicRegisterOptions) { p.record("dynamic workflow", "") }
	r.OnRegisterDynamicActivity = func(any, activity.DynamicRegisterOptions) { p.record("dynamic activity", "") }
	return nil
}

func (p *watchingPlugin) StartWorker(ctx context.Context, o worker.PluginStartWorkerOptions, next func(context.Context, worker.PluginStartWorkerOptions) error) error {
	p.record("start", o.WorkerInstanceKey)
	return next(ctx, o)
}

func (p *watchingPlugin) StopWorker(ctx context.Context, o worker.PluginStopWorkerOptions, next func(context.Context, worker.PluginStopWorkerOptions)) {
	p.record("stop", o.WorkerInstanceKey)
	next(ctx, o)
}

// TestTestEnvironmentRunsRegistrationCallbacks: the environment's
// registrations, made by the test, reach the callbacks plugins set, and
// all the hooks of one environment share its instance key.
func TestTestEnvironmentRunsRegistrationCallbacks(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	p := &watchingPlugin{}
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Plugins: []worker.Plugin{p}})
	env.RegisterWorkflowWithOptions(PluginWorkflow, workflow.RegisterOptions{Name: "Renamed"})
	env.RegisterActivityWithOptions(pluginShout, activity.RegisterOptions{Name: "PluginShout"})
	env.RegisterDynamicWorkflow(func(workflow.Context, converter.EncodedValues) error { return nil }, workflow.DynamicRegisterOptions{})
	env.RegisterDynamicActivity(func(context.Context, converter.EncodedValues) error { return nil }, activity.DynamicRegisterOptions{})
	env.ExecuteWorkflow("Renamed", "yo")
	var out string
	require.NoError(t, env.GetWorkflowResult(&out))
	require.Equal(t, "yo!", out)
	require.Equal(t, []string{
		"configure default-test-taskqueue",
		"workflow Renamed", "activity PluginShout", "dynamic workflow", "dynamic activity",
		"start", "stop",
	}, p.calls)
	require.Len(t, p.keys, 1, "one instance key for the environment's hooks")
}
