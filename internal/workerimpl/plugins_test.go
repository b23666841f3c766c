package workerimpl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/logging"
)

// loggingPlugin is a worker plugin that logs each hook, before and after
// next, and appends its name to the worker's identity, so the order of
// configuration shows in the result (internal/clientimpl's tests have its
// client half).
type loggingPlugin struct {
	internal.WorkerPluginBase
	name string
	log  *chk.Calls
	// Failures to simulate.
	configureErr  error
	skipNext      bool
	errAfterNext  error
	registerStart func(r interface {
		RegisterWorkflowWithOptions(any, internal.RegisterWorkflowOptions)
		RegisterActivityWithOptions(any, internal.RegisterActivityOptions)
	})
}

func (p *loggingPlugin) Name() string { return p.name }

func (p *loggingPlugin) ConfigureWorker(_ context.Context, o internal.WorkerPluginConfigureWorkerOptions) error {
	p.log.Add("%s ConfigureWorker %s", p.name, o.TaskQueue)
	o.WorkerOptions.Identity += "+" + p.name
	previous := o.WorkerRegistryOptions.OnRegisterWorkflow
	o.WorkerRegistryOptions.OnRegisterWorkflow = func(w any, options internal.RegisterWorkflowOptions) {
		p.log.Add("%s OnRegisterWorkflow %q", p.name, options.Name)
		if previous != nil {
			previous(w, options)
		}
	}
	o.WorkerRegistryOptions.OnRegisterDynamicWorkflow = func(any, internal.DynamicRegisterWorkflowOptions) {
		p.log.Add("%s OnRegisterDynamicWorkflow", p.name)
	}
	o.WorkerRegistryOptions.OnRegisterDynamicActivity = func(any, internal.DynamicRegisterActivityOptions) {
		p.log.Add("%s OnRegisterDynamicActivity", p.name)
	}
	return p.configureErr
}

func (p *loggingPlugin) StartWorker(ctx context.Context, o internal.WorkerPluginStartWorkerOptions, next func(context.Context, internal.WorkerPluginStartWorkerOptions) error) error {
	p.log.Add("%s StartWorker", p.name)
	if p.registerStart != nil {
		p.registerStart(o.WorkerRegistry)
	}
	if p.skipNext {
		return nil
	}
	err := next(ctx, o)
	p.log.Add("%s StartWorker done", p.name)
	if p.errAfterNext != nil {
		return p.errAfterNext
	}
	return err
}

func (p *loggingPlugin) StopWorker(ctx context.Context, o internal.WorkerPluginStopWorkerOptions, next func(context.Context, internal.WorkerPluginStopWorkerOptions)) {
	p.log.Add("%s StopWorker", p.name)
	if p.skipNext {
		return
	}
	next(ctx, o)
	p.log.Add("%s StopWorker done", p.name)
}

func TestChainHooksRunsTheFirstPluginOutermost(t *testing.T) {
	var calls []string
	root := func(_ context.Context, o string) error {
		calls = append(calls, "root "+o)
		return nil
	}
	hooked := internal.ChainPluginHooks([]string{"a", "b", "c"}, root, func(p string, ctx context.Context, o string, next func(context.Context, string) error) error {
		calls = append(calls, p+" before")
		err := next(ctx, o+p)
		calls = append(calls, p+" after")
		return err
	})
	chk.NoErr(t, hooked(context.Background(), ">"))
	chk.Equal(t, []string{"a before", "b before", "c before", "root >abc", "c after", "b after", "a after"}, calls)
}

