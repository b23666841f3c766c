package worker_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// PluginGreeting is the workflow a plugin registers in the tests below.
func PluginGreeting(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var greeting string
	err := workflow.ExecuteActivity(ctx, "PluginGreet", name).Get(ctx, &greeting)
	return greeting, err
}

func pluginGreet(_ context.Context, name string) (string, error) { return "Hello, " + name + "!", nil }

// pluginRuns records the RunContextBefore and RunContextAfter calls of a
// plugin.
type pluginRuns struct {
	mu    sync.Mutex
	calls []string
	keys  []string
}

func (r *pluginRuns) add(call, key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call)
	r.keys = append(r.keys, key)
}

func (r *pluginRuns) list() (calls, keys []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls), slices.Clone(r.keys)
}

// newGreetingPlugin is what a library would hand its users: a codec on
// every payload, an interceptor of clients and workers, and the
// registration of its workflow and activity.
func newGreetingPlugin(t *testing.T, log *callLog, runs *pluginRuns) *temporal.SimplePlugin {
	t.Helper()
	codec := converter.NewZlibCodec(converter.ZlibCodecOptions{AlwaysEncode: true})
	p, err := temporal.NewSimplePlugin(temporal.SimplePluginOptions{
		Name:               "greeting-plugin",
		DataConverter:      converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec),
		ClientInterceptors: []interceptor.ClientInterceptor{&recordingInterceptor{log: log}},
		RunContextBefore: func(_ context.Context, o temporal.SimplePluginRunContextBeforeOptions) error {
			if o.WorkflowReplayer {
				runs.add("before replay", o.InstanceKey)
			} else {
				runs.add("before worker", o.InstanceKey)
			}
			// A replayer runs this before each replay: registering again
			// must not fail.
			o.Registry.RegisterWorkflowWithOptions(PluginGreeting, workflow.RegisterOptions{DisableAlreadyRegisteredCheck: true})
			o.Registry.RegisterActivityWithOptions(pluginGreet, activity.RegisterOptions{Name: "PluginGreet"})
			return nil
		},
		RunContextAfter: func(_ context.Context, o temporal.SimplePluginRunContextAfterOptions) {
			runs.add("after", o.InstanceKey)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSimplePluginConfiguresAClientAndItsWorkers: a plugin given to the
// client only sets the converter and the interceptor of the client and of
// the worker made from it, and registers the worker's code as it starts.
func TestSimplePluginConfiguresAClientAndItsWorkers(t *testing.T) {
	log, runs := &callLog{live: true}, &pluginRuns{}
	plugin := newGreetingPlugin(t, log, runs)
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Plugins: []client.Plugin{plugin}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	taskQueue := unique(t, "tq")
	w := worker.New(c, taskQueue, worker.Options{}) // nothing registered by hand
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	id := unique(t, "wf")
	run, err := c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, PluginGreeting, "Temporal")
	if err != nil {
		t.Fatal(err)
	}
	var greeting string
	if err := run.Get(testCtx(t), &greeting); err != nil {
		t.Fatal(err)
	}
	if greeting != "Hello, Temporal!" {
		t.Fatalf("result %q", greeting)
	}

	// The codec ran on both sides: the client's input and the worker's
	// activity input and results are compressed in history.
	events := history(t, c, id)
	encodings := map[string]string{}
	for _, ev := range events {
		var payloads *commonpb.Payloads
		switch {
		case ev.GetWorkflowExecutionStartedEventAttributes() != nil:
			payloads = ev.GetWorkflowExecutionStartedEventAttributes().GetInput()
		case ev.GetActivityTaskScheduledEventAttributes() != nil:
			payloads = ev.GetActivityTaskScheduledEventAttributes().GetInput()
		case ev.GetActivityTaskCompletedEventAttributes() != nil:
			payloads = ev.GetActivityTaskCompletedEventAttributes().GetResult()
		case ev.GetWorkflowExecutionCompletedEventAttributes() != nil:
			payloads = ev.GetWorkflowExecutionCompletedEventAttributes().GetResult()
		default:
			continue
		}
		encodings[ev.GetEventType().String()] = string(payloads.GetPayloads()[0].GetMetadata()["encoding"])
	}
	for event, encoding := range encodings {
		if encoding != "binary/zlib" {
			t.Errorf("%s payload encoding %q, want binary/zlib", event, encoding)
		}
	}
	if len(encodings) != 4 {
		t.Errorf("payload events %v, want the start, the activity's input and result and the completion", encodings)
	}

	// The interceptor saw the client's call and the worker's workflow and
	// activity, with the header passed along.
	calls := strings.Join(log.list(), "\n")
	for _, want := range []string{
		"client ExecuteWorkflow PluginGreeting",
		"ExecuteWorkflow header=client:ExecuteWorkflow PluginGreeting",
		"ExecuteActivity(activity) PluginGreet header=workflow:PluginGreet",
	} {
		if !strings.Contains(calls, want) {
			t.Errorf("the interceptor did not see %q; it saw:\n%s", want, calls)
		}
	}

	w.Stop()
	gotRuns, keys := runs.list()
	if !slices.Equal(gotRuns, []string{"before worker", "after"}) || keys[0] != keys[1] || keys[0] == "" {
		t.Errorf("run context calls %v with instance keys %v, want one before and one after, same key", gotRuns, keys)
	}

	t.Run("replay", func(t *testing.T) { replayThroughPlugin(t, c, plugin, runs, id, events) })
}

// replayThroughPlugin replays the run written above with a replayer that
// has only the plugin: it gives the codec, and registers the workflow
// before each replay.
func replayThroughPlugin(t *testing.T, c client.Client, plugin *temporal.SimplePlugin, runs *pluginRuns, id string, events []*historypb.HistoryEvent) {
	h := &historypb.History{Events: events}
	observer := &replayObserver{}
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Plugins: []worker.Plugin{plugin, observer}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.ReplayWorkflowHistoryWithResult(nil, h, worker.ReplayWorkflowHistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var greeting string
	if err := res.GetWorkflowResult(&greeting); err != nil || greeting != "Hello, Temporal!" {
		t.Fatalf("replayed result %q, %v", greeting, err)
	}

	// From the server, the plugins see the whole history and where it
	// came from.
	if err := r.ReplayWorkflowExecution(testCtx(t), c.WorkflowService(), nil, testharness.Namespace(t), workflow.Execution{ID: id}); err != nil {
		t.Fatal(err)
	}
	seen := observer.list()
	if len(seen) != 2 {
		t.Fatalf("ReplayWorkflow saw %d replays, want 2", len(seen))
	}
	if seen[0].Namespace != "ReplayNamespace" || seen[0].WorkflowServiceClient != nil || len(seen[0].History.GetEvents()) != len(events) {
		t.Errorf("replay of a history: namespace %q, service %v, %d events", seen[0].Namespace, seen[0].WorkflowServiceClient, len(seen[0].History.GetEvents()))
	}
	if seen[1].Namespace != testharness.Namespace(t) || seen[1].WorkflowServiceClient == nil ||
		len(seen[1].History.GetEvents()) != len(events) || seen[1].OriginalExecution.ID != id {
		t.Errorf("replay of an execution: namespace %q, service %v, %d events, execution %v",
			seen[1].Namespace, seen[1].WorkflowServiceClient, len(seen[1].History.GetEvents()), seen[1].OriginalExecution)
	}
	calls, _ := runs.list()
	if want := []string{"before worker", "after", "before replay", "after", "before replay", "after"}; !slices.Equal(calls, want) {
		t.Errorf("run context calls %v, want %v", calls, want)
	}

	// Without the plugin, the replayer lacks the codec.
	plain := worker.NewWorkflowReplayer()
	plain.RegisterWorkflow(PluginGreeting)
	if err := plain.ReplayWorkflowHistory(nil, h); err == nil {
		t.Error("a replayer without the plugin's codec replayed a compressed history")
	}
}

// replayObserver is a worker plugin that keeps what ReplayWorkflow is
// given.
type replayObserver struct {
	worker.PluginBase
	mu   sync.Mutex
	seen []worker.PluginReplayWorkflowOptions
}

func (*replayObserver) Name() string { return "replay-observer" }

func (o *replayObserver) ReplayWorkflow(ctx context.Context, options worker.PluginReplayWorkflowOptions, next func(context.Context, worker.PluginReplayWorkflowOptions) error) error {
	o.mu.Lock()
	o.seen = append(o.seen, options)
	o.mu.Unlock()
	return next(ctx, options)
}

func (o *replayObserver) list() []worker.PluginReplayWorkflowOptions {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.seen)
}

// activityTypes is a worker interceptor that keeps the types of the
// activities it sees run.
type activityTypes struct {
	interceptor.WorkerInterceptorBase
	mu    sync.Mutex
	types []string
}

func (a *activityTypes) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &activityTypesInbound{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, a: a}
}

func (a *activityTypes) list() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.types)
}

