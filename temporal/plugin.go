package temporal

import "github.com/durable-go/sdk/internal"

type (
	// SimplePlugin is both a client.Plugin and a worker.Plugin, made from
	// SimplePluginOptions by NewSimplePlugin: the easy way for a library
	// to hand its users converters, interceptors, context propagators,
	// registrations and code that runs around workers and replays.
	SimplePlugin = internal.SimplePlugin

	// SimplePluginOptions configure a SimplePlugin. The data and failure
	// converters replace those of clients and replayers; propagators and
	// interceptors are added after theirs; the Configure functions run
	// after that; RunContextBefore and RunContextAfter run as a worker
	// starts and stops, and before and after each replay.
	SimplePluginOptions = internal.SimplePluginOptions

	// SimplePluginRunContextBeforeOptions are the arguments of
	// SimplePluginOptions.RunContextBefore: the worker's or replayer's
	// instance key, which of the two it is, and where to register.
	SimplePluginRunContextBeforeOptions = internal.SimplePluginRunContextBeforeOptions

	// SimplePluginRunContextAfterOptions are the arguments of
	// SimplePluginOptions.RunContextAfter.
	SimplePluginRunContextAfterOptions = internal.SimplePluginRunContextAfterOptions
)

// NewSimplePlugin returns a plugin that applies options; options.Name is
// required.
func NewSimplePlugin(options SimplePluginOptions) (*SimplePlugin, error) {
	return internal.NewSimplePlugin(options)
}
