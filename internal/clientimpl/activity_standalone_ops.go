package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"time"

	activitypb "go.temporal.io/api/activity/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/internal/uuid"
)

// What a standalone activity's handle does besides waiting for it
// (activity_standalone.go): describe, cancel, terminate, pause, unpause
// and update its options; and the listing and counting of standalone
// activities, which, as go.temporal.io/sdk's, do not pass through the
// interceptors.

// standaloneActivityResourceID routes a request about a standalone
// activity, as go.temporal.io/sdk names it.
func standaloneActivityResourceID(activityID string) string {
	return "activity:" + activityID
}

// Describe implements ActivityHandle.
func (h *activityHandle) Describe(ctx context.Context, options clientapi.DescribeActivityOptions) (*clientapi.ActivityExecutionDescription, error) {
	if err := h.c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	out, err := h.c.interceptor.DescribeActivity(ctx, &clientapi.ClientDescribeActivityInput{ActivityID: h.id, RunID: h.runID, Options: &options})
	if err != nil {
		return nil, err
	}
	return out.Description, nil
}

// DescribeActivity describes the activity, with the payloads the options
// ask for.
func (r *clientRoot) DescribeActivity(ctx context.Context, in *clientapi.ClientDescribeActivityInput) (*clientapi.ClientDescribeActivityOutput, error) {
	c := r.c
	var options clientapi.DescribeActivityOptions
	if in.Options != nil {
		options = *in.Options
	}
	resp, err := c.service.DescribeActivityExecution(ctx, &workflowservice.DescribeActivityExecutionRequest{
		Namespace:               c.namespace,
		ActivityId:              in.ActivityID,
		RunId:                   in.RunID,
		IncludeInput:            options.IncludeInput,
		IncludeOutcome:          options.IncludeOutcome,
		IncludeHeartbeatDetails: options.IncludeHeartbeatDetails,
		IncludeLastFailure:      options.IncludeLastFailure,
	})
	if err != nil {
		return nil, wrapCallError(err, "describing activity %q (run %q)", in.ActivityID, in.RunID)
	}
	info := resp.GetInfo()
	if info == nil {
		return nil, fmt.Errorf("describing activity %q (run %q): the server's answer has no description", in.ActivityID, in.RunID)
	}
	attributes, err := searchattr.Decode(info.GetSearchAttributes())
	if err != nil {
		// One unreadable attribute should not hide the rest.
		c.logger.Warn("Standalone activity: search attributes cannot be decoded", "ActivityID", in.ActivityID, "Error", err)
	}
	sc := converter.ActivitySerializationContext{Namespace: c.namespace, ActivityType: info.GetActivityType().GetName(), TaskQueue: info.GetTaskQueue()}
	inputDC, _ := c.activityConverters(ctx, sc)
	resultDC, fc := c.standaloneResultConverters(ctx, sc, info.GetPropagatedNexusSerializationContext())
	described := clientapi.ClientActivityExecutionInfo{
		ActivityID:            info.GetActivityId(),
		ActivityRunID:         info.GetRunId(),
		ActivityType:          info.GetActivityType().GetName(),
		ScheduleTime:          info.GetScheduleTime().AsTime(),
		CloseTime:             info.GetCloseTime().AsTime(),
		Status:                info.GetStatus(),
		TypedSearchAttributes: attributes,
		TaskQueue:             info.GetTaskQueue(),
		ExecutionDuration:     info.GetExecutionDuration().AsDuration(),
		ExecutionTime:         info.GetExecutionTime().AsTime(),
	}
	return &clientapi.ClientDescribeActivityOutput{
		Description: clientapi.NewActivityExecutionDescription(resp, described, inputDC, resultDC, fc),
	}, nil
}

// Cancel implements ActivityHandle.
func (h *activityHandle) Cancel(ctx context.Context, options clientapi.CancelActivityOptions) error {
	if err := h.c.ensureInitialized(ctx); err != nil {
		return err
	}
	return h.c.interceptor.CancelActivity(ctx, &clientapi.ClientCancelActivityInput{ActivityID: h.id, RunID: h.runID, Reason: options.Reason})
}

