package workerrt

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
)

// eagerService answers a workflow task's completion as a server with
// eager activities enabled does: with a started activity task for each
// ScheduleActivityTask command that asks for eager execution.
type eagerService struct {
	Service
	mu        sync.Mutex
	requested [][]bool // per completion: each command's RequestEagerExecution
	completed []string // activity IDs reported completed
}

func (s *eagerService) RespondWorkflowTaskCompleted(_ context.Context, req *workflowservice.RespondWorkflowTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := &workflowservice.RespondWorkflowTaskCompletedResponse{}
	var flags []bool
	for _, c := range req.GetCommands() {
		attrs := c.GetScheduleActivityTaskCommandAttributes()
		flags = append(flags, attrs.GetRequestEagerExecution())
		if attrs.GetRequestEagerExecution() {
			resp.ActivityTasks = append(resp.ActivityTasks, activityTask(attrs.GetActivityId(), time.Now()))
		}
	}
	s.requested = append(s.requested, flags)
	return resp, nil
}

func (s *eagerService) RespondActivityTaskCompleted(_ context.Context, req *workflowservice.RespondActivityTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.completed = append(s.completed, string(req.GetTaskToken()))
	return &workflowservice.RespondActivityTaskCompletedResponse{}, nil
}

func scheduleActivity(id, taskQueue string, eager bool) *commandpb.Command {
	return &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK,
		Attributes: &commandpb.Command_ScheduleActivityTaskCommandAttributes{ScheduleActivityTaskCommandAttributes: &commandpb.ScheduleActivityTaskCommandAttributes{
			ActivityId: id, ActivityType: &commonpb.ActivityType{Name: "Charge"},
			TaskQueue: &taskqueuepb.TaskQueue{Name: taskQueue}, RequestEagerExecution: eager,
		}}}
}

func newEagerWorker(t *testing.T, svc Service, opts Options, activity func(id string)) *Worker {
	t.Helper()
	opts.Service, opts.Namespace, opts.TaskQueue = svc, "ns", "tq"
	opts.Logger = logging.NewTextLogger(discard{}, 0)
	opts.FailureConverter = failure.GetDefaultFailureConverter()
	opts.Engine = loopEngine()
	opts.Activities = activityFunc(func(_ context.Context, at *ActivityTask) (*commonpb.Payloads, error) {
		activity(at.Task.GetActivityId())
		return nil, nil
	})
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	w.workCtx = context.Background()
	return w
}

