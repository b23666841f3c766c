package internal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/log"
)

// replayNamespace is the namespace workflows see during replay, as in
// go.temporal.io/sdk.
const replayNamespace = "ReplayNamespace"

// WorkflowReplayerOptions configure a replayer (worker.WorkflowReplayerOptions).
type WorkflowReplayerOptions struct {
	// DataConverter and FailureConverter must match the ones the recorded
	// run used; the defaults by default.
	DataConverter    converter.DataConverter
	FailureConverter converter.FailureConverter
	// EnableLoggingInReplay lets workflow loggers talk during replay.
	EnableLoggingInReplay bool
	// DisableDeadlockDetection lets workflow code run without yielding,
	// e.g. under a debugger.
	DisableDeadlockDetection bool
	// ContextPropagators read the headers of the recorded start, signals
	// and queries into workflow contexts, as the worker's did.
	ContextPropagators []ContextPropagator
	// Interceptors wrap the replayed workflows, the first outermost, as
	// a worker's would. A replay that finds a mismatch runs the code a
	// second time, to find the line that made it: interceptors (and
	// breakpoints) see that run too.
	Interceptors []WorkerInterceptor
	// Plugins configure the replayer and wrap each replay, in order (see
	// WorkerPlugin).
	Plugins []WorkerPlugin
	// DisableRegistrationAliasing must match the worker's option of the
	// same name (see WorkerOptions).
	DisableRegistrationAliasing bool
}

// ReplayWorkflowHistoryOptions configure one replay.
type ReplayWorkflowHistoryOptions struct {
	// OriginalExecution is the ID of the recorded run, for workflow code
	// that reads it; "ReplayId" and the start event's run ID by default.
	OriginalExecution clientapi.WorkflowExecution
	// LastEventID, when not 0, replays history only up to and including
	// this event, to look at a run as it was at that point. Cut at the end
	// of a workflow task (its last command's event): a cut between a
	// WorkflowTaskCompleted and the events of its commands reads as
	// commands that history lacks.
	LastEventID int64
	// RunPendingWorkflowTask runs the workflow code for the workflow task
	// that history scheduled last but does not record as completed (it is
	// still to run, or its attempts failed or timed out: a stuck run), as
	// a worker would run it now. Without it, replay stops at the last
	// completed task, unless history ends with the pending task's
	// WorkflowTaskStarted. WorkflowReplayResult says what the code did:
	// the commands it would send, or where it is blocked.
	RunPendingWorkflowTask bool
}

// WorkflowReplayer replays recorded histories against the registered
// workflow code, to prove that changed code still produces the commands
// history recorded (worker.WorkflowReplayer). Each replay runs on its own
// state: it neither reads nor changes the sticky cache of the process's
// workers, so a replayer can run beside them.
type WorkflowReplayer struct {
	registry *registry.Registry
	options  WorkflowReplayerOptions
	plugins  replayerPlugins // see replayer_plugin.go
}

// NewWorkflowReplayer returns a replayer with the given options, as its
// plugins configure them.
func NewWorkflowReplayer(options WorkflowReplayerOptions) (*WorkflowReplayer, error) {
	r := &WorkflowReplayer{registry: registry.New(), options: options}
	if err := r.configureThroughPlugins(); err != nil {
		return nil, err
	}
	if r.options.DisableRegistrationAliasing { // as the plugins left it
		r.registry.DisableAliasing()
	}
	return r, nil
}

// RegisterWorkflow registers a workflow function to replay.
func (r *WorkflowReplayer) RegisterWorkflow(fn any) {
	r.RegisterWorkflowWithOptions(fn, RegisterWorkflowOptions{})
}

