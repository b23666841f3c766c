package clientimpl

import (
	"context"
	"errors"
	"fmt"

	schedulepb "go.temporal.io/api/schedule/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/memo"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/internal/uuid"
)

// The notes Pause and Unpause record when the caller gives none; the
// official SDK writes the same, and the UI shows them.
const (
	defaultPauseNote   = "Paused via Go SDK"
	defaultUnpauseNote = "Unpaused via Go SDK"
)

// scheduleClient implements ScheduleClient on a workflowClient.
type scheduleClient struct {
	c *workflowClient
}

// scheduleHandle implements ScheduleHandle.
type scheduleHandle struct {
	c  *workflowClient
	id string
}

// ScheduleClient implements Client.
func (c *workflowClient) ScheduleClient() clientapi.ScheduleClient {
	return &scheduleClient{c: c}
}

// Create implements ScheduleClient. The request is sent at the end of the
// interceptor chain (clientRoot.CreateSchedule).
func (s *scheduleClient) Create(ctx context.Context, options clientapi.ScheduleOptions) (clientapi.ScheduleHandle, error) {
	if options.ID == "" {
		return nil, errors.New("ScheduleClient.Create: ScheduleOptions.ID is empty: name the schedule with an ID unique in its namespace")
	}
	if options.Action == nil {
		return nil, fmt.Errorf("ScheduleClient.Create: schedule %q has no Action: set it to a *ScheduleWorkflowAction", options.ID)
	}
	return s.c.interceptor.CreateSchedule(propagation.ContextWithNewHeader(ctx), &clientapi.ScheduleClientCreateInput{Options: &options})
}

// CreateSchedule sends the CreateSchedule request.
func (r *clientRoot) CreateSchedule(ctx context.Context, in *clientapi.ScheduleClientCreateInput) (clientapi.ScheduleHandle, error) {
	c, options := r.c, in.Options
	schedule, err := c.scheduleToProto(ctx, &clientapi.Schedule{
		Action: options.Action,
		Spec:   &options.Spec,
		Policy: &clientapi.SchedulePolicies{Overlap: options.Overlap, CatchupWindow: options.CatchupWindow, PauseOnFailure: options.PauseOnFailure},
		State: &clientapi.ScheduleState{
			Note:             options.Note,
			Paused:           options.Paused,
			LimitedActions:   options.RemainingActions != 0,
			RemainingActions: options.RemainingActions,
		},
	})
	if err != nil {
		return nil, fmt.Errorf("ScheduleClient.Create: schedule %q: %w", options.ID, err)
	}
	encodedMemo, err := memo.Encode(c.scheduleDataConverter(ctx), options.Memo)
	if err != nil {
		return nil, fmt.Errorf("ScheduleClient.Create: schedule %q: %w", options.ID, err)
	}
	//lint:ignore SA1019 the deprecated untyped form is still sent, as go.temporal.io/sdk sends it
	searchAttributes, err := searchattr.EncodeForStart(options.SearchAttributes, options.TypedSearchAttributes)
	if err != nil {
		return nil, fmt.Errorf("ScheduleClient.Create: schedule %q: %w", options.ID, err)
	}
	// Only a schedule that must act at once gets an initial patch.
	var initialPatch *schedulepb.SchedulePatch
	if options.TriggerImmediately || len(options.ScheduleBackfill) > 0 {
		initialPatch = &schedulepb.SchedulePatch{BackfillRequest: backfillsToProto(options.ScheduleBackfill)}
		if options.TriggerImmediately {
			initialPatch.TriggerImmediately = &schedulepb.TriggerImmediatelyRequest{OverlapPolicy: options.Overlap}
		}
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	_, err = c.service.CreateSchedule(ctx, &workflowservice.CreateScheduleRequest{
		Namespace:        c.namespace,
		ScheduleId:       options.ID,
		Schedule:         schedule,
		InitialPatch:     initialPatch,
		Identity:         c.identity,
		RequestId:        uuid.New(),
		Memo:             encodedMemo,
		SearchAttributes: searchAttributes,
	})
	var exists *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &exists) {
		return nil, clientapi.ErrScheduleAlreadyRunning
	}
	if err != nil {
		return nil, wrapCallError(err, "creating schedule %q", options.ID)
	}
	return &scheduleHandle{c: c, id: options.ID}, nil
}

// scheduleDataConverter encodes a schedule's own memo: the client's
// converter, told the Go context.
func (c *workflowClient) scheduleDataConverter(ctx context.Context) converter.DataConverter {
	if aware, ok := c.dataConverter.(converter.ContextAware); ok {
		return aware.WithContext(ctx)
	}
	return c.dataConverter
}

// GetHandle implements ScheduleClient.
func (s *scheduleClient) GetHandle(_ context.Context, scheduleID string) clientapi.ScheduleHandle {
	return &scheduleHandle{c: s.c, id: scheduleID}
}

// List implements ScheduleClient. Pages are fetched as the iterator
// reaches them, with ctx.
func (s *scheduleClient) List(ctx context.Context, options clientapi.ScheduleListOptions) (clientapi.ScheduleListIterator, error) {
	c := s.c
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	return newScheduleListIterator(func(token []byte) (*workflowservice.ListSchedulesResponse, error) {
		resp, err := c.service.ListSchedules(ctx, &workflowservice.ListSchedulesRequest{
			Namespace:       c.namespace,
			MaximumPageSize: int32(options.PageSize),
			NextPageToken:   token,
			Query:           options.Query,
		})
		return resp, wrapCallError(err, "listing schedules")
	}), nil
}

