package client

import "github.com/durable-go/sdk/internal"

// Plugin configures clients and wraps their creation; set it in
// Options.Plugins. A library offers one so that its users add a single
// value instead of interceptors, converters and the like. Plugins embed
// PluginBase; temporal.NewSimplePlugin makes one from options.
//
//   - Name identifies the plugin in errors.
//   - ConfigureClient(ctx, options) may change the options of a client
//     being made, before they are checked and defaults filled in; it runs
//     for each plugin in order.
//   - NewClient(ctx, options, next) wraps the creation (and, unless lazy,
//     the connection check) of a client whose options are final; each
//     plugin's wraps those after it. It must call next or return an
//     error.
//
// A Plugin that is also a worker.Plugin applies to every worker made from
// the client, before the worker's own plugins.
type Plugin = internal.ClientPlugin

// PluginBase is embedded by client plugins: the hooks a plugin does not
// define change nothing (its ConfigureClient and NewClient pass on).
type PluginBase = internal.ClientPluginBase

// PluginConfigureClientOptions are what Plugin.ConfigureClient is given:
// ClientOptions, the options of the client being made, to change in place
// (leave their Plugins as they are).
type PluginConfigureClientOptions = internal.ClientPluginConfigureClientOptions

// PluginNewClientOptions are what Plugin.NewClient is given.
//
//   - ClientOptions: the final options of the client being made (change
//     options in ConfigureClient, not here).
//   - Lazy: true for NewLazyClient, which does not contact the server.
//   - FromExisting: the client whose connection the new one shares
//     (NewClientFromExisting), or nil.
type PluginNewClientOptions = internal.ClientPluginNewClientOptions
