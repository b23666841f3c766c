package internal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
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
	// a worker's would.
	Interceptors []WorkerInterceptor
}

// ReplayWorkflowHistoryOptions configure one replay.
type ReplayWorkflowHistoryOptions struct {
	// OriginalExecution is the ID of the recorded run, for workflow code
	// that reads it.
	OriginalExecution WorkflowExecution
}

// WorkflowReplayer replays recorded histories against the registered
// workflow code, to prove that changed code still produces the commands
// history recorded (worker.WorkflowReplayer).
type WorkflowReplayer struct {
	registry *registry.Registry
	options  WorkflowReplayerOptions
}

// NewWorkflowReplayer returns a replayer with the given options.
func NewWorkflowReplayer(options WorkflowReplayerOptions) (*WorkflowReplayer, error) {
	return &WorkflowReplayer{registry: registry.New(), options: options}, nil
}

// RegisterWorkflow registers a workflow function to replay.
func (r *WorkflowReplayer) RegisterWorkflow(fn any) {
	r.RegisterWorkflowWithOptions(fn, RegisterWorkflowOptions{})
}

// RegisterWorkflowWithOptions registers a workflow function to replay.
func (r *WorkflowReplayer) RegisterWorkflowWithOptions(fn any, options RegisterWorkflowOptions) {
	if err := r.registry.RegisterWorkflow(fn, options.Name, options.DisableAlreadyRegisteredCheck); err != nil {
		panic(err)
	}
}

// ReplayWorkflowHistory replays one history. It returns nil when the code
// produces exactly the commands history recorded, else an error saying
// where they differ.
func (r *WorkflowReplayer) ReplayWorkflowHistory(logger log.Logger, history *historypb.History) error {
	return r.ReplayWorkflowHistoryWithOptions(logger, history, ReplayWorkflowHistoryOptions{})
}

// ReplayWorkflowHistoryWithOptions is ReplayWorkflowHistory with options.
func (r *WorkflowReplayer) ReplayWorkflowHistoryWithOptions(logger log.Logger, history *historypb.History, options ReplayWorkflowHistoryOptions) error {
	return r.replay(context.Background(), logger, history.GetEvents(), nil, nil, options.OriginalExecution)
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
	return r.ReplayPartialWorkflowHistoryFromJSONFile(logger, path, 0)
}

// ReplayPartialWorkflowHistoryFromJSONFile replays a JSON file's history
// up to lastEventID (all of it when 0).
func (r *WorkflowReplayer) ReplayPartialWorkflowHistoryFromJSONFile(logger log.Logger, path string, lastEventID int64) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	h, err := HistoryFromJSON(f, HistoryJSONOptions{LastEventID: lastEventID})
	if err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	if err := r.ReplayWorkflowHistory(logger, h); err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	return nil
}

// ReplayWorkflowExecution fetches a run's history from the server, page by
// page, and replays it.
func (r *WorkflowReplayer) ReplayWorkflowExecution(ctx context.Context, service workflowservice.WorkflowServiceClient, logger log.Logger, namespace string, execution WorkflowExecution) error {
	fetch := rpc.HistoryPages(service, namespace, &commonpb.WorkflowExecution{WorkflowId: execution.ID, RunId: execution.RunID})
	first, next, err := fetch(ctx, nil)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return r.replay(ctx, logger, first.GetEvents(), next, fetch, execution)
}

func (r *WorkflowReplayer) replay(ctx context.Context, logger log.Logger, events []*historypb.HistoryEvent, token []byte, fetch engine.PageFetcher, original WorkflowExecution) error {
	if len(events) == 0 || events[0].GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED {
		return errors.New("replay: the history must begin with its WorkflowExecutionStarted event")
	}
	if logger == nil {
		logger = logging.NewDefaultLogger()
	}
	var deadlock time.Duration // zero: the dispatcher's default
	if r.options.DisableDeadlockDetection {
		deadlock = -1
	}
	env := newWorkflowEnv(r.registry, workflowEnvOptions{
		DataConverter:    r.options.DataConverter,
		FailureConverter: r.options.FailureConverter,
		Logger:           logger,
		Namespace:        replayNamespace,
		DeadlockTimeout:  deadlock,
		LogDuringReplay:  r.options.EnableLoggingInReplay,
		Interceptors:     r.options.Interceptors,
		Propagators:      r.options.ContextPropagators,
	})
	x := engine.NewExecution(env.engineOptions())
	defer x.Close()
	if original.ID == "" {
		original.ID = "ReplayId"
	}
	if original.RunID == "" {
		original.RunID = events[0].GetWorkflowExecutionStartedEventAttributes().GetOriginalExecutionRunId()
	}
	x.SetRun(original.ID, original.RunID)
	if _, err := x.ProcessTask(engine.Task{Events: engine.NewEventSource(ctx, events, token, fetch)}); err != nil {
		return err
	}
	return nil
}

// HistoryJSONOptions configure HistoryFromJSON.
type HistoryJSONOptions struct {
	// LastEventID, when not 0, drops the events after it.
	LastEventID int64
}

// HistoryFromJSON reads a history in the JSON that `temporal workflow show
// --output json` writes (either enum spelling is accepted).
func HistoryFromJSON(r io.Reader, options HistoryJSONOptions) (*historypb.History, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var h historypb.History
	if err := (temporalproto.CustomJSONUnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("reading history JSON: %w", err)
	}
	if options.LastEventID > 0 {
		for i, ev := range h.Events {
			if ev.GetEventId() > options.LastEventID {
				h.Events = h.Events[:i]
				break
			}
		}
	}
	return &h, nil
}
