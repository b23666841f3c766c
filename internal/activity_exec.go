package internal

import (
	"context"
	"fmt"
	"runtime/debug"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/session"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// activityExecutor runs registered activity functions for the worker
// runtime (workerrt.ActivityExecutor).
type activityExecutor struct {
	registry  *registry.Registry
	dc        converter.DataConverter
	logger    log.Logger
	namespace string
	taskQueue string
	// scheduledTaskQueue: ActivityExecutorOptions.ScheduledTaskQueue.
	scheduledTaskQueue func(token []byte) string
	client             Client
	interceptors       []WorkerInterceptor
	propagators        []ContextPropagator
	metrics            sdkmetrics.Handler
}

func workflowTypeName(info ActivityInfo) string {
	if info.WorkflowType == nil {
		return ""
	}
	return info.WorkflowType.Name
}

// Execute runs one activity attempt. A panic, of the activity or of user
// code around it (the data converter decoding its input or encoding its
// result or heartbeat details, a codec, an interceptor), fails the attempt
// with a PanicError, retryable as in go.temporal.io/sdk.
func (e *activityExecutor) Execute(ctx context.Context, t *workerrt.ActivityTask) (_ *commonpb.Payloads, err error) {
	info := activityInfoOf(t, e.namespace)
	info.TaskQueue = e.taskQueue
	if e.scheduledTaskQueue != nil && !t.Local {
		if q := e.scheduledTaskQueue(t.Task.GetTaskToken()); q != "" {
			info.TaskQueue = q
		}
	}
	if d, ok := ctx.Deadline(); ok {
		info.Deadline = d
	}
	metrics := sdkmetrics.NopHandler
	if !sdkmetrics.IsNop(e.metrics) {
		metrics = e.metrics.WithTags(map[string]string{sdkmetrics.TagNamespace: e.namespace, sdkmetrics.TagTaskQueue: info.TaskQueue,
			sdkmetrics.TagActivityType: info.ActivityType.Name, sdkmetrics.TagWorkflowType: workflowTypeName(info)})
	}
	info.IsLocalActivity = t.Local
	fn, err := e.registry.Activity(info.ActivityType.Name)
	if (err != nil || fn.Dynamic) && t.LocalFn != nil {
		// A local activity given as a function need not be registered;
		// a registered one of its name wins, as in go.temporal.io/sdk.
		fn, err = registry.ActivityFunc(info.ActivityType.Name, t.LocalFn)
	}
	if err != nil && session.IsProtocolActivity(info.ActivityType.Name) {
		return nil, failure.NewNonRetryableApplicationError(fmt.Sprintf("%s: the worker that polled task queue %q runs no sessions; "+
			"set worker.Options.EnableSessionWorker to run them", describeActivity(info), e.taskQueue), "SessionWorkerNotEnabled", nil)
	}
	if err != nil {
		metrics.Counter(sdkmetrics.UnregisteredActivityInvocation).Inc(1)
		// Retryable: a worker that has the activity may pick up the retry.
		return nil, failure.NewApplicationError(err.Error(), "ActivityNotRegistered")
	}
	logger := logging.WithKeyvals(e.logger, "ActivityID", info.ActivityID, "ActivityType", info.ActivityType.Name,
		"Attempt", info.Attempt, "WorkflowID", info.WorkflowExecution.ID, "RunID", info.WorkflowExecution.RunID)
	defer func() {
		if p := recover(); p != nil {
			stack := string(debug.Stack())
			logger.Error("Activity panic", "PanicError", fmt.Sprint(p), "PanicStack", stack)
			name := sdkmetrics.ActivityTaskError
			if t.Local {
				name = sdkmetrics.LocalActivityError
			}
			metrics.Counter(name).Inc(1)
			err = failure.NewPanicError(p, stack)
		}
	}()
	// Its input, result, heartbeat details and failure are converted with
	// its serialization context, as in go.temporal.io/sdk; a converter
	// that takes none is used as it is, and no context is made for it.
	// A standalone activity a Nexus operation started reports to the
	// operation's caller: its result, failure and heartbeat details are
	// converted with the operation's context instead (its input still
	// with its own).
	var resultContext converter.SerializationContext
	if p := t.Task.GetPropagatedNexusSerializationContext(); p != nil {
		nc := converter.NexusSerializationContext{Endpoint: p.GetEndpoint(), Service: p.GetService(), Operation: p.GetOperation()}
		info.NexusSerializationContext, resultContext = &nc, nc
	}
	dc, resultDC := e.dc, e.dc
	fc, _ := t.FailureConverter.(converter.FailureConverter) // nil for a local activity's
	if serializationAware(dc, fc) {
		sc := activitySerializationContext(&info)
		if resultContext == nil {
			resultContext = sc
		}
		dc = converter.WithDataConverterSerializationContext(dc, sc)
		resultDC = converter.WithDataConverterSerializationContext(resultDC, resultContext)
		if fc != nil {
			t.FailureConverter = converter.WithFailureConverterSerializationContext(fc, resultContext)
		}
	}
	env := &activityEnv{info: info, heartbeat: t.Heartbeat, heartbeatDetails: t.Task.GetHeartbeatDetails(),
		dc: resultDC, logger: logger, workerStop: t.WorkerStop, client: e.client, metrics: metrics}
	ctx = context.WithValue(ctx, activityEnvKey{}, env)
	ctx, inbound, err := e.interceptActivity(ctx, env, fn, t.Task.GetHeader())
	if err != nil {
		return nil, failure.NewApplicationError(fmt.Sprintf("%s: %v", describeActivity(info), err), "InterceptorError")
	}
	// A converter.ContextAware converter sees the activity's context, as
	// go.temporal.io/sdk shows it.
	if aware, ok := dc.(converter.ContextAware); ok {
		dc = aware.WithContext(ctx)
	}
	if aware, ok := resultDC.(converter.ContextAware); ok {
		resultDC = aware.WithContext(ctx)
	}
	if t.Local && t.Task.GetInput() == nil {
		// A local activity gets the workflow's Go values, as in
		// go.temporal.io/sdk: they were never encoded.
		result, err := inbound.ExecuteActivity(ctx, &ExecuteActivityInput{Args: t.LocalArgs})
		return encodeActivityResult(resultDC, &info, result, err)
	}
	args, err := fn.DecodeArgs(dc, t.Task.GetInput(), "activity")
	if err != nil {
		// Retryable, as in go.temporal.io/sdk. workflow.ExecuteActivity
		// schedules an activity whatever its arguments (and logs a warning
		// when they do not fit), so a wrong type surfaces here.
		return nil, failure.NewApplicationError(err.Error()+"; check the arguments the activity is called with: "+
			"workflow.ExecuteActivity schedules it with the arguments it is given, whatever their types", "ArgumentDecodingError")
	}
	result, err := inbound.ExecuteActivity(ctx, &ExecuteActivityInput{Args: registry.Interfaces(args)})
	return encodeActivityResult(resultDC, &info, result, err)
}

// encodeActivityResult is what an attempt reports: its error, or its
// result encoded with dc.
func encodeActivityResult(dc converter.DataConverter, info *ActivityInfo, result any, err error) (*commonpb.Payloads, error) {
	if err != nil {
		return nil, err
	}
	if result == nil {
		return nil, nil
	}
	if p, ok := result.(*commonpb.Payloads); ok {
		return p, nil // already encoded, by an interceptor
	}
	p, err := dc.ToPayloads(result)
	if err != nil {
		// Non-retryable: another attempt would return a value that cannot
		// be encoded either.
		return nil, failure.NewNonRetryableApplicationError(fmt.Sprintf("%s: its result (%T) cannot be encoded: %v", describeActivity(*info), result, err), "ResultEncodingError", nil)
	}
	return p, nil
}
