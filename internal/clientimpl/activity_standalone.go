package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	activitypb "go.temporal.io/api/activity/v1"
	commonpb "go.temporal.io/api/common/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/internal/uuid"
)

// Standalone activities: started by the client, not by a workflow
// (Client.ExecuteActivity). This file starts them and waits for their
// outcome; activity_standalone_ops.go acts on their handles, describes,
// lists and counts them.

// ExecuteActivity implements Client: it names the activity and passes the
// call to the interceptor chain, whose end starts it.
func (c *workflowClient) ExecuteActivity(ctx context.Context, options clientapi.StartActivityOptions, activity any, args ...any) (clientapi.ActivityHandle, error) {
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	activityType, err := standaloneActivityType(activity, args)
	if err != nil {
		return nil, fmt.Errorf("Client.ExecuteActivity: %w", err)
	}
	return c.interceptor.ExecuteActivity(propagation.ContextWithNewHeader(ctx), &clientapi.ClientExecuteActivityInput{
		Options:      &options,
		ActivityType: activityType,
		Args:         args,
	})
}

// standaloneActivityType is the type name of an activity given as a
// function (whose arguments args must fit) or as a name.
func standaloneActivityType(activity any, args []any) (string, error) {
	switch a := activity.(type) {
	case string:
		if a == "" {
			return "", errors.New("the activity type name is empty")
		}
		return a, nil
	case nil:
		return "", errors.New("no activity given: pass an activity function or an activity type name")
	}
	if reflect.TypeOf(activity).Kind() != reflect.Func {
		return "", fmt.Errorf("an activity must be a function or an activity type name, not %T", activity)
	}
	if err := registry.CheckArgs(activity, args, "activity"); err != nil {
		return "", err
	}
	return registry.FunctionName(activity), nil
}

// ExecuteActivity starts the activity.
func (r *clientRoot) ExecuteActivity(ctx context.Context, in *clientapi.ClientExecuteActivityInput) (clientapi.ActivityHandle, error) {
	c := r.c
	request, err := c.startActivityRequest(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("Client.ExecuteActivity: %w", err)
	}
	nexusStart := clientapi.NexusStartOf(ctx)
	withNexusActivityStart(request, nexusStart)
	resp, err := c.service.StartActivityExecution(ctx, request)
	if err != nil {
		return nil, wrapCallError(err, "starting activity %q (%s)", in.Options.ID, in.ActivityType)
	}
	if nexusStart != nil {
		nexusStart.Link = resp.GetLink()
	}
	return &activityHandle{c: c, id: in.Options.ID, runID: resp.GetRunId()}, nil
}

// withNexusActivityStart adds to an activity's start request what a
// Nexus operation that starts it sends (temporalnexus.StartActivity), as
// go.temporal.io/sdk does: the operation's request ID, the callback that
// completes the caller's operation, the links back to the caller, their
// attachment to an activity already running under the ID, and the
// operation's serialization context, which the activity's result and
// failure are converted with.
func withNexusActivityStart(req *workflowservice.StartActivityExecutionRequest, ns *clientapi.NexusStart) {
	if ns == nil {
		return
	}
	if ns.RequestID != "" {
		req.RequestId = ns.RequestID
	}
	req.CompletionCallbacks = ns.Callbacks
	if len(ns.Callbacks) == 0 {
		req.Links = ns.Links // with a callback, the links travel on it
	}
	req.PropagatedNexusSerializationContext = ns.SerializationContext
	req.OnConflictOptions = &commonpb.OnConflictOptions{
		AttachRequestId:           req.GetRequestId() != "",
		AttachCompletionCallbacks: len(req.GetCompletionCallbacks()) > 0,
		AttachLinks:               len(req.GetLinks()) > 0,
	}
}

