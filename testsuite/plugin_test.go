package testsuite_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/activity"
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
	env.ExecuteWorkflow(PluginWorkflow, "hey")
	require.ErrorIs(t, env.GetWorkflowError(), boom)

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