// CancelActivity asks the server to cancel the activity.
func (r *clientRoot) CancelActivity(ctx context.Context, in *clientapi.ClientCancelActivityInput) error {
	_, err := r.c.service.RequestCancelActivityExecution(ctx, &workflowservice.RequestCancelActivityExecutionRequest{
		Namespace:  r.c.namespace,
		ActivityId: in.ActivityID,
		RunId:      in.RunID,
		Identity:   r.c.identity,
		RequestId:  uuid.New(),
		Reason:     in.Reason,
	})
	return wrapCallError(err, "canceling activity %q (run %q)", in.ActivityID, in.RunID)
}

// Terminate implements ActivityHandle.
func (h *activityHandle) Terminate(ctx context.Context, options clientapi.TerminateActivityOptions) error {
	if err := h.c.ensureInitialized(ctx); err != nil {
		return err
	}
	return h.c.interceptor.TerminateActivity(ctx, &clientapi.ClientTerminateActivityInput{ActivityID: h.id, RunID: h.runID, Reason: options.Reason})
}

// TerminateActivity asks the server to terminate the activity.
func (r *clientRoot) TerminateActivity(ctx context.Context, in *clientapi.ClientTerminateActivityInput) error {
	_, err := r.c.service.TerminateActivityExecution(ctx, &workflowservice.TerminateActivityExecutionRequest{
		Namespace:  r.c.namespace,
		ActivityId: in.ActivityID,
		RunId:      in.RunID,
		Identity:   r.c.identity,
		RequestId:  uuid.New(),
		Reason:     in.Reason,
	})
	return wrapCallError(err, "terminating activity %q (run %q)", in.ActivityID, in.RunID)
}

// Pause implements ActivityHandle.
func (h *activityHandle) Pause(ctx context.Context, options clientapi.PauseActivityOptions) error {
	if err := h.c.ensureInitialized(ctx); err != nil {
		return err
	}
	return h.c.interceptor.PauseActivity(ctx, &clientapi.ClientPauseActivityInput{ActivityID: h.id, RunID: h.runID, Options: &options})
}

// PauseActivity asks the server to pause the activity.
func (r *clientRoot) PauseActivity(ctx context.Context, in *clientapi.ClientPauseActivityInput) error {
	request := &workflowservice.PauseActivityExecutionRequest{
		Namespace:  r.c.namespace,
		ActivityId: in.ActivityID,
		RunId:      in.RunID,
		Identity:   r.c.identity,
		RequestId:  uuid.New(),
		ResourceId: standaloneActivityResourceID(in.ActivityID),
	}
	if in.Options != nil {
		request.Reason = in.Options.Reason
	}
	_, err := r.c.service.PauseActivityExecution(ctx, request)
	return wrapCallError(err, "pausing activity %q (run %q)", in.ActivityID, in.RunID)
}

// Unpause implements ActivityHandle.
func (h *activityHandle) Unpause(ctx context.Context, options clientapi.UnpauseActivityOptions) error {
	if err := h.c.ensureInitialized(ctx); err != nil {
		return err
	}
	return h.c.interceptor.UnpauseActivity(ctx, &clientapi.ClientUnpauseActivityInput{ActivityID: h.id, RunID: h.runID, Options: &options})
}

// UnpauseActivity asks the server to unpause the activity.
func (r *clientRoot) UnpauseActivity(ctx context.Context, in *clientapi.ClientUnpauseActivityInput) error {
	request := &workflowservice.UnpauseActivityExecutionRequest{
		Namespace:  r.c.namespace,
		ActivityId: in.ActivityID,
		RunId:      in.RunID,
		Identity:   r.c.identity,
		RequestId:  uuid.New(),
		ResourceId: standaloneActivityResourceID(in.ActivityID),
	}
	if o := in.Options; o != nil {
		if o.Jitter < 0 {
			return fmt.Errorf("ActivityHandle.Unpause: UnpauseActivityOptions.Jitter is negative (%v)", o.Jitter)
		}
		request.Reason = o.Reason
		request.Jitter = positiveDuration(o.Jitter)
	}
	_, err := r.c.service.UnpauseActivityExecution(ctx, request)
	return wrapCallError(err, "unpausing activity %q (run %q)", in.ActivityID, in.RunID)
}