// startActivityRequest checks the options and encodes the start request:
// its arguments, summary, details and header with the client's data
// converter told the activity's serialization context.
func (c *workflowClient) startActivityRequest(ctx context.Context, in *clientapi.ClientExecuteActivityInput) (*workflowservice.StartActivityExecutionRequest, error) {
	o := in.Options
	if o.ID == "" {
		return nil, errors.New("the activity ID is required (StartActivityOptions.ID)")
	}
	if o.TaskQueue == "" {
		return nil, errors.New("the task queue is required (StartActivityOptions.TaskQueue)")
	}
	for _, d := range []struct {
		name  string
		value time.Duration
	}{
		{"ScheduleToCloseTimeout", o.ScheduleToCloseTimeout},
		{"ScheduleToStartTimeout", o.ScheduleToStartTimeout},
		{"StartToCloseTimeout", o.StartToCloseTimeout},
		{"HeartbeatTimeout", o.HeartbeatTimeout},
		{"StartDelay", o.StartDelay},
	} {
		if d.value < 0 {
			return nil, fmt.Errorf("StartActivityOptions.%s is negative (%v)", d.name, d.value)
		}
	}
	if o.ScheduleToCloseTimeout == 0 && o.StartToCloseTimeout == 0 {
		return nil, errors.New("StartActivityOptions needs ScheduleToCloseTimeout or StartToCloseTimeout (or both)")
	}
	dc, _ := c.activityConverters(ctx, converter.ActivitySerializationContext{
		Namespace:    c.namespace,
		ActivityType: in.ActivityType,
		TaskQueue:    o.TaskQueue,
	})
	input, err := registry.EncodeArgs(dc, in.Args)
	if err != nil {
		return nil, fmt.Errorf("the arguments of activity %q cannot be encoded: %w", in.ActivityType, err)
	}
	attributes, err := searchattr.EncodeForStart(nil, o.TypedSearchAttributes)
	if err != nil {
		return nil, fmt.Errorf("search attributes: %w", err)
	}
	metadata, err := encodeStartUserMetadata(dc, o.Summary, o.StaticDetails)
	if err != nil {
		return nil, err
	}
	header, err := propagation.ClientOutgoingHeader(ctx, c.propagators, func() converter.PayloadCodec { return propagation.HeaderCodec(dc) })
	if err != nil {
		return nil, err
	}
	return &workflowservice.StartActivityExecutionRequest{
		Namespace:              c.namespace,
		Identity:               c.identity,
		RequestId:              uuid.New(),
		ActivityId:             o.ID,
		ActivityType:           &commonpb.ActivityType{Name: in.ActivityType},
		TaskQueue:              &taskqueuepb.TaskQueue{Name: o.TaskQueue},
		ScheduleToCloseTimeout: positiveDuration(o.ScheduleToCloseTimeout),
		ScheduleToStartTimeout: positiveDuration(o.ScheduleToStartTimeout),
		StartToCloseTimeout:    positiveDuration(o.StartToCloseTimeout),
		HeartbeatTimeout:       positiveDuration(o.HeartbeatTimeout),
		StartDelay:             positiveDuration(o.StartDelay),
		RetryPolicy:            policy.RetryPolicyToProto(o.RetryPolicy),
		Input:                  input,
		IdReusePolicy:          o.ActivityIDReusePolicy,
		IdConflictPolicy:       o.ActivityIDConflictPolicy,
		SearchAttributes:       attributes,
		Header:                 header,
		UserMetadata:           metadata,
		Priority:               policy.PriorityToProto(o.Priority),
	}, nil
}

// GetActivityHandle implements Client.
func (c *workflowClient) GetActivityHandle(options clientapi.GetActivityHandleOptions) clientapi.ActivityHandle {
	return c.interceptor.GetActivityHandle(&clientapi.ClientGetActivityHandleInput{
		ActivityID: options.ActivityID,
		RunID:      options.RunID,
	})
}

// GetActivityHandle makes the handle; nothing is sent.
func (r *clientRoot) GetActivityHandle(in *clientapi.ClientGetActivityHandleInput) clientapi.ActivityHandle {
	return &activityHandle{c: r.c, id: in.ActivityID, runID: in.RunID}
}

