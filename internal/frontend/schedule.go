package frontend

import (
	"context"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/testserver"
)

// The schedule calls of client.ScheduleClient, over the schedules of the
// namespace's in-memory server (internal/testserver/schedule.go), which
// starts their workflows through startScheduledWorkflow, as a server's
// scheduler starts them through its frontend.

// scheduleServer is the in-memory server of the namespace a schedule call
// names.
func (f *Frontend) scheduleServer(namespace string) (*testserver.Server, error) {
	return f.serverOf(namespace)
}

// startScheduledWorkflow starts a schedule's workflow as a client's start
// would be: the workflow ID policies and the start's defaults apply.
func (f *Frontend) startScheduledWorkflow(req *workflowservice.StartWorkflowExecutionRequest) (*workflowservice.StartWorkflowExecutionResponse, error) {
	return f.StartWorkflowExecution(context.Background(), req)
}

// CreateSchedule creates a schedule.
func (f *Frontend) CreateSchedule(_ context.Context, req *workflowservice.CreateScheduleRequest) (*workflowservice.CreateScheduleResponse, error) {
	s, err := f.scheduleServer(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return s.CreateSchedule(req)
}

// DescribeSchedule describes a schedule.
func (f *Frontend) DescribeSchedule(_ context.Context, req *workflowservice.DescribeScheduleRequest) (*workflowservice.DescribeScheduleResponse, error) {
	s, err := f.scheduleServer(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return s.DescribeSchedule(req.GetScheduleId())
}

// UpdateSchedule replaces a schedule's definition.
func (f *Frontend) UpdateSchedule(_ context.Context, req *workflowservice.UpdateScheduleRequest) (*workflowservice.UpdateScheduleResponse, error) {
	s, err := f.scheduleServer(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := s.UpdateSchedule(req); err != nil {
		return nil, err
	}
	return &workflowservice.UpdateScheduleResponse{}, nil
}

// PatchSchedule triggers, backfills, pauses or unpauses a schedule.
func (f *Frontend) PatchSchedule(_ context.Context, req *workflowservice.PatchScheduleRequest) (*workflowservice.PatchScheduleResponse, error) {
	s, err := f.scheduleServer(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := s.PatchSchedule(req); err != nil {
		return nil, err
	}
	return &workflowservice.PatchScheduleResponse{}, nil
}

// DeleteSchedule deletes a schedule.
func (f *Frontend) DeleteSchedule(_ context.Context, req *workflowservice.DeleteScheduleRequest) (*workflowservice.DeleteScheduleResponse, error) {
	s, err := f.scheduleServer(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := s.DeleteSchedule(req.GetScheduleId()); err != nil {
		return nil, err
	}
	return &workflowservice.DeleteScheduleResponse{}, nil
}

// ListSchedules lists the namespace's schedules, those a query matches
// when it has one (schedulelist.go).
func (f *Frontend) ListSchedules(_ context.Context, req *workflowservice.ListSchedulesRequest) (*workflowservice.ListSchedulesResponse, error) {
	s, err := f.scheduleServer(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if req.GetQuery() != "" {
		return listSchedulesFiltered(s, req) // schedulelist.go
	}
	return s.ListSchedules(req)
}

// ListScheduleMatchingTimes lists the times a schedule's spec names in a
// range.
func (f *Frontend) ListScheduleMatchingTimes(_ context.Context, req *workflowservice.ListScheduleMatchingTimesRequest) (*workflowservice.ListScheduleMatchingTimesResponse, error) {
	s, err := f.scheduleServer(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return s.ListScheduleMatchingTimes(req)
}
