package internal

import (
	"context"
	"fmt"
	"slices"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/uuid"
	"github.com/durable-go/sdk/log"
)

// replayerPlugins is a replayer's plugin state: its plugins and the
// callbacks they set on registrations.
type replayerPlugins struct {
	list          []WorkerPlugin
	instanceKey   string
	registryHooks WorkerPluginConfigureWorkflowReplayerRegistryOptions
}

// configureThroughPlugins runs each plugin's ConfigureWorkflowReplayer on
// the replayer's options, in order.
func (r *WorkflowReplayer) configureThroughPlugins() error {
	if err := CheckPlugins("worker.WorkflowReplayerOptions.Plugins", r.options.Plugins); err != nil {
		return err
	}
	p := &r.plugins
	p.list = slices.Clone(r.options.Plugins)
	p.instanceKey = uuid.New()
	for _, plugin := range p.list {
		err := plugin.ConfigureWorkflowReplayer(context.Background(), WorkerPluginConfigureWorkflowReplayerOptions{
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
func (r *WorkflowReplayer) replay(ctx context.Context, logger log.Logger, src replaySource, wantResult bool) (*WorkflowReplayResult, error) {
	if len(r.plugins.list) == 0 {
		return r.replayHistory(ctx, logger, src, wantResult)
	}
	if logger == nil {
		logger = logging.NewDefaultLogger()
	}
	events := src.events
	for token := src.token; len(token) > 0; {
		page, next, err := src.fetch(ctx, token)
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		events, token = append(events, page.GetEvents()...), next
	}
	namespace := src.namespace
	if namespace == "" {
		namespace = replayNamespace
	}

	var result *WorkflowReplayResult
	replayed := false
	root := func(ctx context.Context, o WorkerPluginReplayWorkflowOptions) error {
		replayed = true
		var err error
		result, err = r.replayHistory(ctx, o.Logger, replaySource{events: o.History.GetEvents(), original: o.OriginalExecution}, wantResult)
		return err
	}
	hooked := ChainPluginHooks(r.plugins.list, root, func(p WorkerPlugin, ctx context.Context, o WorkerPluginReplayWorkflowOptions, next func(context.Context, WorkerPluginReplayWorkflowOptions) error) error {
		return p.ReplayWorkflow(ctx, o, next)
	})
	err := hooked(ctx, WorkerPluginReplayWorkflowOptions{
		WorkflowReplayerInstanceKey: r.plugins.instanceKey,
		WorkflowReplayRegistry:      r,
		History:                     &historypb.History{Events: events},
		Logger:                      logger,
		WorkflowServiceClient:       src.service,
		Namespace:                   namespace,
		OriginalExecution:           src.original,
	})
	switch {
	case err != nil:
		return nil, err
	case !replayed:
		return nil, fmt.Errorf("replay: nothing was replayed: a ReplayWorkflow hook of the worker plugins %q returned without calling next; it must call next or return an error", PluginNames(r.plugins.list))
	}
	return result, nil
}