// RegisterWorkflowWithOptions registers a workflow function to replay.
func (r *WorkflowReplayer) RegisterWorkflowWithOptions(fn any, options RegisterWorkflowOptions) {
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
func (r *WorkflowReplayer) RegisterDynamicWorkflow(fn any, options DynamicRegisterWorkflowOptions) {
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
func (r *WorkflowReplayer) ReplayWorkflowHistory(logger log.Logger, history *historypb.History) error {
	return r.ReplayWorkflowHistoryWithOptions(logger, history, ReplayWorkflowHistoryOptions{})
}

// ReplayWorkflowHistoryWithOptions is ReplayWorkflowHistory with options.
func (r *WorkflowReplayer) ReplayWorkflowHistoryWithOptions(logger log.Logger, history *historypb.History, options ReplayWorkflowHistoryOptions) error {
	_, err := r.replay(context.Background(), logger, historyReplay(history, options), false)
	return err
}

// ReplayWorkflowHistoryWithResult replays one history as
// ReplayWorkflowHistoryWithOptions does and, when it replays, also
// returns what the workflow code did: its result or error if it returned,
// else where it is blocked and the commands it produced for a task history
// does not record as completed.
func (r *WorkflowReplayer) ReplayWorkflowHistoryWithResult(logger log.Logger, history *historypb.History, options ReplayWorkflowHistoryOptions) (*WorkflowReplayResult, error) {
	return r.replay(context.Background(), logger, historyReplay(history, options), true)
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
	return r.ReplayWorkflowHistoryFromJSONFileWithOptions(logger, path, ReplayWorkflowHistoryOptions{})
}

// ReplayPartialWorkflowHistoryFromJSONFile replays a JSON file's history
// up to lastEventID (all of it when 0).
func (r *WorkflowReplayer) ReplayPartialWorkflowHistoryFromJSONFile(logger log.Logger, path string, lastEventID int64) error {
	return r.ReplayWorkflowHistoryFromJSONFileWithOptions(logger, path, ReplayWorkflowHistoryOptions{LastEventID: lastEventID})
}

// ReplayWorkflowHistoryFromJSONFileWithOptions replays the history in a
// JSON file with options.
func (r *WorkflowReplayer) ReplayWorkflowHistoryFromJSONFileWithOptions(logger log.Logger, path string, options ReplayWorkflowHistoryOptions) error {
	h, err := readHistoryFile(path)
	if err != nil {
		return err
	}
	if err := r.ReplayWorkflowHistoryWithOptions(logger, h, options); err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	return nil
}

// readHistoryFile reads a history file written by `temporal workflow show
// --output json`.
func readHistoryFile(path string) (*historypb.History, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	h, err := HistoryFromJSON(f, 0)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	return h, nil
}

// ReplayWorkflowExecution fetches a run's history from the server, page by
// page, and replays it.
func (r *WorkflowReplayer) ReplayWorkflowExecution(ctx context.Context, service workflowservice.WorkflowServiceClient, logger log.Logger, namespace string, execution clientapi.WorkflowExecution) error {
	fetch := rpc.HistoryPages(service, namespace, &commonpb.WorkflowExecution{WorkflowId: execution.ID, RunId: execution.RunID})
	first, next, err := fetch(ctx, nil)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	_, err = r.replay(ctx, logger, replaySource{events: first.GetEvents(), token: next, fetch: fetch, original: execution,
		service: service, namespace: namespace}, false)
	return err
}

// replaySource is the history one replay reads: events, and further pages
// when token is set.
type replaySource struct {
	events   []*historypb.HistoryEvent
	token    []byte
	fetch    engine.PageFetcher
	original clientapi.WorkflowExecution
	// service and namespace are where ReplayWorkflowExecution read the
	// history, for plugins.
	service   workflowservice.WorkflowServiceClient
	namespace string
}

// identity is the workflow type and the run's IDs that the replay uses:
// the recorded run's when given, else "ReplayId" and the start event's run
// ID, as in go.temporal.io/sdk.
func (src replaySource) identity() (workflowType string, run clientapi.WorkflowExecution) {
	var started *historypb.WorkflowExecutionStartedEventAttributes
	if len(src.events) > 0 {
		started = src.events[0].GetWorkflowExecutionStartedEventAttributes()
	}
	run = src.original
	if run.ID == "" {
		run.ID = "ReplayId"
	}
	if run.RunID == "" {
		run.RunID = started.GetOriginalExecutionRunId()
	}
	return started.GetWorkflowType().GetName(), run
}

// historyReplay is the source of a history held in memory, cut and
// extended as options say.
func historyReplay(h *historypb.History, options ReplayWorkflowHistoryOptions) replaySource {
	events := h.GetEvents()
	if options.LastEventID > 0 {
		for i, ev := range events {
			if ev.GetEventId() > options.LastEventID {
				events = events[:i]
				break
			}
		}
	}
	if options.RunPendingWorkflowTask {
		events = withPendingTaskStarted(events)
	}
	return replaySource{events: events, original: options.OriginalExecution}
}

// replayHistory replays src as the replayer's options say.
func (r *WorkflowReplayer) replayHistory(ctx context.Context, logger log.Logger, src replaySource, wantResult bool) (*WorkflowReplayResult, error) {
	return replayHistory(ctx, r.registry, r.runOptions(logger), src, wantResult)
}

// runOptions are what the runs of the replayer's replays see: its
// options, logger (the default one when nil), and the namespace
// go.temporal.io/sdk gives replays.
func (r *WorkflowReplayer) runOptions(logger log.Logger) runConfigOptions {
	if logger == nil {
		logger = logging.NewDefaultLogger()
	}
	var deadlock time.Duration // zero: the dispatcher's default
	if r.options.DisableDeadlockDetection {
		deadlock = -1
	}
	return runConfigOptions{
		DataConverter:    r.options.DataConverter,
		FailureConverter: r.options.FailureConverter,
		// A logger that panics fails no replay, as it fails no task of a
		// worker.
		Logger:          logging.NewPanicSafeLogger(logger),
		Namespace:       replayNamespace,
		DeadlockTimeout: deadlock,
		LogDuringReplay: r.options.EnableLoggingInReplay,
		Interceptors:    r.options.Interceptors,
		Propagators:     r.options.ContextPropagators,
		Replayer:        true,
	}
}

// replayHistory replays src with reg's functions, its runs seeing env (a
// replayer's, or the test environment's, whose replay check replays as
// its worker ran), and, on a mismatch, explains it with a
// *NonDeterminismError. The result is built only when wanted.
func replayHistory(ctx context.Context, reg *registry.Registry, env runConfigOptions, src replaySource, wantResult bool) (*WorkflowReplayResult, error) {
	res, err := replayOnce(ctx, reg, env, src, wantResult, nil)
	if err == nil {
		return res, nil
	}
	workflowType, run := src.identity()
	nd := newNonDeterminismError(err, workflowType, run)
	if nd == nil {
		return nil, err
	}
	if nd.CodeLocation == "" {
		// Replay is deterministic: run it again, this time walking the
		// stack at each command, to find the code behind the mismatch.
		// Only failing replays pay for it.
		quiet := env
		quiet.Logger = logging.NewTextLogger(io.Discard, slog.LevelError)
		if _, again := replayOnce(ctx, reg, quiet, src, false, workflowCodeLocation); again != nil {
			if located := newNonDeterminismError(again, workflowType, run); located != nil && located.Reason == nd.Reason {
				nd.CodeLocation = located.CodeLocation
			}
		}
	}
	return nil, nd
}

// replayOnce runs src through a new engine.Run. locate, when set, makes the
// engine record where the workflow code made each command.
func replayOnce(ctx context.Context, reg *registry.Registry, env runConfigOptions, src replaySource, wantResult bool, locate func() string) (*WorkflowReplayResult, error) {
	events := src.events
	if len(events) == 0 || events[0].GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED {
		return nil, errors.New("replay: the history must begin with its WorkflowExecutionStarted event")
	}
	config := newRunConfig(reg, env)
	opts := config.engineOptions()
	opts.LocateCode = locate
	var runs *runRecorder // the code the replay runs, for its result
	if wantResult {
		runs = &runRecorder{config: config}
		opts.NewWorkflow = runs.newWorkflow
	}
	x := engine.NewRun(opts)
	defer x.Close()
	_, run := src.identity()
	x.SetRun(run.ID, run.RunID)
	task, err := x.ProcessTask(engine.Task{Events: engine.NewEventSource(ctx, events, src.token, src.fetch)})
	if err != nil || !wantResult {
		return nil, err
	}
	return newReplayResult(x, task, runs.run, config.dc), nil
}

// runRecorder is a workflow factory that keeps the run it makes.
type runRecorder struct {
	config *runConfig
	run    *workflowRun
}

func (r *runRecorder) newWorkflow(workflowType string) (engine.Workflow, error) {
	wf, err := r.config.newWorkflow(workflowType)
	r.run, _ = wf.(*workflowRun)
	return wf, err
}

// HistoryFromJSON reads a history in the JSON that `temporal workflow show
// --output json` writes (either enum spelling is accepted); a lastEventID
// other than 0 drops the events after it (client.HistoryJSONOptions).
func HistoryFromJSON(r io.Reader, lastEventID int64) (*historypb.History, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var h historypb.History
	if err := (temporalproto.CustomJSONUnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("reading history JSON: %w", err)
	}
	if lastEventID > 0 {
		for i, ev := range h.Events {
			if ev.GetEventId() > lastEventID {
				h.Events = h.Events[:i]
				break
			}
		}
	}
	return &h, nil
}
