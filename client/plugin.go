package client

import "github.com/durable-go/sdk/internal"

type (
	// Plugin configures clients and wraps their creation; set it in
	// Options.Plugins. A library offers one so that its users add a single
	// value instead of interceptors, converters and the like. Plugins
	// embed PluginBase; temporal.NewSimplePlugin makes one from options.
	//
	// ConfigureClient runs for each plugin in order, on the options before
	// defaults are filled in; then each plugin's NewClient wraps those of
	// the plugins after it and the client's creation. A Plugin that is
	// also a worker.Plugin applies to every worker made from the client,
	// before the worker's own plugins.
	Plugin = internal.ClientPlugin

	// PluginBase is embedded by client plugins: hooks a plugin does not
	// define change nothing.
	PluginBase = internal.ClientPluginBase

	// PluginConfigureClientOptions are the arguments of
	// Plugin.ConfigureClient: the options to change.
	PluginConfigureClientOptions = internal.ClientPluginConfigureClientOptions

	// PluginNewClientOptions are the arguments of Plugin.NewClient: the
	// final options, whether the client is lazy, and the client whose
	// connection it shares, if any.
	PluginNewClientOptions = internal.ClientPluginNewClientOptions
)
