package simpleplugin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/failure"
)

func TestNewSimplePluginNeedsAName(t *testing.T) {
	_, err := NewSimplePlugin(SimplePluginOptions{})
	chk.ErrContains(t, err, "SimplePluginOptions.Name is empty")
}

func TestSimplePluginHasItsNameAndVersion(t *testing.T) {
	p, err := NewSimplePlugin(SimplePluginOptions{Name: "acme.audit", Version: "1.4.0"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "acme.audit" || p.Version() != "1.4.0" {
		t.Errorf("Name() %q, Version() %q; want acme.audit, 1.4.0", p.Name(), p.Version())
	}
	unversioned, err := NewSimplePlugin(SimplePluginOptions{Name: "acme.audit"})
	if err != nil {
		t.Fatal(err)
	}
	if v := unversioned.Version(); v != "" {
		t.Errorf("a plugin given no version reports %q", v)
	}
}

// namedInterceptor is a client and worker interceptor told apart by name.
type namedInterceptor struct {
	internal.InterceptorBase
	name string
}

// namedClientInterceptor is a client interceptor only.
type namedClientInterceptor struct {
	internal.ClientInterceptorBase
	name string
}

// namedPropagator is a context propagator told apart by name.
type namedPropagator struct {
	internal.ContextPropagator
	name string
}

func TestSimplePluginConfiguresClients(t *testing.T) {
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), converter.NewZlibCodec(converter.ZlibCodecOptions{}))
	fc := failure.NewDefaultFailureConverter(failure.DefaultFailureConverterOptions{EncodeCommonAttributes: true})
	pluginInterceptor := &namedInterceptor{name: "plugin"}
	var seen internal.ClientOptions
	p, err := NewSimplePlugin(SimplePluginOptions{
		Name:               "simple",
		DataConverter:      dc,
		FailureConverter:   fc,
		ContextPropagators: []internal.ContextPropagator{namedPropagator{name: "plugin"}},
		ClientInterceptors: []internal.ClientInterceptor{pluginInterceptor},
		ConfigureClient: func(_ context.Context, o internal.ClientPluginConfigureClientOptions) error {
			seen = *o.ClientOptions
			return nil
		},
	})
	chk.NoErr(t, err)

	// The user's slices have room to grow: the plugin must not write into
	// them, other clients may share them.
	userInterceptors := make([]internal.ClientInterceptor, 1, 4)
	userInterceptors[0] = &namedInterceptor{name: "user"}
	options := internal.ClientOptions{Interceptors: userInterceptors, DataConverter: converter.GetDefaultDataConverter()}
	chk.NoErr(t, p.ConfigureClient(context.Background(), internal.ClientPluginConfigureClientOptions{ClientOptions: &options}))
	chk.Same(t, dc, options.DataConverter)
	chk.Same(t, fc, options.FailureConverter)
	chk.Equal(t, []internal.ClientInterceptor{userInterceptors[0], pluginInterceptor}, options.Interceptors)
	chk.Equal(t, []internal.ContextPropagator{namedPropagator{name: "plugin"}}, options.ContextPropagators)
	chk.Equal(t, options, seen, "ConfigureClient runs after the fields are applied")
	chk.Equal(t, 1, len(userInterceptors))
	chk.Nil(t, userInterceptors[:2][1], "the user's array is left alone")
}

func TestSimplePluginConfiguresWorkersAndReplayers(t *testing.T) {
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), converter.NewZlibCodec(converter.ZlibCodecOptions{}))
	both, clientOnly := &namedInterceptor{name: "both"}, &namedClientInterceptor{name: "client"}
	workerSide := &namedInterceptor{name: "worker"}
	var configured []string
	p, err := NewSimplePlugin(SimplePluginOptions{
		Name:               "simple",
		DataConverter:      dc,
		ClientInterceptors: []internal.ClientInterceptor{both, clientOnly},
		WorkerInterceptors: []internal.WorkerInterceptor{workerSide},
		ConfigureWorker: func(_ context.Context, o internal.WorkerPluginConfigureWorkerOptions) error {
			configured = append(configured, "worker "+o.TaskQueue)
			return nil
		},
		ConfigureWorkflowReplayer: func(_ context.Context, o internal.WorkerPluginConfigureWorkflowReplayerOptions) error {
			configured = append(configured, fmt.Sprintf("replayer interceptors=%d", len(o.WorkflowReplayerOptions.Interceptors)))
			return nil
		},
	})
	chk.NoErr(t, err)

	user := &namedInterceptor{name: "user"}
	wo := internal.WorkerOptions{Interceptors: []internal.WorkerInterceptor{user}}
	chk.NoErr(t, p.ConfigureWorker(context.Background(), internal.WorkerPluginConfigureWorkerOptions{TaskQueue: "tq", WorkerOptions: &wo, WorkerRegistryOptions: &internal.WorkerPluginConfigureWorkerRegistryOptions{}}))
	// Workers get the client's interceptors from their client, not here.
	chk.Equal(t, []internal.WorkerInterceptor{user, workerSide}, wo.Interceptors)

	ro := internal.WorkflowReplayerOptions{Interceptors: []internal.WorkerInterceptor{user}}
	chk.NoErr(t, p.ConfigureWorkflowReplayer(context.Background(), internal.WorkerPluginConfigureWorkflowReplayerOptions{WorkflowReplayerOptions: &ro, WorkflowReplayerRegistryOptions: &internal.WorkerPluginConfigureWorkflowReplayerRegistryOptions{}}))
	// A replayer has no client: it takes the client interceptors that
	// are worker interceptors too.
	chk.Equal(t, []internal.WorkerInterceptor{user, both, workerSide}, ro.Interceptors)
	chk.Same(t, dc, ro.DataConverter)
	chk.Equal(t, []string{"worker tq", "replayer interceptors=3"}, configured)
}