// newScheduleListIterator walks the pages of ListSchedules.
func newScheduleListIterator(fetch func(token []byte) (*workflowservice.ListSchedulesResponse, error)) clientapi.ScheduleListIterator {
	return &pageIterator[*workflowservice.ListSchedulesResponse, *schedulepb.ScheduleListEntry, *clientapi.ScheduleListEntry]{
		name:  "ScheduleListIterator",
		fetch: fetch,
		read: func(r *workflowservice.ListSchedulesResponse) ([]*schedulepb.ScheduleListEntry, []byte) {
			return r.GetSchedules(), r.GetNextPageToken()
		},
		convert: scheduleListEntryFromProto,
	}
}

// GetID implements ScheduleHandle.
func (h *scheduleHandle) GetID() string { return h.id }

// Describe implements ScheduleHandle.
func (h *scheduleHandle) Describe(ctx context.Context) (*clientapi.ScheduleDescription, error) {
	c := h.c
	resp, err := h.describe(ctx)
	if err != nil {
		return nil, err
	}
	d, err := scheduleDescriptionFromProto(c.logger, c.dataConverter, c.namespace, resp)
	if err != nil {
		return nil, fmt.Errorf("describing schedule %q: %w", h.id, err)
	}
	return d, nil
}

func (h *scheduleHandle) describe(ctx context.Context) (*workflowservice.DescribeScheduleResponse, error) {
	c := h.c
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	resp, err := c.service.DescribeSchedule(ctx, &workflowservice.DescribeScheduleRequest{Namespace: c.namespace, ScheduleId: h.id})
	if err != nil {
		return nil, wrapCallError(err, "describing schedule %q", h.id)
	}
	return resp, nil
}

// Update implements ScheduleHandle: the schedule is read, changed by
// DoUpdate and written back whole. As in the official SDK, a change made
// by someone else in between is overwritten.
func (h *scheduleHandle) Update(ctx context.Context, options clientapi.ScheduleUpdateOptions) error {
	if options.DoUpdate == nil {
		return fmt.Errorf("updating schedule %q: ScheduleUpdateOptions.DoUpdate is nil: give the function that returns the new schedule", h.id)
	}
	ctx = propagation.ContextWithNewHeader(ctx)
	current, err := h.Describe(ctx)
	if err != nil {
		return err
	}
	update, err := options.DoUpdate(clientapi.ScheduleUpdateInput{Description: *current})
	if err = failure.SafeChain(err); errors.Is(err, clientapi.ErrSkipScheduleUpdate) {
		return nil
	}
	if err != nil {
		return err
	}
	if update == nil || update.Schedule == nil {
		return fmt.Errorf("updating schedule %q: DoUpdate returned no schedule: return ErrSkipScheduleUpdate to leave it unchanged", h.id)
	}
	c := h.c
	schedule, err := c.scheduleToProto(ctx, update.Schedule)
	if err != nil {
		return fmt.Errorf("updating schedule %q: %w", h.id, err)
	}
	request := &workflowservice.UpdateScheduleRequest{
		Namespace:  c.namespace,
		ScheduleId: h.id,
		Schedule:   schedule,
		Identity:   c.identity,
		RequestId:  uuid.New(),
	}
	if update.TypedSearchAttributes != nil {
		if request.SearchAttributes, err = searchattr.Encode(*update.TypedSearchAttributes); err != nil {
			return fmt.Errorf("updating schedule %q: %w", h.id, err)
		}
	}
	_, err = c.service.UpdateSchedule(ctx, request)
	return wrapCallError(err, "updating schedule %q", h.id)
}

// Delete implements ScheduleHandle.
func (h *scheduleHandle) Delete(ctx context.Context) error {
	c := h.c
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	_, err := c.service.DeleteSchedule(ctx, &workflowservice.DeleteScheduleRequest{
		Namespace:  c.namespace,
		ScheduleId: h.id,
		Identity:   c.identity,
	})
	return wrapCallError(err, "deleting schedule %q", h.id)
}

// Trigger implements ScheduleHandle.
func (h *scheduleHandle) Trigger(ctx context.Context, options clientapi.ScheduleTriggerOptions) error {
	return h.patch(ctx, "triggering", &schedulepb.SchedulePatch{
		TriggerImmediately: &schedulepb.TriggerImmediatelyRequest{OverlapPolicy: options.Overlap},
	})
}

// Backfill implements ScheduleHandle.
func (h *scheduleHandle) Backfill(ctx context.Context, options clientapi.ScheduleBackfillOptions) error {
	return h.patch(ctx, "backfilling", &schedulepb.SchedulePatch{BackfillRequest: backfillsToProto(options.Backfill)})
}

// Pause implements ScheduleHandle.
func (h *scheduleHandle) Pause(ctx context.Context, options clientapi.SchedulePauseOptions) error {
	note := options.Note
	if note == "" {
		note = defaultPauseNote
	}
	return h.patch(ctx, "pausing", &schedulepb.SchedulePatch{Pause: note})
}

// Unpause implements ScheduleHandle.
func (h *scheduleHandle) Unpause(ctx context.Context, options clientapi.ScheduleUnpauseOptions) error {
	note := options.Note
	if note == "" {
		note = defaultUnpauseNote
	}
	return h.patch(ctx, "unpausing", &schedulepb.SchedulePatch{Unpause: note})
}

// patch sends a PatchSchedule request; doing names the operation in
// errors.
func (h *scheduleHandle) patch(ctx context.Context, doing string, patch *schedulepb.SchedulePatch) error {
	c := h.c
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	_, err := c.service.PatchSchedule(ctx, &workflowservice.PatchScheduleRequest{
		Namespace:  c.namespace,
		ScheduleId: h.id,
		Patch:      patch,
		Identity:   c.identity,
		RequestId:  uuid.New(),
	})
	return wrapCallError(err, "%s schedule %q", doing, h.id)
}
