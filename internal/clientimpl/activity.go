package clientimpl

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/registry"
)

// activityConverters are the client's converters for one activity.
func (c *workflowClient) activityConverters(ctx context.Context, sc converter.ActivitySerializationContext) (converter.DataConverter, converter.FailureConverter) {
	dc := c.dataConverter
	if aware, ok := dc.(converter.ContextAware); ok {
		dc = aware.WithContext(ctx)
	}
	return converter.WithDataConverterSerializationContext(dc, sc),
		converter.WithFailureConverterSerializationContext(c.failureConverter, sc)
}

// asyncActivityOutcome says which respond call an outcome needs.
type asyncActivityOutcome int

const (
	asyncActivityCompleted asyncActivityOutcome = iota
	asyncActivityCanceled
	asyncActivityFailed
)

// classifyAsyncActivityError decides, as a worker does, how an activity's
// error is reported: nil completes it, a CanceledError or context.Canceled
// cancels it, anything else fails it.
func classifyAsyncActivityError(err error) asyncActivityOutcome {
	var canceled *failure.CanceledError
	switch {
	case err == nil:
		return asyncActivityCompleted
	case errors.As(err, &canceled), errors.Is(err, context.Canceled):
		return asyncActivityCanceled
	}
	return asyncActivityFailed
}

// asyncActivityCanceledDetails extracts the details of a cancellation error in wire
// form, through the failure converter that knows how to encode them.
func asyncActivityCanceledDetails(fc converter.FailureConverter, err error) *commonpb.Payloads {
	var canceled *failure.CanceledError
	if !errors.As(err, &canceled) {
		return nil // context.Canceled carries no details
	}
	return fc.ErrorToFailure(canceled).GetCanceledFailureInfo().GetDetails()
}

// encodeAsyncActivityResult encodes an activity result; nil sends no result.
func encodeAsyncActivityResult(dc converter.DataConverter, result any) (*commonpb.Payloads, error) {
	if result == nil {
		return nil, nil
	}
	payloads, err := dc.ToPayloads(result)
	if err != nil {
		return nil, fmt.Errorf("the activity result (%T) cannot be encoded: %w", result, err)
	}
	return payloads, nil
}

// CompleteActivity implements Client.
func (c *workflowClient) CompleteActivity(ctx context.Context, taskToken []byte, result any, err error) error {
	return c.CompleteActivityWithOptions(ctx, clientapi.CompleteActivityOptions{TaskToken: taskToken, Result: result, Err: err})
}

