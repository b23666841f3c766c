package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
)

// clientCreation says which constructor creates a client.
type clientCreation int

const (
	clientDial         clientCreation = iota // DialClient
	clientLazy                               // NewLazyClient
	clientFromExisting                       // NewClientFromExisting
)

// newClientThroughPlugins creates a client as DialClient, NewLazyClient or
// NewClientFromExisting (with existing) do, with the options' plugins
// around it: each plugin's ConfigureClient in order, then their NewClient
// hooks nested around the creation itself.
func newClientThroughPlugins(ctx context.Context, options internal.ClientOptions, how clientCreation, existing clientapi.Client) (clientapi.Client, error) {
	plugins := slices.Clone(options.Plugins)
	if err := internal.CheckPlugins("client.Options.Plugins", plugins); err != nil {
		return nil, err
	}
	for _, p := range plugins {
		if err := p.ConfigureClient(ctx, internal.ClientPluginConfigureClientOptions{ClientOptions: &options}); err != nil {
			return nil, fmt.Errorf("client plugin %q failed to configure the client: %w", p.Name(), err)
		}
	}

	var built *workflowClient
	create := func(ctx context.Context, o internal.ClientPluginNewClientOptions) error {
		if built != nil {
			return errors.New("a client plugin called next of NewClient twice; it must call it once")
		}
		var c *workflowClient
		var err error
		switch how {
		case clientFromExisting:
			c, err = newClientFromExisting(ctx, o.FromExisting, o.ClientOptions)
		case clientLazy:
			c, err = newWorkflowClient(o.ClientOptions, nil)
		default:
			c, err = dialClient(ctx, o.ClientOptions)
		}
		built = c
		return err
	}
	hooked := internal.ChainPluginHooks(plugins, create, func(p internal.ClientPlugin, ctx context.Context, o internal.ClientPluginNewClientOptions, next func(context.Context, internal.ClientPluginNewClientOptions) error) error {
		return p.NewClient(ctx, o, next)
	})
	err := hooked(ctx, internal.ClientPluginNewClientOptions{ClientOptions: options, Lazy: how == clientLazy, FromExisting: existing})
	switch {
	case err != nil:
		if built != nil {
			// A plugin failed after the client was made: nobody will close it.
			built.Close()
		}
		return nil, err
	case built == nil:
		return nil, fmt.Errorf("no client was created: a NewClient hook of the client plugins %q returned without calling next; it must call next or return an error", internal.PluginNames(plugins))
	}
	return built, nil
}

// workerPluginsOf returns the client plugins that are also worker plugins.
func workerPluginsOf(plugins []internal.ClientPlugin) []internal.WorkerPlugin {
	var workerPlugins []internal.WorkerPlugin
	for _, p := range plugins {
		if wp, ok := p.(internal.WorkerPlugin); ok {
			workerPlugins = append(workerPlugins, wp)
		}
	}
	return workerPlugins
}
