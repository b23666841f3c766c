package internal

import (
	"os"
	"time"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// RunOptions are what a driver of the engine (a worker, a replayer,
// the test environment) chooses for the workflow runs it drives. Zero
// values take the defaults of newRunConfig.
type RunOptions struct {
	DataConverter    converter.DataConverter    // the default converter
	FailureConverter converter.FailureConverter // the default, over DataConverter
	Logger           log.Logger                 // the default logger
	Metrics          sdkmetrics.Handler         // none
	Namespace        string
	// DeadlockTimeout is how long workflow code may run without yielding:
	// 0 is the dispatcher's default, negative disables detection (as does
	// the TEMPORAL_DEBUG environment variable, for stepping through
	// workflow code in a debugger).
	DeadlockTimeout time.Duration
	LogDuringReplay bool
	FailOnPanic     bool
	// SDKMetadataFlags: the server records SDK flags, so new runs may use
	// them. Off for replay, where no new flag may appear.
	SDKMetadataFlags bool
	Interceptors     []WorkerInterceptor
	Propagators      []ContextPropagator
	// Replayer: the runs only replay, so local activities need not be
	// registered (they never run), as in go.temporal.io/sdk's replayer.
	Replayer bool
	// Now is the worker's clock (the test environment's runs ahead); it
	// tells the workflow time at which a local activity ended.
	Now func() time.Time
	// BinaryChecksum is the worker's binary checksum, for
	// WorkflowInfo.GetBinaryChecksum of live tasks; "" leaves it to be
	// computed if asked for (the replayer, the test environment).
	BinaryChecksum string
	// BuildID is the worker's build ID, which WorkflowInfo.GetCurrentBuildID
	// reports for live tasks ("" for the replayer and the test
	// environment, as in go.temporal.io/sdk's test environment).
	BuildID string
	// PreferredVersion chooses the version GetVersion records first
	// (WorkerOptions.PreferredVersionProvider); nil: maxSupported.
	PreferredVersion PreferredVersionProvider
}

// newRunConfig is the one way to build what drives the engine: the
// worker, the replayer and the test environment each call it with their
// registry and options.
func newRunConfig(reg *registry.Registry, o RunOptions) *runConfig {
	if o.DataConverter == nil {
		o.DataConverter = converter.GetDefaultDataConverter()
	}
	if o.FailureConverter == nil {
		o.FailureConverter = failure.NewDefaultFailureConverter(failure.DefaultFailureConverterOptions{DataConverter: o.DataConverter})
	}
	if o.Logger == nil {
		o.Logger = logging.NewDefaultLogger()
	}
	if o.Metrics == nil {
		o.Metrics = sdkmetrics.NopHandler
	}
	if os.Getenv("TEMPORAL_DEBUG") != "" {
		o.DeadlockTimeout = -1
	}
	return &runConfig{
		registry:         reg,
		dc:               o.DataConverter,
		fc:               o.FailureConverter,
		logger:           o.Logger,
		runLogNext:       log.Skip(o.Logger, 1),
		metrics:          o.Metrics,
		namespace:        o.Namespace,
		deadlockTimeout:  o.DeadlockTimeout,
		logDuringReplay:  o.LogDuringReplay,
		failOnPanic:      o.FailOnPanic,
		sdkMetadataFlags: o.SDKMetadataFlags,
		interceptors:     o.Interceptors,
		propagators:      o.Propagators,
		replayer:         o.Replayer,
		now:              o.Now,
		binaryChecksum:   o.BinaryChecksum,
		buildID:          o.BuildID,
		preferredVersion: o.PreferredVersion,
	}
}

// runConfig is what every workflow run of one worker (or replayer, or
// test environment) shares: the registered functions and the options they
// run with. Build it with newRunConfig.
type runConfig struct {
	registry         *registry.Registry
	dc               converter.DataConverter
	fc               converter.FailureConverter
	logger           log.Logger
	runLogNext       log.Logger // logger, for runLogger (see there)
	metrics          sdkmetrics.Handler
	namespace        string
	binaryChecksum   string
	buildID          string
	deadlockTimeout  time.Duration // 0: the dispatcher's default; <0: disabled
	logDuringReplay  bool
	failOnPanic      bool
	sdkMetadataFlags bool
	preferredVersion PreferredVersionProvider // nil: GetVersion records maxSupported

	// interceptors wrap every run, the first outermost; propagators carry
	// values through headers (see carriesHeaders).
	interceptors []WorkerInterceptor
	propagators  []ContextPropagator
	replayer     bool
	now          func() time.Time
}

// carriesHeaders reports whether headers matter to the runs: only
// interceptors and propagators read or write them. Without either, runs
// skip the header bookkeeping, which keeps workflow calls free of it.
func (e *runConfig) carriesHeaders() bool {
	return len(e.interceptors) > 0 || len(e.propagators) > 0
}

// engineOptions are the engine options of the worker's runs.
func (e *runConfig) engineOptions() *engine.Options {
	return &engine.Options{
		Namespace:            e.namespace,
		DataConverter:        e.dc,
		FailureConverter:     e.fc,
		Logger:               e.logger,
		FailWorkflowOnPanic:  e.failOnPanic,
		SDKMetadataSupported: e.sdkMetadataFlags,
		NewWorkflow:          e.newWorkflow,
		Now:                  e.now,
		Names:                new(engine.Names),
	}
}

// newWorkflow is the engine's Factory: the run of a registered type.
func (e *runConfig) newWorkflow(workflowType string) (engine.Workflow, error) {
	fn, err := e.registry.Workflow(workflowType)
	if err != nil {
		return nil, err
	}
	return &workflowRun{config: e, fn: fn}, nil
}

// buildInfo makes workflow.Info from the start event and the engine.
func (e *runConfig) buildInfo(x *engine.Run, a *historypb.WorkflowExecutionStartedEventAttributes) *WorkflowInfo {
	info := x.Info()
	wi := &WorkflowInfo{
		WorkflowExecution:        clientapi.WorkflowExecution{ID: info.WorkflowID, RunID: info.RunID},
		OriginalRunID:            info.OriginalRunID,
		FirstRunID:               engine.SameString(a.GetFirstExecutionRunId(), info.RunID, info.OriginalRunID),
		WorkflowType:             clientapi.WorkflowType{Name: info.WorkflowType},
		TaskQueueName:            info.TaskQueue,
		WorkflowExecutionTimeout: a.GetWorkflowExecutionTimeout().AsDuration(),
		WorkflowRunTimeout:       a.GetWorkflowRunTimeout().AsDuration(),
		WorkflowTaskTimeout:      a.GetWorkflowTaskTimeout().AsDuration(),
		Namespace:                e.namespace,
		Attempt:                  a.GetAttempt(),
		WorkflowStartTime:        info.StartedTime,
		CronSchedule:             a.GetCronSchedule(),
		ContinuedExecutionRunID:  a.GetContinuedExecutionRunId(),
		ParentWorkflowNamespace:  a.GetParentWorkflowNamespace(),
		ParentWorkflowExecution:  executionOf(a.GetParentWorkflowExecution()),
		RootWorkflowExecution:    executionOf(a.GetRootWorkflowExecution()),
		Memo:                     a.GetMemo(),
		SearchAttributes:         a.GetSearchAttributes(),
		Priority:                 policy.PriorityFromProto(a.GetPriority()),
	}
	if rp := a.GetRetryPolicy(); rp != nil {
		wi.RetryPolicy = policy.RetryPolicyFromProto(rp)
	}
	if wi.WorkflowExecution.RunID == "" {
		wi.WorkflowExecution.RunID = a.GetOriginalExecutionRunId()
	}
	return wi
}