// CompleteActivityWithOptions implements Client.
func (c *workflowClient) CompleteActivityWithOptions(ctx context.Context, options clientapi.CompleteActivityOptions) error {
	if options.TaskToken == nil {
		return errors.New("CompleteActivity: the task token is missing")
	}
	namespace := cmp.Or(options.Namespace, c.namespace)
	dc, fc := c.activityConverters(ctx, converter.ActivitySerializationContext{
		Namespace:    namespace,
		WorkflowID:   options.WorkflowID,
		WorkflowType: options.WorkflowType,
		ActivityType: options.ActivityType,
		TaskQueue:    options.TaskQueue,
	})
	if nc := options.NexusSerializationContext; nc != nil {
		dc, fc = c.nexusConverters(ctx, *nc)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	return CompleteActivityByToken(ctx, c.service, namespace, c.identity, dc, fc, options.TaskToken, options.Result, options.Err)
}

// activityCompleter is the part of the service that completes activities
// by task token: the client's connection, or the test environment's
// in-memory server.
type activityCompleter interface {
	RespondActivityTaskCompleted(ctx context.Context, in *workflowservice.RespondActivityTaskCompletedRequest, opts ...grpc.CallOption) (*workflowservice.RespondActivityTaskCompletedResponse, error)
	RespondActivityTaskFailed(ctx context.Context, in *workflowservice.RespondActivityTaskFailedRequest, opts ...grpc.CallOption) (*workflowservice.RespondActivityTaskFailedResponse, error)
	RespondActivityTaskCanceled(ctx context.Context, in *workflowservice.RespondActivityTaskCanceledRequest, opts ...grpc.CallOption) (*workflowservice.RespondActivityTaskCanceledResponse, error)
}

// CompleteActivityByToken reports an asynchronously completed activity:
// its result, its failure, or its cancellation, by what activityErr is.
// The test environment's CompleteActivity sends it to its in-memory
// server.
func CompleteActivityByToken(ctx context.Context, service activityCompleter, namespace, identity string, dc converter.DataConverter, fc converter.FailureConverter,
	token []byte, activityResult any, activityErr error,
) error {
	activityErr = failure.SafeChain(activityErr) // as a worker checks an activity's error
	var err error
	switch classifyAsyncActivityError(activityErr) {
	case asyncActivityCompleted:
		var result *commonpb.Payloads
		if result, err = encodeAsyncActivityResult(dc, activityResult); err != nil {
			return fmt.Errorf("CompleteActivity: %w", err)
		}
		_, err = service.RespondActivityTaskCompleted(ctx, &workflowservice.RespondActivityTaskCompletedRequest{
			TaskToken: token, Result: result, Identity: identity, Namespace: namespace,
		})
	case asyncActivityCanceled:
		_, err = service.RespondActivityTaskCanceled(ctx, &workflowservice.RespondActivityTaskCanceledRequest{
			TaskToken: token, Details: asyncActivityCanceledDetails(fc, activityErr), Identity: identity, Namespace: namespace,
		})
	case asyncActivityFailed:
		_, err = service.RespondActivityTaskFailed(ctx, &workflowservice.RespondActivityTaskFailedRequest{
			TaskToken: token, Failure: fc.ErrorToFailure(activityErr), Identity: identity, Namespace: namespace,
		})
	}
	return wrapCallError(err, "completing activity by task token")
}

// CompleteActivityByID implements Client.
func (c *workflowClient) CompleteActivityByID(ctx context.Context, namespace, workflowID, runID, activityID string, result any, err error) error {
	return c.CompleteActivityByIDWithOptions(ctx, clientapi.CompleteActivityByIDOptions{
		Namespace:  namespace,
		WorkflowID: workflowID,
		RunID:      runID,
		ActivityID: activityID,
		Result:     result,
		Err:        err,
	})
}

// CompleteActivityByIDWithOptions implements Client.
func (c *workflowClient) CompleteActivityByIDWithOptions(ctx context.Context, options clientapi.CompleteActivityByIDOptions) error {
	if options.Namespace == "" || options.WorkflowID == "" || options.ActivityID == "" {
		return errors.New("CompleteActivityByID: namespace, workflow ID and activity ID are all required")
	}
	dc, fc := c.activityConverters(ctx, converter.ActivitySerializationContext{
		Namespace:    options.Namespace,
		WorkflowID:   options.WorkflowID,
		WorkflowType: options.WorkflowType,
		ActivityType: options.ActivityType,
		TaskQueue:    options.TaskQueue,
	})
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	err := respondActivityByID(ctx, c.service, c.identity, dc, fc, activityAddress{
		namespace: options.Namespace, workflowID: options.WorkflowID, runID: options.RunID, activityID: options.ActivityID,
	}, options.Result, options.Err)
	return wrapCallError(err, "completing activity %q of workflow %q (run %q)", options.ActivityID, options.WorkflowID, options.RunID)
}

// CompleteActivityByActivityID implements Client.
func (c *workflowClient) CompleteActivityByActivityID(ctx context.Context, namespace, activityID, activityRunID string, result any, err error) error {
	return c.CompleteActivityByActivityIDWithOptions(ctx, clientapi.CompleteActivityByActivityIDOptions{
		Namespace:     namespace,
		ActivityID:    activityID,
		ActivityRunID: activityRunID,
		Result:        result,
		Err:           err,
	})
}

// CompleteActivityByActivityIDWithOptions implements Client: it completes
// a standalone activity, which has no workflow ID.
func (c *workflowClient) CompleteActivityByActivityIDWithOptions(ctx context.Context, options clientapi.CompleteActivityByActivityIDOptions) error {
	if options.Namespace == "" || options.ActivityID == "" {
		return errors.New("CompleteActivityByActivityID: namespace and activity ID are both required")
	}
	dc, fc := c.activityConverters(ctx, converter.ActivitySerializationContext{
		Namespace:    options.Namespace,
		WorkflowID:   options.WorkflowID,
		WorkflowType: options.WorkflowType,
		ActivityType: options.ActivityType,
		TaskQueue:    options.TaskQueue,
	})
	if nc := options.NexusSerializationContext; nc != nil {
		// The caller of the Nexus operation decodes the outcome with its context.
		dc = converter.WithDataConverterSerializationContext(c.contextDataConverter(ctx), *nc)
		fc = converter.WithFailureConverterSerializationContext(c.failureConverter, *nc)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	err := respondActivityByID(ctx, c.service, c.identity, dc, fc, activityAddress{
		namespace: options.Namespace, runID: options.ActivityRunID, activityID: options.ActivityID,
	}, options.Result, options.Err)
	return wrapCallError(err, "completing activity %q (run %q)", options.ActivityID, options.ActivityRunID)
}

// activityAddress finds an activity without its task token: a workflow's
// (by workflow ID, run ID and activity ID) or a standalone one (no
// workflow ID; runID is the activity's run).
type activityAddress struct {
	namespace, workflowID, runID, activityID string
}

// resourceID routes a request about the activity, as go.temporal.io/sdk
// names it: by its workflow, or by itself when standalone.
func (a activityAddress) resourceID() string {
	if a.workflowID != "" {
		return workflowResourceID(a.workflowID)
	}
	return standaloneActivityResourceID(a.activityID)
}

// workflowResourceID routes a request about a workflow's activity, as
// go.temporal.io/sdk names it; none without the workflow's ID.
func workflowResourceID(workflowID string) string {
	if workflowID == "" {
		return ""
	}
	return "workflow:" + workflowID
}

// respondActivityByID reports the outcome of the activity at a: its
// result, its failure, or its cancellation, by what activityErr is.
func respondActivityByID(ctx context.Context, service workflowservice.WorkflowServiceClient, identity string, dc converter.DataConverter, fc converter.FailureConverter,
	a activityAddress, activityResult any, activityErr error,
) error {
	activityErr = failure.SafeChain(activityErr) // as a worker checks an activity's error
	var err error
	switch classifyAsyncActivityError(activityErr) {
	case asyncActivityCompleted:
		var result *commonpb.Payloads
		if result, err = encodeAsyncActivityResult(dc, activityResult); err != nil {
			return err
		}
		_, err = service.RespondActivityTaskCompletedById(ctx, &workflowservice.RespondActivityTaskCompletedByIdRequest{
			Namespace: a.namespace, WorkflowId: a.workflowID, RunId: a.runID, ActivityId: a.activityID,
			Result: result, Identity: identity, ResourceId: a.resourceID(),
		})
	case asyncActivityCanceled:
		_, err = service.RespondActivityTaskCanceledById(ctx, &workflowservice.RespondActivityTaskCanceledByIdRequest{
			Namespace: a.namespace, WorkflowId: a.workflowID, RunId: a.runID, ActivityId: a.activityID,
			Details: asyncActivityCanceledDetails(fc, activityErr), Identity: identity, ResourceId: a.resourceID(),
		})
	case asyncActivityFailed:
		_, err = service.RespondActivityTaskFailedById(ctx, &workflowservice.RespondActivityTaskFailedByIdRequest{
			Namespace: a.namespace, WorkflowId: a.workflowID, RunId: a.runID, ActivityId: a.activityID,
			Failure: fc.ErrorToFailure(activityErr), Identity: identity, ResourceId: a.resourceID(),
		})
	}
	return err
}

// RecordActivityHeartbeat implements Client.
func (c *workflowClient) RecordActivityHeartbeat(ctx context.Context, taskToken []byte, details ...any) error {
	return c.RecordActivityHeartbeatWithOptions(ctx, clientapi.RecordActivityHeartbeatOptions{TaskToken: taskToken, Details: details})
}

// RecordActivityHeartbeatWithOptions implements Client.
func (c *workflowClient) RecordActivityHeartbeatWithOptions(ctx context.Context, options clientapi.RecordActivityHeartbeatOptions) error {
	namespace := cmp.Or(options.Namespace, c.namespace)
	dc, _ := c.activityConverters(ctx, converter.ActivitySerializationContext{
		Namespace:    namespace,
		WorkflowID:   options.WorkflowID,
		WorkflowType: options.WorkflowType,
		ActivityType: options.ActivityType,
		TaskQueue:    options.TaskQueue,
	})
	if nc := options.NexusSerializationContext; nc != nil {
		dc, _ = c.nexusConverters(ctx, *nc)
	}
	details, err := registry.EncodeArgs(dc, options.Details)
	if err != nil {
		return fmt.Errorf("RecordActivityHeartbeat: details: %w", err)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	resp, err := c.service.RecordActivityTaskHeartbeat(ctx, &workflowservice.RecordActivityTaskHeartbeatRequest{
		TaskToken: options.TaskToken, Details: details, Identity: c.identity, Namespace: namespace,
		ResourceId: workflowResourceID(options.WorkflowID),
	})
	if err != nil {
		return wrapCallError(err, "recording activity heartbeat by task token")
	}
	switch {
	case resp.GetCancelRequested():
		return failure.NewCanceledError()
	case resp.GetActivityPaused():
		return internal.ErrActivityPaused
	case resp.GetActivityReset():
		return internal.ErrActivityReset
	}
	return nil
}

// RecordActivityHeartbeatByID implements Client.
func (c *workflowClient) RecordActivityHeartbeatByID(ctx context.Context, namespace, workflowID, runID, activityID string, details ...any) error {
	return c.RecordActivityHeartbeatByIDWithOptions(ctx, clientapi.RecordActivityHeartbeatByIDOptions{
		Namespace:  namespace,
		WorkflowID: workflowID,
		RunID:      runID,
		ActivityID: activityID,
		Details:    details,
	})
}

// RecordActivityHeartbeatByIDWithOptions implements Client.
func (c *workflowClient) RecordActivityHeartbeatByIDWithOptions(ctx context.Context, options clientapi.RecordActivityHeartbeatByIDOptions) error {
	namespace := cmp.Or(options.Namespace, c.namespace)
	dc, _ := c.activityConverters(ctx, converter.ActivitySerializationContext{
		Namespace:    namespace,
		WorkflowID:   options.WorkflowID,
		WorkflowType: options.WorkflowType,
		ActivityType: options.ActivityType,
		TaskQueue:    options.TaskQueue,
	})
	details, err := registry.EncodeArgs(dc, options.Details)
	if err != nil {
		return fmt.Errorf("RecordActivityHeartbeatByID: details: %w", err)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	resp, err := c.service.RecordActivityTaskHeartbeatById(ctx, &workflowservice.RecordActivityTaskHeartbeatByIdRequest{
		Namespace: namespace, WorkflowId: options.WorkflowID, RunId: options.RunID, ActivityId: options.ActivityID,
		Details: details, Identity: c.identity,
		ResourceId: activityAddress{workflowID: options.WorkflowID, activityID: options.ActivityID}.resourceID(),
	})
	if err != nil {
		return wrapCallError(err, "recording heartbeat of activity %q of workflow %q (run %q)", options.ActivityID, options.WorkflowID, options.RunID)
	}
	return asyncHeartbeatVerdict(resp.GetCancelRequested())
}

// asyncHeartbeatVerdict turns the server's answer to a heartbeat by ID
// into the error the official client returns: a CanceledError once
// cancellation of the activity has been requested. (A heartbeat by task
// token also says when the activity was paused or reset:
// activity.ErrActivityPaused, activity.ErrActivityReset.)
func asyncHeartbeatVerdict(cancelRequested bool) error {
	if cancelRequested {
		return failure.NewCanceledError()
	}
	return nil
}