// activityHandle is an ActivityHandle.
type activityHandle struct {
	c     *workflowClient
	id    string
	runID string

	mu      sync.Mutex
	outcome *clientapi.ClientPollActivityResultOutput // once known
}

var _ clientapi.ActivityHandle = (*activityHandle)(nil)

func (h *activityHandle) GetID() string    { return h.id }
func (h *activityHandle) GetRunID() string { return h.runID }

// Get implements ActivityHandle: it waits for the outcome through the
// interceptor chain, once; later calls read it again.
func (h *activityHandle) Get(ctx context.Context, valuePtr any) error {
	h.mu.Lock()
	outcome := h.outcome
	h.mu.Unlock()
	if outcome == nil {
		if err := h.c.ensureInitialized(ctx); err != nil {
			return err
		}
		for outcome == nil || (outcome.Error == nil && outcome.Result == nil) {
			var err error
			outcome, err = h.c.interceptor.PollActivityResult(ctx, &clientapi.ClientPollActivityResultInput{ActivityID: h.id, RunID: h.runID})
			if err != nil {
				return err
			}
		}
		h.mu.Lock()
		h.outcome = outcome
		h.mu.Unlock()
	}
	if outcome.Error != nil {
		return outcome.Error
	}
	if valuePtr == nil {
		return nil
	}
	return outcome.Result.Get(valuePtr)
}

// PollActivityResult waits, poll after poll, for the activity to close,
// and reads its outcome with the client's converters told the namespace
// (or the Nexus operation's context, when a Nexus handler started it).
func (r *clientRoot) PollActivityResult(ctx context.Context, in *clientapi.ClientPollActivityResultInput) (*clientapi.ClientPollActivityResultOutput, error) {
	c := r.c
	request := &workflowservice.PollActivityExecutionRequest{Namespace: c.namespace, ActivityId: in.ActivityID, RunId: in.RunID}
	var resp *workflowservice.PollActivityExecutionResponse
	for resp.GetOutcome() == nil {
		var err error
		if resp, err = c.service.PollActivityExecution(ctx, request); err != nil {
			return nil, wrapCallError(err, "waiting for activity %q (run %q)", in.ActivityID, in.RunID)
		}
	}
	dc, fc := c.standaloneResultConverters(ctx, converter.ActivitySerializationContext{Namespace: c.namespace}, resp.GetPropagatedNexusSerializationContext())
	switch outcome := resp.GetOutcome().GetValue().(type) {
	case *activitypb.ActivityExecutionOutcome_Result:
		return &clientapi.ClientPollActivityResultOutput{Result: newClientEncodedValue(outcome.Result, dc)}, nil
	case *activitypb.ActivityExecutionOutcome_Failure:
		return &clientapi.ClientPollActivityResultOutput{Error: fc.FailureToError(outcome.Failure)}, nil
	default:
		return nil, fmt.Errorf("waiting for activity %q (run %q): the server answered with an outcome this client does not know (%T)", in.ActivityID, in.RunID, outcome)
	}
}

// standaloneResultConverters are the converters of a standalone
// activity's result, failures and heartbeat details: told the activity's
// context, or the Nexus operation's when the server propagates one (its
// caller decodes them with it).
func (c *workflowClient) standaloneResultConverters(ctx context.Context, activity converter.ActivitySerializationContext, nexus *nexuspb.PropagatedSerializationContext) (converter.DataConverter, converter.FailureConverter) {
	if nexus == nil {
		return c.activityConverters(ctx, activity)
	}
	sc := converter.NexusSerializationContext{Endpoint: nexus.GetEndpoint(), Service: nexus.GetService(), Operation: nexus.GetOperation()}
	return converter.WithDataConverterSerializationContext(c.contextDataConverter(ctx), sc),
		converter.WithFailureConverterSerializationContext(c.failureConverter, sc)
}
