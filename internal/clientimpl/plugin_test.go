package clientimpl

import (
	"context"
	"errors"
	"testing"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
)

// loggingPlugin is a client plugin, and a worker plugin of no hooks of its
// own, that logs each client hook, before and after next, and appends its
// name to the client's identity, so the order of configuration shows in
// the result (package internal's tests have its worker half).
type loggingPlugin struct {
	internal.ClientPluginBase
	internal.WorkerPluginBase
	name string
	log  *chk.Calls
	// Failures to simulate.
	configureErr error
	skipNext     bool
	errAfterNext error
}

func (p *loggingPlugin) Name() string { return p.name }

// clientOnlyPlugin is a client plugin and nothing else.
type clientOnlyPlugin struct {
	internal.ClientPluginBase
	log *chk.Calls
}

func (p *clientOnlyPlugin) Name() string { return "client-only" }

func (p *clientOnlyPlugin) ConfigureClient(context.Context, internal.ClientPluginConfigureClientOptions) error {
	p.log.Add("client-only ConfigureClient")
	return nil
}

func (p *loggingPlugin) ConfigureClient(_ context.Context, o internal.ClientPluginConfigureClientOptions) error {
	p.log.Add("%s ConfigureClient", p.name)
	o.ClientOptions.Identity += "+" + p.name
	return p.configureErr
}

func (p *loggingPlugin) NewClient(ctx context.Context, o internal.ClientPluginNewClientOptions, next func(context.Context, internal.ClientPluginNewClientOptions) error) error {
	p.log.Add("%s NewClient identity=%s lazy=%v existing=%v", p.name, o.ClientOptions.Identity, o.Lazy, o.FromExisting != nil)
	if p.skipNext {
		return nil
	}
	err := next(ctx, o)
	p.log.Add("%s NewClient done err=%v", p.name, err)
	if p.errAfterNext != nil {
		return p.errAfterNext
	}
	return err
}

func TestClientPluginsConfigureInOrderThenWrapTheCreation(t *testing.T) {
	f := startFakeClientFrontend(t)
	log := &chk.Calls{}
	a, b := &loggingPlugin{name: "a", log: log}, &loggingPlugin{name: "b", log: log}
	c, err := NewLazyClient(internal.ClientOptions{HostPort: f.addr, Identity: "me", Plugins: []internal.ClientPlugin{a, b}})
	chk.NoErr(t, err)
	defer c.Close()
	chk.Equal(t, []string{
		"a ConfigureClient", "b ConfigureClient",
		"a NewClient identity=me+a+b lazy=true existing=false",
		"b NewClient identity=me+a+b lazy=true existing=false",
		"b NewClient done err=<nil>", "a NewClient done err=<nil>",
	}, log.Take())
	chk.Equal(t, "me+a+b", c.(*workflowClient).identity)

	// A client made from it runs its own plugins, told the client it
	// comes from.
	derived, err := NewClientFromExisting(context.Background(), c, internal.ClientOptions{Identity: "other", Plugins: []internal.ClientPlugin{b}})
	chk.NoErr(t, err)
	defer derived.Close()
	chk.Equal(t, []string{
		"b ConfigureClient",
		"b NewClient identity=other+b lazy=false existing=true",
		"b NewClient done err=<nil>",
	}, log.Take())
	chk.Equal(t, "other+b", derived.(*workflowClient).identity)
}

func TestClientPluginFailures(t *testing.T) {
	f := startFakeClientFrontend(t)
	log := &chk.Calls{}
	boom := errors.New("boom")

	_, err := NewLazyClient(internal.ClientOptions{HostPort: f.addr, Plugins: []internal.ClientPlugin{&loggingPlugin{name: "bad", log: log, configureErr: boom}}})
	chk.ErrIs(t, err, boom)
	chk.ErrContains(t, err, `client plugin "bad" failed to configure the client`)

	_, err = NewLazyClient(internal.ClientOptions{HostPort: f.addr, Plugins: []internal.ClientPlugin{&loggingPlugin{name: "lazybones", log: log, skipNext: true}}})
	chk.ErrContains(t, err, `NewClient hook of the client plugins ["lazybones"] returned without calling next`)

	_, err = NewLazyClient(internal.ClientOptions{HostPort: f.addr, Plugins: []internal.ClientPlugin{&loggingPlugin{name: "late", log: log, errAfterNext: boom}}})
	chk.ErrIs(t, err, boom)

	_, err = NewLazyClient(internal.ClientOptions{HostPort: f.addr, Plugins: []internal.ClientPlugin{&loggingPlugin{name: "a", log: log}, nil}})
	chk.ErrContains(t, err, "client.Options.Plugins[1] is nil")

	// The existing client is checked whatever the plugins do.
	_, err = NewClientFromExisting(context.Background(), nil, internal.ClientOptions{Plugins: []internal.ClientPlugin{&loggingPlugin{name: "a", log: log}}})
	chk.ErrContains(t, err, "the existing client must come from")
}

func TestTheWorkerPluginsOfAClientAreItsPluginsThatAreWorkerPlugins(t *testing.T) {
	f := startFakeClientFrontend(t)
	log := &chk.Calls{}
	both, other := &loggingPlugin{name: "both", log: log}, &loggingPlugin{name: "other", log: log}
	c := f.client(t, internal.ClientOptions{Plugins: []internal.ClientPlugin{both, &clientOnlyPlugin{log: log}, other}})
	chk.Equal(t, []internal.WorkerPlugin{both, other}, c.WorkerSettings().Plugins, "in order, the client-only one left out")
}