func TestWorkersTakeTheirClientsWorkerPluginsFirst(t *testing.T) {
	f := startFakeClientFrontend(t)
	log := &chk.Calls{}
	fromClient, own := &loggingPlugin{name: "client", log: log}, &loggingPlugin{name: "worker", log: log}
	c := f.client(t, internal.ClientSettings{Plugins: []internal.WorkerPlugin{fromClient}})

	w := NewWorker(c, "tq", internal.WorkerOptions{Identity: "w", Plugins: []internal.WorkerPlugin{own}})
	chk.Equal(t, []string{"client ConfigureWorker tq", "worker ConfigureWorker tq"}, log.Take())
	chk.Equal(t, "w+client+worker", w.options.Identity)
	chk.NotEqual(t, "", w.plugins.instanceKey)

	// Registration callbacks run before the registration, the last
	// plugin's outermost here because each wraps the one before.
	w.RegisterWorkflowWithOptions(func(internal.Context) error { return nil }, internal.RegisterWorkflowOptions{Name: "Named"})
	chk.Equal(t, []string{`worker OnRegisterWorkflow "Named"`, `client OnRegisterWorkflow "Named"`}, log.Take())
	chk.Equal(t, []string{"Named"}, w.registry.WorkflowNames())

	// These callbacks do not chain: the last plugin's replaced the first's.
	w.RegisterDynamicWorkflow(func(internal.Context, converter.EncodedValues) error { return nil }, internal.DynamicRegisterWorkflowOptions{})
	w.RegisterDynamicActivity(func(context.Context, converter.EncodedValues) error { return nil }, internal.DynamicRegisterActivityOptions{})
	chk.Equal(t, []string{"worker OnRegisterDynamicWorkflow", "worker OnRegisterDynamicActivity"}, log.Take())

	other := NewWorker(c, "tq", internal.WorkerOptions{})
	chk.NotEqual(t, w.plugins.instanceKey, other.plugins.instanceKey, "each worker has its own instance key")
	chk.Equal(t, []string{"client ConfigureWorker tq"}, log.Take())
}

func TestWorkerPluginStartAndStopRunOnceAndNest(t *testing.T) {
	f := startFakeClientFrontend(t)
	log := &chk.Calls{}
	a, b := &loggingPlugin{name: "a", log: log}, &loggingPlugin{name: "b", log: log}
	w := NewWorker(f.client(t, internal.ClientSettings{}), "tq", internal.WorkerOptions{Plugins: []internal.WorkerPlugin{a, b}})
	log.Take()

	// The namespace does not exist, so the start fails inside the hooks,
	// which see its error; later calls return the same outcome without
	// hooks.
	f.failNext("DescribeNamespace", serviceerror.NewNamespaceNotFound("default"))
	err := w.Start()
	var notFound *serviceerror.NamespaceNotFound
	chk.True(t, errors.As(err, &notFound), fmt.Sprintf("start error %v, want the namespace's", err))
	chk.Equal(t, []string{"a StartWorker", "b StartWorker", "b StartWorker done", "a StartWorker done"}, log.Take())
	chk.ErrIs(t, w.Start(), err)
	chk.Empty(t, log.Take())

	w.Stop()
	chk.Equal(t, []string{"a StopWorker", "b StopWorker", "b StopWorker done", "a StopWorker done"}, log.Take())
	w.Stop()
	chk.Empty(t, log.Take(), "only the first Stop runs the hooks")
	chk.ErrContains(t, w.Start(), "Start after Stop")
}

func TestWorkerPluginThatDoesNotCallNextFailsTheStart(t *testing.T) {
	f := startFakeClientFrontend(t)
	log := &chk.Calls{}
	var warnings bytes.Buffer
	c := f.client(t, internal.ClientSettings{Logger: logging.NewTextLogger(&warnings, slog.LevelWarn)})
	w := NewWorker(c, "tq", internal.WorkerOptions{Plugins: []internal.WorkerPlugin{&loggingPlugin{name: "idle", log: log, skipNext: true}}})
	chk.ErrContains(t, w.Start(), `StartWorker hook of the worker plugins ["idle"] returned without calling next`)
	w.Stop() // the hook skips next again: the worker stops anyway, with a warning
	chk.Equal(t, []string{"idle ConfigureWorker tq", "idle StartWorker", "idle StopWorker"}, log.Take())
	chk.True(t, strings.Contains(warnings.String(), "StopWorker hook of the worker plugins returned without calling next"), warnings.String())
}

func TestWorkerPluginFailingAfterTheStartStopsTheWorker(t *testing.T) {
	f := startFakeClientFrontend(t)
	log := &chk.Calls{}
	boom := errors.New("boom")
	w := NewWorker(f.client(t, internal.ClientSettings{}), "tq", internal.WorkerOptions{Plugins: []internal.WorkerPlugin{&loggingPlugin{name: "late", log: log, errAfterNext: boom}}})
	w.RegisterWorkflowWithOptions(func(internal.Context) error { return nil }, internal.RegisterWorkflowOptions{Name: "W"})
	chk.ErrIs(t, w.Start(), boom)
	chk.NotNil(t, w.runtime, "the worker started inside the hook")
	chk.Nil(t, w.cache, "the worker was stopped again: Start failed, so nobody else will stop it")
	w.Stop()
	chk.Equal(t, []string{"late ConfigureWorker tq", `late OnRegisterWorkflow "W"`, "late StartWorker", "late StartWorker done", "late StopWorker", "late StopWorker done"}, log.Take())
}