// UpdateOptions implements ActivityHandle.
func (h *activityHandle) UpdateOptions(ctx context.Context, update clientapi.ActivityOptionsUpdate) (*clientapi.ActivityExecutionOptions, error) {
	if _, paths := activityOptionsUpdateToProto(update); len(paths) == 0 {
		// An empty mask would change nothing and look as if it worked.
		return nil, errors.New("ActivityHandle.UpdateOptions: the update changes no option; set at least one field of ActivityOptionsUpdate")
	}
	if err := h.c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	out, err := h.c.interceptor.UpdateActivityOptions(ctx, &clientapi.ClientUpdateActivityOptionsInput{ActivityID: h.id, RunID: h.runID, Update: &update})
	if err != nil {
		return nil, err
	}
	return out.Options, nil
}

// RestoreOriginalOptions implements ActivityHandle.
func (h *activityHandle) RestoreOriginalOptions(ctx context.Context) (*clientapi.ActivityExecutionOptions, error) {
	if err := h.c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	out, err := h.c.interceptor.UpdateActivityOptions(ctx, &clientapi.ClientUpdateActivityOptionsInput{ActivityID: h.id, RunID: h.runID, RestoreOriginal: true})
	if err != nil {
		return nil, err
	}
	return out.Options, nil
}

// UpdateActivityOptions sends the options' changes, or their undoing.
func (r *clientRoot) UpdateActivityOptions(ctx context.Context, in *clientapi.ClientUpdateActivityOptionsInput) (*clientapi.ClientUpdateActivityOptionsOutput, error) {
	options, paths := &activitypb.ActivityOptions{}, []string(nil)
	if in.Update != nil {
		options, paths = activityOptionsUpdateToProto(*in.Update)
	}
	if in.RestoreOriginal && len(paths) > 0 {
		// The server refuses the two together; an interceptor could ask.
		return nil, errors.New("updating activity options: RestoreOriginal cannot be combined with option changes")
	}
	mask, err := fieldmaskpb.New(options, paths...)
	if err != nil {
		return nil, fmt.Errorf("updating activity options: %w", err)
	}
	resp, err := r.c.service.UpdateActivityExecutionOptions(ctx, &workflowservice.UpdateActivityExecutionOptionsRequest{
		Namespace:       r.c.namespace,
		ActivityId:      in.ActivityID,
		RunId:           in.RunID,
		Identity:        r.c.identity,
		RequestId:       uuid.New(),
		ActivityOptions: options,
		UpdateMask:      mask,
		RestoreOriginal: in.RestoreOriginal,
		ResourceId:      standaloneActivityResourceID(in.ActivityID),
	})
	if err != nil {
		return nil, wrapCallError(err, "updating the options of activity %q (run %q)", in.ActivityID, in.RunID)
	}
	return &clientapi.ClientUpdateActivityOptionsOutput{Options: clientapi.ActivityExecutionOptionsFromProto(resp.GetActivityOptions())}, nil
}

// activityOptionsUpdateToProto is the options and field mask of an
// update: each change names its field in the mask, and a change to nil
// leaves the field out, which clears it.
func activityOptionsUpdateToProto(u clientapi.ActivityOptionsUpdate) (*activitypb.ActivityOptions, []string) {
	o := &activitypb.ActivityOptions{}
	var paths []string
	duration := func(c *clientapi.ActivityOptionChange[time.Duration], path string, set func(*durationpb.Duration)) {
		if c == nil {
			return
		}
		paths = append(paths, path)
		if c.Value != nil {
			set(durationpb.New(*c.Value))
		}
	}
	if c := u.TaskQueue; c != nil {
		paths = append(paths, "task_queue.name")
		if c.Value != nil {
			o.TaskQueue = &taskqueuepb.TaskQueue{Name: *c.Value}
		}
	}
	duration(u.ScheduleToCloseTimeout, "schedule_to_close_timeout", func(d *durationpb.Duration) { o.ScheduleToCloseTimeout = d })
	duration(u.ScheduleToStartTimeout, "schedule_to_start_timeout", func(d *durationpb.Duration) { o.ScheduleToStartTimeout = d })
	duration(u.StartToCloseTimeout, "start_to_close_timeout", func(d *durationpb.Duration) { o.StartToCloseTimeout = d })
	duration(u.HeartbeatTimeout, "heartbeat_timeout", func(d *durationpb.Duration) { o.HeartbeatTimeout = d })
	duration(u.StartDelay, "start_delay", func(d *durationpb.Duration) { o.StartDelay = d })
	if c := u.RetryPolicy; c != nil {
		paths = append(paths, "retry_policy")
		if c.Value != nil {
			o.RetryPolicy = policy.RetryPolicyToProto(c.Value)
		}
	}
	if c := u.Priority; c != nil {
		paths = append(paths, "priority")
		if c.Value != nil {
			o.Priority = policy.PriorityToProto(*c.Value)
		}
	}
	return o, paths
}

