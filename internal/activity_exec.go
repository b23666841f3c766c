package internal

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/registry"
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
	client    Client
}

// Execute runs one activity attempt.
func (e *activityExecutor) Execute(ctx context.Context, t *workerrt.ActivityTask) (*commonpb.Payloads, error) {
	info := activityInfoOf(t, e.namespace)
	info.TaskQueue = e.taskQueue
	if d, ok := ctx.Deadline(); ok {
		info.Deadline = d
	}
	fn, err := e.registry.Activity(info.ActivityType.Name)
	if err != nil {
		// Retryable: a worker that has the activity may pick up the retry.
		return nil, failure.NewApplicationError(err.Error(), "ActivityNotRegistered")
	}
	logger := log.With(e.logger, "ActivityID", info.ActivityID, "ActivityType", info.ActivityType.Name,
		"Attempt", info.Attempt, "WorkflowID", info.WorkflowExecution.ID, "RunID", info.WorkflowExecution.RunID)
	env := &activityEnv{info: info, heartbeat: t.Heartbeat, heartbeatDetails: t.Task.GetHeartbeatDetails(),
		dc: e.dc, logger: logger, workerStop: t.WorkerStop, client: e.client}
	ctx = context.WithValue(ctx, activityEnvKey{}, env)
	args, err := fn.DecodeArgs(e.dc, t.Task.GetInput(), "activity")
	if err != nil {
		return nil, failure.NewApplicationError(err.Error(), "ArgumentDecodingError")
	}
	if fn.HasContext {
		args = append([]reflect.Value{reflect.ValueOf(ctx)}, args...)
	}
	result, hasResult, err := callActivity(fn.Fn, args)
	if err != nil {
		return nil, err
	}
	if !hasResult || result == nil {
		return nil, nil
	}
	p, err := e.dc.ToPayloads(result)
	if err != nil {
		return nil, failure.NewApplicationError(fmt.Sprintf("%s: its result (%T) cannot be encoded: %v", describeActivity(info), result, err), "ResultEncodingError")
	}
	return p, nil
}

// callActivity calls an activity function, turning a panic into a
// PanicError that the workflow sees as the activity's failure.
func callActivity(fn reflect.Value, args []reflect.Value) (result any, hasResult bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			result, hasResult, err = nil, false, failure.NewPanicError(p, string(debug.Stack()))
		}
	}()
	return registry.Results(fn.Call(args))
}
