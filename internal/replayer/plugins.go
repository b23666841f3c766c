package replayer

import (
	"context"
	"fmt"
	"slices"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/history"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/uuid"
	"github.com/durable-go/sdk/log"
)

// plugins is a replayer's plugin state: its plugins and the callbacks
// they set on registrations.
type plugins struct {
	list          []internal.WorkerPlugin
	instanceKey   string
	registryHooks internal.WorkerPluginConfigureWorkflowReplayerRegistryOptions
}

// configureThroughPlugins runs each plugin's ConfigureWorkflowReplayer on
// the replayer's options, in order.
func (r *WorkflowReplayer) configureThroughPlugins() error {
	if err := internal.CheckPlugins("worker.WorkflowReplayerOptions.Plugins", r.options.Plugins); err != nil {
		return err
	}
	p := &r.plugins
	p.list = slices.Clone(r.options.Plugins)
	p.instanceKey = uuid.New()
	for _, plugin := range p.list {
		err := plugin.ConfigureWorkflowReplayer(context.Background(), internal.WorkerPluginConfigureWorkflowReplayerOptions{
			WorkflowReplayerInstanceKey:     p.instanceKey,
			WorkflowReplayerOptions:         &r.options,
			WorkflowReplayerRegistryOptions: &p.registryHooks,
		})
		if err != nil {
			return fmt.Errorf("worker plugin %q failed to configure the workflow replayer: %w", plugin.Name(), err)
		}
	}
	return nil
}

// replay replays one history, within the plugins' ReplayWorkflow hooks.
// Plugins see the whole history, so a history read from the server is
// read to its end first.
func (r *WorkflowReplayer) replay(ctx context.Context, logger log.Logger, src history.Source, wantResult bool) (*internal.WorkflowReplayResult, error) {
	if len(r.plugins.list) == 0 {
		return r.replayHistory(ctx, logger, src, wantResult)
	}
	if logger == nil {
		logger = logging.NewDefaultLogger()
	}
	events, err := src.AllEvents(ctx)
	if err != nil {
		return nil, err
	}
	namespace := src.Namespace
	if namespace == "" {
		namespace = history.ReplayNamespace
	}

	var result *internal.WorkflowReplayResult
	replayed := false
	root := func(ctx context.Context, o internal.WorkerPluginReplayWorkflowOptions) error {
		replayed = true
		var err error
		result, err = r.replayHistory(ctx, o.Logger, history.Source{Events: o.History.GetEvents(), Original: o.OriginalExecution}, wantResult)
		return err
	}
	hooked := internal.ChainPluginHooks(r.plugins.list, root, func(p internal.WorkerPlugin, ctx context.Context, o internal.WorkerPluginReplayWorkflowOptions, next func(context.Context, internal.WorkerPluginReplayWorkflowOptions) error) error {
		return p.ReplayWorkflow(ctx, o, next)
	})
	err = hooked(ctx, internal.WorkerPluginReplayWorkflowOptions{
		WorkflowReplayerInstanceKey: r.plugins.instanceKey,
		WorkflowReplayRegistry:      r,
		History:                     &historypb.History{Events: events},
		Logger:                      logger,
		WorkflowServiceClient:       src.Service,
		Namespace:                   namespace,
		OriginalExecution:           src.Original,
	})
	switch {
	case err != nil:
		return nil, err
	case !replayed:
		return nil, fmt.Errorf("replay: nothing was replayed: a ReplayWorkflow hook of the worker plugins %q returned without calling next; it must call next or return an error", internal.PluginNames(r.plugins.list))
	}
	return result, nil
}