// TestEagerActivitiesRunInReservedSlots completes a workflow task that
// schedules activities: eager execution is kept only for those on the
// worker's own queue, up to the limit per task, and the activities the
// server hands back run in the slots reserved for them.
func TestEagerActivitiesRunInReservedSlots(t *testing.T) {
	svc := &eagerService{}
	ran := make(chan string, 10)
	w := newEagerWorker(t, svc, Options{MaxEagerActivitiesPerTask: 2, MaxConcurrentActivities: 5}, func(id string) { ran <- id })
	req := &workflowservice.RespondWorkflowTaskCompletedRequest{Commands: []*commandpb.Command{
		scheduleActivity("1", "tq", true),
		scheduleActivity("2", "elsewhere", true), // another queue: not this worker's
		scheduleActivity("3", "tq", false),       // its options disable eager execution
		{CommandType: enumspb.COMMAND_TYPE_START_TIMER},
		scheduleActivity("4", "tq", true),
		scheduleActivity("5", "tq", true), // past the limit of 2 per task
	}}
	if _, err := w.respondWorkflowTaskCompleted(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(svc.requested[0]), "[true false false false true false]"; got != want {
		t.Errorf("eager execution requested %v, want %v", got, want)
	}
	got := map[string]bool{<-ran: true, <-ran: true}
	if !got["1"] || !got["4"] {
		t.Errorf("eager activities %v ran, want 1 and 4", got)
	}
	w.running.Wait()
	if n := w.activitySlots.issued.Load(); n != 0 {
		t.Errorf("%d activity slots still held after the eager activities finished", n)
	}
	if len(svc.completed) != 2 {
		t.Errorf("%d eager activities reported completed, want 2", len(svc.completed))
	}
}

// TestEagerActivitiesNeedRoom: no eager execution is asked for without a
// free slot, past MaxConcurrentEagerActivities, when disabled, or once
// the worker stops; unfilled slots are given back.
func TestEagerActivitiesNeedRoom(t *testing.T) {
	requestFor := func(w *Worker, ids ...string) (*workflowservice.RespondWorkflowTaskCompletedRequest, []Permit) {
		req := &workflowservice.RespondWorkflowTaskCompletedRequest{}
		for _, id := range ids {
			req.Commands = append(req.Commands, scheduleActivity(id, "tq", true))
		}
		return req, w.reserveEagerActivities(req)
	}
	nothing := func(string) {}

	w := newEagerWorker(t, &eagerService{}, Options{MaxEagerActivitiesPerTask: 3, MaxConcurrentActivities: 2}, nothing)
	_, permits := requestFor(w, "1", "2", "3")
	if len(permits) != 2 {
		t.Errorf("%d eager activities reserved with 2 free slots, want 2", len(permits))
	}
	w.startEagerActivities(nil, permits) // the server sent none
	if n := w.activitySlots.issued.Load(); n != 0 {
		t.Errorf("%d slots held after the server sent no eager activity, want 0", n)
	}

	w = newEagerWorker(t, &eagerService{}, Options{MaxEagerActivitiesPerTask: 3, MaxConcurrentEagerActivities: 1}, nothing)
	_, held := requestFor(w, "1")
	if _, permits := requestFor(w, "2"); len(held) != 1 || len(permits) != 0 {
		t.Errorf("with at most 1 eager activity: %d and then %d reserved, want 1 and 0", len(held), len(permits))
	}
	w.releaseEagerActivities(held)
	if _, permits := requestFor(w, "3"); len(permits) != 1 {
		t.Errorf("after the eager activity's slot was freed: %d reserved, want 1", len(permits))
	}

	w = newEagerWorker(t, &eagerService{}, Options{}, nothing)
	if req, permits := requestFor(w, "1"); len(permits) != 0 || req.Commands[0].GetScheduleActivityTaskCommandAttributes().GetRequestEagerExecution() {
		t.Error("eager execution asked for with eager activities disabled (MaxEagerActivitiesPerTask 0)")
	}

	w = newEagerWorker(t, &eagerService{}, Options{MaxEagerActivitiesPerTask: 3}, nothing)
	w.Stop()
	if _, permits := requestFor(w, "1"); len(permits) != 0 {
		t.Error("eager execution asked for by a stopping worker")
	}
}

// TestEagerWorkflowSlot: a slot reserved for an eager workflow start runs
// the task it brings, or is given back.
func TestEagerWorkflowSlot(t *testing.T) {
	svc := &memoryService{}
	w := newMetricsWorker(t, svc, nil, 0, nil)
	w.opts.MaxConcurrentWorkflowTasks = 1
	w.workflowSlots = w.newSlots(nil, 1, "")
	take := w.ReserveEagerWorkflowTask()
	if take == nil {
		t.Fatal("no eager workflow slot with one free")
	}
	if again := w.ReserveEagerWorkflowTask(); again != nil {
		t.Fatal("a second eager workflow slot out of one")
	}
	take(nil)
	take(nil) // a second release does nothing
	take = w.ReserveEagerWorkflowTask()
	if take == nil {
		t.Fatal("no eager workflow slot after the first was given back")
	}
	take(workflowTask("run-1", "Once", firstEvents("Once")))
	take(workflowTask("run-2", "Once", firstEvents("Once"))) // the slot ran a task already
	w.running.Wait()
	if got := fmt.Sprint(svc.reports); got != "[RespondWorkflowTaskCompleted]" {
		t.Errorf("reports %s, want the eager task's completion", got)
	}
	if n := w.workflowSlots.issued.Load(); n != 0 {
		t.Errorf("%d workflow slots held after the eager task, want 0", n)
	}
	w.Stop()
	if w.ReserveEagerWorkflowTask() != nil {
		t.Error("an eager workflow slot from a stopped worker")
	}
}