type activityTypesInbound struct {
	interceptor.ActivityInboundInterceptorBase
	a *activityTypes
}

func (in *activityTypesInbound) ExecuteActivity(ctx context.Context, input *interceptor.ExecuteActivityInput) (any, error) {
	in.a.mu.Lock()
	in.a.types = append(in.a.types, activity.GetInfo(ctx).ActivityType.Name)
	in.a.mu.Unlock()
	return in.Next.ExecuteActivity(ctx, input)
}

// TestClientAndWorkerPluginsRunAWorkerOnADevServer: a client plugin gives
// the client (and so its worker) a context propagator and a failure
// converter that encodes messages; a plugin of the worker's own options
// registers its code and adds an interceptor, around Worker.Run. A
// replayer given the client plugin replays both runs.
func TestClientAndWorkerPluginsRunAWorkerOnADevServer(t *testing.T) {
	clientPlugin, err := temporal.NewSimplePlugin(temporal.SimplePluginOptions{
		Name:               "tenancy",
		ContextPropagators: []workflow.ContextPropagator{tenantPropagator{}},
		FailureConverter:   temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{EncodeCommonAttributes: true}),
	})
	if err != nil {
		t.Fatal(err)
	}
	seen, runs := &activityTypes{}, &pluginRuns{}
	workerPlugin, err := temporal.NewSimplePlugin(temporal.SimplePluginOptions{
		Name:               "tenant-code",
		WorkerInterceptors: []interceptor.WorkerInterceptor{seen},
		RunContextBefore: func(_ context.Context, o temporal.SimplePluginRunContextBeforeOptions) error {
			runs.add("before", o.InstanceKey)
			o.Registry.RegisterWorkflowWithOptions(TenantWorkflow, workflow.RegisterOptions{})
			o.Registry.RegisterActivityWithOptions(TenantActivity, activity.RegisterOptions{})
			return nil
		},
		RunContextAfter: func(_ context.Context, o temporal.SimplePluginRunContextAfterOptions) {
			runs.add("after", o.InstanceKey)
		},
	})
	if err != nil {
		t.Fatal(err)
	}

	c := dialWith(t, client.Options{Plugins: []client.Plugin{clientPlugin}})
	taskQueue := unique(t, "tq")
	w := worker.New(c, taskQueue, worker.Options{Plugins: []worker.Plugin{workerPlugin}})
	interrupt, ran := make(chan any), make(chan error, 1)
	go func() { ran <- w.Run(interrupt) }()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			close(interrupt)
			if err := <-ran; err != nil {
				t.Errorf("Run: %v", err)
			}
		}
	}
	defer stop()

	ctx := testCtx(t)
	tenantRun, err := c.ExecuteWorkflow(context.WithValue(ctx, tenantKey{}, "acme"), client.StartWorkflowOptions{ID: unique(t, "tenant"), TaskQueue: taskQueue}, TenantWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var result string
	if err := tenantRun.Get(ctx, &result); err != nil {
		t.Fatal(err)
	}
	if want := "workflow:acme activity:acme"; result != want {
		t.Errorf("result %q, want %q: the plugin's propagator carries the tenant", result, want)
	}
	if got := seen.list(); !slices.Equal(got, []string{"TenantActivity"}) {
		t.Errorf("the worker plugin's interceptor saw activities %v", got)
	}

	// Without a tenant the workflow fails; its message is encoded in
	// history and decoded for the client.
	noTenantRun, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "no-tenant"), TaskQueue: taskQueue}, TenantWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	err = noTenantRun.Get(ctx, nil)
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || !strings.Contains(appErr.Error(), "no tenant in the workflow context") {
		t.Errorf("workflow error %v, want the workflow's message, decoded", err)
	}
	events := history(t, c, noTenantRun.GetID())
	failed := events[len(events)-1].GetWorkflowExecutionFailedEventAttributes().GetFailure()
	if failed.GetMessage() != "Encoded failure" || failed.GetEncodedAttributes() == nil {
		t.Errorf("failure in history: message %q, encoded attributes %v; want the plugin's converter to encode it", failed.GetMessage(), failed.GetEncodedAttributes())
	}

	stop()
	calls, keys := runs.list()
	if !slices.Equal(calls, []string{"before", "after"}) || keys[0] == "" || keys[0] != keys[1] {
		t.Errorf("run context calls %v with instance keys %v, want before and after Run, one key", calls, keys)
	}

	replayer := func(plugins ...worker.Plugin) worker.WorkflowReplayer {
		r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Plugins: plugins})
		if err != nil {
			t.Fatal(err)
		}
		r.RegisterWorkflow(TenantWorkflow)
		return r
	}
	withPlugin := replayer(clientPlugin)
	for _, run := range []client.WorkflowRun{tenantRun, noTenantRun} {
		if err := withPlugin.ReplayWorkflowExecution(ctx, c.WorkflowService(), nil, testharness.Namespace(t), workflow.Execution{ID: run.GetID()}); err != nil {
			t.Errorf("replay of %s with the plugin: %v", run.GetID(), err)
		}
	}
	if err := replayer().ReplayWorkflowExecution(ctx, c.WorkflowService(), nil, testharness.Namespace(t), workflow.Execution{ID: tenantRun.GetID()}); err == nil {
		t.Error("a replayer without the plugin's propagator replayed the tenant's run, but its workflow cannot find the tenant then")
	}
}