// ListActivities implements Client. The request for each page is sent as
// Results is iterated.
func (c *workflowClient) ListActivities(ctx context.Context, options clientapi.ListActivitiesOptions) (clientapi.ListActivitiesResult, error) {
	results := func(yield func(*clientapi.ClientActivityExecutionInfo, error) bool) {
		if err := c.ensureInitialized(ctx); err != nil {
			yield(nil, err)
			return
		}
		request := &workflowservice.ListActivityExecutionsRequest{Namespace: c.namespace, Query: options.Query}
		for {
			resp, err := c.service.ListActivityExecutions(ctx, request)
			if err != nil {
				yield(nil, wrapCallError(err, "listing activities"))
				return
			}
			for _, a := range resp.GetExecutions() {
				if !yield(c.activityListed(a), nil) {
					return
				}
			}
			if len(resp.GetNextPageToken()) == 0 {
				return
			}
			request.NextPageToken = resp.GetNextPageToken()
		}
	}
	return clientapi.ListActivitiesResult{Results: results}, nil
}

// activityListed reads one entry of a list.
func (c *workflowClient) activityListed(a *activitypb.ActivityExecutionListInfo) *clientapi.ClientActivityExecutionInfo {
	attributes, err := searchattr.Decode(a.GetSearchAttributes())
	if err != nil {
		c.logger.Warn("Standalone activity: search attributes cannot be decoded", "ActivityID", a.GetActivityId(), "Error", err)
	}
	return &clientapi.ClientActivityExecutionInfo{
		RawExecutionListInfo:  a,
		ActivityID:            a.GetActivityId(),
		ActivityRunID:         a.GetRunId(),
		ActivityType:          a.GetActivityType().GetName(),
		ScheduleTime:          a.GetScheduleTime().AsTime(),
		CloseTime:             a.GetCloseTime().AsTime(),
		Status:                a.GetStatus(),
		TypedSearchAttributes: attributes,
		TaskQueue:             a.GetTaskQueue(),
		ExecutionDuration:     a.GetExecutionDuration().AsDuration(),
		ExecutionTime:         a.GetExecutionTime().AsTime(),
	}
}

// CountActivities implements Client.
func (c *workflowClient) CountActivities(ctx context.Context, options clientapi.CountActivitiesOptions) (*clientapi.CountActivitiesResult, error) {
	resp, err := visibilityCall(ctx, c, "counting activities",
		&workflowservice.CountActivityExecutionsRequest{Namespace: c.namespace, Query: options.Query},
		c.service.CountActivityExecutions)
	if err != nil {
		return nil, err
	}
	result := &clientapi.CountActivitiesResult{
		Count:  resp.GetCount(),
		Groups: make([]clientapi.CountActivitiesAggregationGroup, len(resp.GetGroups())),
	}
	dc := converter.GetDefaultDataConverter() // group values are search attribute values, which no codec touches
	for g, group := range resp.GetGroups() {
		values := make([]any, len(group.GetGroupValues()))
		for i, payload := range group.GetGroupValues() {
			if err := dc.FromPayload(payload, &values[i]); err != nil {
				// The value stays nil, as with go.temporal.io/sdk; the count is still right.
				c.logger.Warn("CountActivities: a group value cannot be decoded", "Group", g, "Value", i, "Error", err)
			}
		}
		result.Groups[g] = clientapi.CountActivitiesAggregationGroup{GroupValues: values, Count: group.GetCount()}
	}
	return result, nil
}