// registryLog records registrations, as a worker or replayer would take them.
type registryLog struct{ log *chk.Calls }

func (r registryLog) RegisterWorkflowWithOptions(_ any, o internal.RegisterWorkflowOptions) {
	r.log.Add("register workflow %s", o.Name)
}

func (r registryLog) RegisterActivityWithOptions(_ any, o internal.RegisterActivityOptions) {
	r.log.Add("register activity %s", o.Name)
}

func (r registryLog) RegisterDynamicWorkflow(any, internal.DynamicRegisterWorkflowOptions) {
	r.log.Add("register dynamic workflow")
}

func (r registryLog) RegisterDynamicActivity(any, internal.DynamicRegisterActivityOptions) {
	r.log.Add("register dynamic activity")
}

func (r registryLog) RegisterNexusService(s *nexus.Service) {
	r.log.Add("register nexus service %s", s.Name)
}

func TestSimplePluginRunContext(t *testing.T) {
	log := &chk.Calls{}
	boom := errors.New("boom")
	var failBefore error
	p, err := NewSimplePlugin(SimplePluginOptions{
		Name: "simple",
		RunContextBefore: func(_ context.Context, o SimplePluginRunContextBeforeOptions) error {
			log.Add("before %s replayer=%v", o.InstanceKey, o.WorkflowReplayer)
			o.Registry.RegisterWorkflowWithOptions(nil, internal.RegisterWorkflowOptions{Name: "W"})
			o.Registry.RegisterActivityWithOptions(nil, internal.RegisterActivityOptions{Name: "A"})
			o.Registry.RegisterDynamicWorkflow(nil, internal.DynamicRegisterWorkflowOptions{})
			o.Registry.RegisterDynamicActivity(nil, internal.DynamicRegisterActivityOptions{})
			return failBefore
		},
		RunContextAfter: func(_ context.Context, o SimplePluginRunContextAfterOptions) {
			log.Add("after %s", o.InstanceKey)
		},
	})
	chk.NoErr(t, err)
	registry := registryLog{log: log}
	ctx := context.Background()
	next := func(string) error { log.Add("next"); return nil }

	chk.NoErr(t, p.StartWorker(ctx, internal.WorkerPluginStartWorkerOptions{WorkerInstanceKey: "w1", WorkerRegistry: registry},
		func(context.Context, internal.WorkerPluginStartWorkerOptions) error { return next("start") }))
	p.StopWorker(ctx, internal.WorkerPluginStopWorkerOptions{WorkerInstanceKey: "w1"}, func(context.Context, internal.WorkerPluginStopWorkerOptions) { _ = next("stop") })
	chk.Equal(t, []string{
		"before w1 replayer=false", "register workflow W", "register activity A",
		"register dynamic workflow", "register dynamic activity", "next",
		"after w1", "next",
	}, log.Take())

	// A replayer's registry ignores activities; RunContextAfter runs
	// even when the replay fails.
	err = p.ReplayWorkflow(ctx, internal.WorkerPluginReplayWorkflowOptions{WorkflowReplayerInstanceKey: "r1", WorkflowReplayRegistry: registry},
		func(context.Context, internal.WorkerPluginReplayWorkflowOptions) error {
			log.Add("replay")
			return boom
		})
	chk.ErrIs(t, err, boom)
	chk.Equal(t, []string{"before r1 replayer=true", "register workflow W", "register dynamic workflow", "replay", "after r1"}, log.Take())

	// A failing RunContextBefore stops the start there.
	failBefore = boom
	err = p.StartWorker(ctx, internal.WorkerPluginStartWorkerOptions{WorkerInstanceKey: "w2", WorkerRegistry: registry},
		func(context.Context, internal.WorkerPluginStartWorkerOptions) error { return next("start") })
	chk.ErrIs(t, err, boom)
	calls := log.Take()
	chk.False(t, strings.Contains(strings.Join(calls, ","), "next"), "next ran after RunContextBefore failed:", calls)
}
