// Package replayer is the workflow replayer that worker.NewWorkflowReplayer
// returns: its registry, its plugins, and where it reads histories (a
// History, a JSON file, a server). The replay itself, the engine's run of
// the workflow code against a history, is the root's
// (internal.ReplayHistory): the replayed runs are its workflow runs. The
// replayer needs nothing else of package internal, whose exported names
// it is built on; only package worker imports it.
package replayer

import (
	"context"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/extstore"
	"github.com/durable-go/sdk/internal/history"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/log"
)

// WorkflowReplayer replays recorded histories against the registered
// workflow code, to prove that changed code still produces the commands
// history recorded (worker.WorkflowReplayer). Each replay runs on its own
// state: it neither reads nor changes the sticky cache of the process's
// workers, so a replayer can run beside them.
type WorkflowReplayer struct {
	registry *registry.Registry
	options  internal.WorkflowReplayerOptions
	plugins  plugins // see plugins.go
	storage  *extstore.Storage
}

// New returns a replayer with the given options, as its plugins configure
// them.
func New(options internal.WorkflowReplayerOptions) (*WorkflowReplayer, error) {
	r := &WorkflowReplayer{registry: registry.New(), options: options}
	if err := r.configureThroughPlugins(); err != nil {
		return nil, err
	}
	if r.options.DisableRegistrationAliasing { // as the plugins left it
		r.registry.DisableAliasing()
	}
	storage, err := extstore.New(r.options.ExternalStorage)
	if err != nil {
		return nil, fmt.Errorf("invalid WorkflowReplayerOptions: %w", err)
	}
	r.storage = storage
	return r, nil
}

// RegisterWorkflow registers a workflow function to replay.
func (r *WorkflowReplayer) RegisterWorkflow(fn any) {
	r.RegisterWorkflowWithOptions(fn, internal.RegisterWorkflowOptions{})
}

// RegisterWorkflowWithOptions registers a workflow function to replay.
func (r *WorkflowReplayer) RegisterWorkflowWithOptions(fn any, options internal.RegisterWorkflowOptions) {
	if on := r.plugins.registryHooks.OnRegisterWorkflow; on != nil {
		on(fn, options)
	}
	if err := r.registry.RegisterWorkflow(fn, options.Name, options.DisableAlreadyRegisteredCheck); err != nil {
		panic(err)
	}
}

// RegisterDynamicWorkflow registers the workflow that replays every
// workflow type not registered by name (see
// AggregatedWorker.RegisterDynamicWorkflow).
func (r *WorkflowReplayer) RegisterDynamicWorkflow(fn any, options internal.DynamicRegisterWorkflowOptions) {
	if on := r.plugins.registryHooks.OnRegisterDynamicWorkflow; on != nil {
		on(fn, options)
	}
	if err := r.registry.RegisterDynamicWorkflow(fn); err != nil {
		panic(err)
	}
}

// ReplayWorkflowHistory replays one history. It returns nil when the code
// produces exactly the commands history recorded, else an error saying
// where they differ (a *NonDeterminismError when they do).
func (r *WorkflowReplayer) ReplayWorkflowHistory(logger log.Logger, h *historypb.History) error {
	return r.ReplayWorkflowHistoryWithOptions(logger, h, internal.ReplayWorkflowHistoryOptions{})
}

// ReplayWorkflowHistoryWithOptions is ReplayWorkflowHistory with options.
func (r *WorkflowReplayer) ReplayWorkflowHistoryWithOptions(logger log.Logger, h *historypb.History, options internal.ReplayWorkflowHistoryOptions) error {
	_, err := r.replay(context.Background(), logger, historyReplay(h, options), false)
	return err
}

// ReplayWorkflowHistoryWithResult replays one history as
// ReplayWorkflowHistoryWithOptions does and, when it replays, also
// returns what the workflow code did: its result or error if it returned,
// else where it is blocked and the commands it produced for a task history
// does not record as completed.
func (r *WorkflowReplayer) ReplayWorkflowHistoryWithResult(logger log.Logger, h *historypb.History, options internal.ReplayWorkflowHistoryOptions) (*internal.WorkflowReplayResult, error) {
	return r.replay(context.Background(), logger, historyReplay(h, options), true)
}

// ReplayWorkflowHistories replays many histories and returns one error per
// history, in order (nil for each that replays): a CI job sees every
// broken history in one run.
func (r *WorkflowReplayer) ReplayWorkflowHistories(logger log.Logger, histories ...*historypb.History) []error {
	errs := make([]error, len(histories))
	for i, h := range histories {
		errs[i] = r.ReplayWorkflowHistory(logger, h)
	}
	return errs
}

// ReplayWorkflowHistoryFromJSONFile replays the history in a JSON file, as
// written by `temporal workflow show --output json`.
func (r *WorkflowReplayer) ReplayWorkflowHistoryFromJSONFile(logger log.Logger, path string) error {
	return r.ReplayWorkflowHistoryFromJSONFileWithOptions(logger, path, internal.ReplayWorkflowHistoryOptions{})
}

// ReplayPartialWorkflowHistoryFromJSONFile replays a JSON file's history
// up to lastEventID (all of it when 0).
func (r *WorkflowReplayer) ReplayPartialWorkflowHistoryFromJSONFile(logger log.Logger, path string, lastEventID int64) error {
	return r.ReplayWorkflowHistoryFromJSONFileWithOptions(logger, path, internal.ReplayWorkflowHistoryOptions{LastEventID: lastEventID})
}

// ReplayWorkflowHistoryFromJSONFileWithOptions replays the history in a
// JSON file with options.
func (r *WorkflowReplayer) ReplayWorkflowHistoryFromJSONFileWithOptions(logger log.Logger, path string, options internal.ReplayWorkflowHistoryOptions) error {
	h, err := history.ReadFile(path)
	if err != nil {
		return err
	}
	if err := r.ReplayWorkflowHistoryWithOptions(logger, h, options); err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	return nil
}

// ReplayWorkflowExecution fetches a run's history from the server, page by
// page, and replays it.
func (r *WorkflowReplayer) ReplayWorkflowExecution(ctx context.Context, service workflowservice.WorkflowServiceClient, logger log.Logger, namespace string, execution clientapi.WorkflowExecution) error {
	fetch := rpc.HistoryPages(service, namespace, &commonpb.WorkflowExecution{WorkflowId: execution.ID, RunId: execution.RunID})
	first, next, err := fetch(ctx, nil)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	_, err = r.replay(ctx, logger, history.Source{Events: first.GetEvents(), Token: next, Fetch: fetch, Original: execution,
		Service: service, Namespace: namespace}, false)
	return err
}

// historyReplay is the source of a history held in memory, cut and
// extended as options say.
func historyReplay(h *historypb.History, options internal.ReplayWorkflowHistoryOptions) history.Source {
	return history.InMemory(h, options.LastEventID, options.RunPendingWorkflowTask, options.OriginalExecution)
}

// replayHistory replays src as the replayer's options say.
func (r *WorkflowReplayer) replayHistory(ctx context.Context, logger log.Logger, src history.Source, wantResult bool) (*internal.WorkflowReplayResult, error) {
	src, err := retrieving(ctx, r.storage, src)
	if err != nil {
		return nil, err
	}
	return internal.ReplayHistory(ctx, r.registry, r.options, logger, src, wantResult)
}