func TestWorkerRunStartsAndStopsThroughThePlugins(t *testing.T) {
	f := startFakeClientFrontend(t)
	log := &chk.Calls{}
	w := NewWorker(f.client(t, internal.ClientSettings{}), "tq", internal.WorkerOptions{Plugins: []internal.WorkerPlugin{&loggingPlugin{name: "p", log: log}}})
	w.RegisterWorkflowWithOptions(func(internal.Context) error { return nil }, internal.RegisterWorkflowOptions{Name: "W"})
	interrupt := make(chan any)
	done := make(chan error)
	go func() { done <- w.Run(interrupt) }()
	interrupt <- "stop"
	chk.NoErr(t, <-done)
	chk.Equal(t, []string{
		"p ConfigureWorker tq", `p OnRegisterWorkflow "W"`,
		"p StartWorker", "p StartWorker done", "p StopWorker", "p StopWorker done",
	}, log.Take())
	chk.Nil(t, w.cache, "Run stopped the worker")
}

func TestWorkerPluginRegistersAsTheWorkerStarts(t *testing.T) {
	f := startFakeClientFrontend(t)
	log := &chk.Calls{}
	p := &loggingPlugin{name: "p", log: log, registerStart: func(r interface {
		RegisterWorkflowWithOptions(any, internal.RegisterWorkflowOptions)
		RegisterActivityWithOptions(any, internal.RegisterActivityOptions)
	}) {
		r.RegisterWorkflowWithOptions(func(internal.Context) error { return nil }, internal.RegisterWorkflowOptions{Name: "FromPlugin"})
	}}
	w := NewWorker(f.client(t, internal.ClientSettings{}), "tq", internal.WorkerOptions{Plugins: []internal.WorkerPlugin{p}})
	chk.NoErr(t, w.Start())
	defer w.Stop()
	chk.Equal(t, []string{"p ConfigureWorker tq", "p StartWorker", `p OnRegisterWorkflow "FromPlugin"`, "p StartWorker done"}, log.Take())
	chk.Equal(t, []string{"FromPlugin"}, w.registry.WorkflowNames())
}

func TestWorkerPluginConfigureErrorPanicsNamingThePlugin(t *testing.T) {
	f := startFakeClientFrontend(t)
	boom := errors.New("boom")
	defer func() {
		err, _ := recover().(error)
		chk.ErrIs(t, err, boom)
		chk.ErrContains(t, err, `worker plugin "strict" failed to configure the worker`)
	}()
	NewWorker(f.client(t, internal.ClientSettings{}), "tq", internal.WorkerOptions{Plugins: []internal.WorkerPlugin{&loggingPlugin{name: "strict", log: &chk.Calls{}, configureErr: boom}}})
	t.Fatal("NewWorker did not panic")
}

func TestPluginBasesCallNext(t *testing.T) {
	ctx := context.Background()
	var ran []string
	chk.NoErr(t, internal.ClientPluginBase{}.NewClient(ctx, internal.ClientPluginNewClientOptions{}, func(context.Context, internal.ClientPluginNewClientOptions) error {
		ran = append(ran, "client")
		return nil
	}))
	chk.NoErr(t, internal.WorkerPluginBase{}.StartWorker(ctx, internal.WorkerPluginStartWorkerOptions{}, func(context.Context, internal.WorkerPluginStartWorkerOptions) error {
		ran = append(ran, "start")
		return nil
	}))
	internal.WorkerPluginBase{}.StopWorker(ctx, internal.WorkerPluginStopWorkerOptions{}, func(context.Context, internal.WorkerPluginStopWorkerOptions) {
		ran = append(ran, "stop")
	})
	chk.NoErr(t, internal.WorkerPluginBase{}.ReplayWorkflow(ctx, internal.WorkerPluginReplayWorkflowOptions{}, func(context.Context, internal.WorkerPluginReplayWorkflowOptions) error {
		ran = append(ran, "replay")
		return nil
	}))
	chk.Equal(t, []string{"client", "start", "stop", "replay"}, ran)
}
