package internal

import (
	"time"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/log"
)

// workflowEnv is what every workflow run of one worker (or replayer)
// shares: the registered functions and the options they run with.
type workflowEnv struct {
	registry         *registry.Registry
	dc               converter.DataConverter
	fc               converter.FailureConverter
	logger           log.Logger
	metrics          MetricsHandler
	namespace        string
	deadlockTimeout  time.Duration // 0: the dispatcher's default; <0: disabled
	logDuringReplay  bool
	failOnPanic      bool
	sdkMetadataFlags bool

	// interceptors wrap every run, the first outermost; propagators carry
	// values through headers (see carriesHeaders).
	interceptors []WorkerInterceptor
	propagators  []ContextPropagator
}

// carriesHeaders reports whether headers matter to the runs: only
// interceptors and propagators read or write them. Without either, runs
// skip the header bookkeeping, which keeps workflow calls free of it.
func (e *workflowEnv) carriesHeaders() bool {
	return len(e.interceptors) > 0 || len(e.propagators) > 0
}

// engineOptions are the engine options of the worker's runs.
func (e *workflowEnv) engineOptions() *engine.Options {
	return &engine.Options{
		Namespace:            e.namespace,
		DataConverter:        e.dc,
		FailureConverter:     e.fc,
		Logger:               e.logger,
		FailWorkflowOnPanic:  e.failOnPanic,
		SDKMetadataSupported: e.sdkMetadataFlags,
		NewWorkflow:          e.newWorkflow,
	}
}

// newWorkflow is the engine's Factory: the run of a registered type.
func (e *workflowEnv) newWorkflow(workflowType string) (engine.Workflow, error) {
	fn, err := e.registry.Workflow(workflowType)
	if err != nil {
		return nil, err
	}
	return &workflowRun{env: e, fn: fn}, nil
}

// buildInfo makes workflow.Info from the start event and the engine.
func (e *workflowEnv) buildInfo(x *engine.Execution, a *historypb.WorkflowExecutionStartedEventAttributes) *WorkflowInfo {
	info := x.Info()
	wi := &WorkflowInfo{
		WorkflowExecution:        WorkflowExecution{ID: info.WorkflowID, RunID: info.RunID},
		OriginalRunID:            a.GetOriginalExecutionRunId(),
		FirstRunID:               a.GetFirstExecutionRunId(),
		WorkflowType:             WorkflowType{Name: a.GetWorkflowType().GetName()},
		TaskQueueName:            a.GetTaskQueue().GetName(),
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

// runLogger is the workflow logger: tagged with the run, silent in replay.
func (e *workflowEnv) runLogger(x *engine.Execution, info *WorkflowInfo) log.Logger {
	l := log.With(e.logger, "Namespace", info.Namespace, "TaskQueue", info.TaskQueueName,
		"WorkflowType", info.WorkflowType.Name, "WorkflowID", info.WorkflowExecution.ID, "RunID", info.WorkflowExecution.RunID)
	if e.logDuringReplay {
		return l
	}
	return logging.NewReplayAwareLogger(l, x.IsReplaying)
}
