package workerrt

import (
	"context"
	"errors"
	"maps"
	"strconv"
	"sync"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/metricstest"
	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// loop is a workflow without coroutines: each task schedules one activity,
// or, for the type "Once", completes the workflow at its first task.
type loop struct {
	x    *engine.Run
	once bool
}

func (l *loop) Start(x *engine.Run, _ *historypb.WorkflowExecutionStartedEventAttributes) error {
	l.x = x
	return nil
}

func (l *loop) Run() error {
	if l.once {
		l.x.CloseWorkflow(engine.Close{})
		return nil
	}
	_, err := l.x.ScheduleActivity(&commandpb.ScheduleActivityTaskCommandAttributes{ActivityType: &commonpb.ActivityType{Name: "Charge"}},
		"", false, nil, func(*commonpb.Payloads, error) {})
	return err
}

func (*loop) Signal(string, *commonpb.Payloads, *commonpb.Header) error { return nil }
func (*loop) Cancel()                                                   {}
func (*loop) Update(*engine.Update)                                     {}
func (*loop) Query(string, *commonpb.Payloads, *commonpb.Header) (*commonpb.Payloads, error) {
	return nil, nil
}
func (*loop) StackTrace() string { return "" }
func (*loop) Close()             {}

func loopEngine() *engine.Options {
	return &engine.Options{
		FailureConverter: failure.GetDefaultFailureConverter(),
		NewWorkflow: func(typ string) (engine.Workflow, error) {
			if typ != "Loop" && typ != "Once" {
				return nil, errors.New("workflow type " + typ + " is not registered")
			}
			return &loop{once: typ == "Once"}, nil
		},
	}
}

// runStart is when the test runs started: an hour ago.
var runStart = time.Now().Add(-time.Hour)

// firstEvents are a run's events up to its first workflow task.
func firstEvents(workflowType string) []*historypb.HistoryEvent {
	return []*historypb.HistoryEvent{
		{EventId: 1, EventTime: timestamppb.New(runStart), EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
				WorkflowType: &commonpb.WorkflowType{Name: workflowType}, TaskQueue: &taskqueuepb.TaskQueue{Name: "tq"}}}},
		{EventId: 2, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED},
		{EventId: 3, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED},
	}
}

// nextEvents are the events of the task after the one that started at
// startedID scheduled an activity: it completed, and a task started.
func nextEvents(startedID int64) []*historypb.HistoryEvent {
	id := startedID
	ev := func(t enumspb.EventType) *historypb.HistoryEvent {
		id++
		return &historypb.HistoryEvent{EventId: id, EventType: t}
	}
	completed := ev(enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
	scheduled := ev(enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
	scheduled.Attributes = &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
		ActivityId: strconv.FormatInt(scheduled.EventId, 10), ActivityType: &commonpb.ActivityType{Name: "Charge"}}}
	started := ev(enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED)
	started.Attributes = &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: scheduled.EventId}}
	done := ev(enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
	done.Attributes = &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{
		ScheduledEventId: scheduled.EventId, StartedEventId: started.EventId}}
	return []*historypb.HistoryEvent{completed, scheduled, started, done,
		ev(enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED), ev(enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED)}
}

func workflowTask(runID, workflowType string, events []*historypb.HistoryEvent) *workflowservice.PollWorkflowTaskQueueResponse {
	return &workflowservice.PollWorkflowTaskQueueResponse{
		TaskToken:         []byte(runID),
		WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: "wf-" + runID, RunId: runID},
		WorkflowType:      &commonpb.WorkflowType{Name: workflowType},
		History:           &historypb.History{Events: events},
		Attempt:           1,
	}
}

// memoryService answers a worker's calls in memory: polls from queued
// responses (an empty one when none is queued), reports recorded with the
// request tags of their context, histories from a map.
type memoryService struct {
	Service // calls not implemented here panic
	metrics *metricstest.Handler

	mu                sync.Mutex
	workflowTasks     []*workflowservice.PollWorkflowTaskQueueResponse
	activityTasks     []*workflowservice.PollActivityTaskQueueResponse
	histories         map[string][]*historypb.HistoryEvent // by run ID
	reports           []string                             // the report calls made, in order
	reportTags        []map[string]string                  // their request tags
	pollersDuringPoll []float64                            // temporal_num_pollers seen by each poll
}

func (s *memoryService) report(ctx context.Context, call string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reports = append(s.reports, call)
	s.reportTags = append(s.reportTags, sdkmetrics.RequestTags(ctx))
}

func (s *memoryService) PollWorkflowTaskQueue(_ context.Context, req *workflowservice.PollWorkflowTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.metrics != nil {
		v, _ := s.metrics.GaugeValue(sdkmetrics.NumPollers, map[string]string{sdkmetrics.TagPollerType: sdkmetrics.PollerTypeWorkflowTask})
		s.pollersDuringPoll = append(s.pollersDuringPoll, v)
	}
	if len(s.workflowTasks) == 0 {
		return &workflowservice.PollWorkflowTaskQueueResponse{}, nil
	}
	t := s.workflowTasks[0]
	s.workflowTasks = s.workflowTasks[1:]
	return t, nil
}

func (s *memoryService) PollActivityTaskQueue(_ context.Context, _ *workflowservice.PollActivityTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollActivityTaskQueueResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.activityTasks) == 0 {
		return &workflowservice.PollActivityTaskQueueResponse{}, nil
	}
	t := s.activityTasks[0]
	s.activityTasks = s.activityTasks[1:]
	return t, nil
}

func (s *memoryService) RespondWorkflowTaskCompleted(ctx context.Context, _ *workflowservice.RespondWorkflowTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	s.report(ctx, "RespondWorkflowTaskCompleted")
	return &workflowservice.RespondWorkflowTaskCompletedResponse{}, nil
}

func (s *memoryService) RespondWorkflowTaskFailed(ctx context.Context, _ *workflowservice.RespondWorkflowTaskFailedRequest, _ ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskFailedResponse, error) {
	s.report(ctx, "RespondWorkflowTaskFailed")
	return &workflowservice.RespondWorkflowTaskFailedResponse{}, nil
}

func (s *memoryService) GetWorkflowExecutionHistory(ctx context.Context, req *workflowservice.GetWorkflowExecutionHistoryRequest, _ ...grpc.CallOption) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	s.report(ctx, "GetWorkflowExecutionHistory")
	s.mu.Lock()
	defer s.mu.Unlock()
	return &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{Events: s.histories[req.GetExecution().GetRunId()]}}, nil
}

func (s *memoryService) RespondActivityTaskCompleted(ctx context.Context, _ *workflowservice.RespondActivityTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	s.report(ctx, "RespondActivityTaskCompleted")
	return &workflowservice.RespondActivityTaskCompletedResponse{}, nil
}

func (s *memoryService) RespondActivityTaskFailed(ctx context.Context, _ *workflowservice.RespondActivityTaskFailedRequest, _ ...grpc.CallOption) (*workflowservice.RespondActivityTaskFailedResponse, error) {
	s.report(ctx, "RespondActivityTaskFailed")
	return &workflowservice.RespondActivityTaskFailedResponse{}, nil
}

func newMetricsWorker(t testing.TB, svc *memoryService, handler sdkmetrics.Handler, cacheSize int, activities ActivityExecutor) *Worker {
	t.Helper()
	opts := Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Logger: logging.NewTextLogger(discard{}, 0),
		FailureConverter: failure.GetDefaultFailureConverter(), Cache: NewStickyCache(cacheSize), Metrics: handler}
	if activities != nil {
		opts.Activities = activities
	} else {
		opts.Engine = loopEngine()
	}
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// queueTagged is the tags of the worker's metrics: the task queue, and
// those given.
func queueTagged(kv ...string) map[string]string {
	tags := map[string]string{sdkmetrics.TagTaskQueue: "tq"}
	for i := 0; i+1 < len(kv); i += 2 {
		tags[kv[i]] = kv[i+1]
	}
	return tags
}

func wantCounter(t *testing.T, m *metricstest.Handler, name string, tags map[string]string, want int64) {
	t.Helper()
	if got := m.CounterValue(name, tags); got != want {
		t.Errorf("%s%v = %d, want %d", name, tags, got, want)
	}
}

func wantTimings(t *testing.T, m *metricstest.Handler, name string, tags map[string]string, want int) []time.Duration {
	t.Helper()
	d := m.TimerDurations(name, tags)
	if len(d) != want {
		t.Errorf("%s%v recorded %d durations, want %d", name, tags, len(d), want)
	}
	return d
}

// TestWorkflowTaskMetrics drives workflow tasks through the worker: a
// run's first task, its continuation on the cached run (a hit), a task of
// an uncached run that holds only new events (a miss), a task that closes
// its run, and one that fails.
func TestWorkflowTaskMetrics(t *testing.T) {
	metrics := metricstest.NewHandler()
	svc := &memoryService{histories: map[string][]*historypb.HistoryEvent{}}
	w := newMetricsWorker(t, svc, metrics, 10, nil)
	loopTags := queueTagged(sdkmetrics.TagWorkflowType, "Loop")

	w.processWorkflowTask(workflowTask("a", "Loop", firstEvents("Loop")))
	wantCounter(t, metrics, sdkmetrics.StickyCacheHit, nil, 0)
	wantCounter(t, metrics, sdkmetrics.StickyCacheMiss, nil, 0)
	w.processWorkflowTask(workflowTask("a", "Loop", nextEvents(3)))
	wantCounter(t, metrics, sdkmetrics.StickyCacheHit, loopTags, 1)

	svc.histories["b"] = append(firstEvents("Loop"), nextEvents(3)...)
	w.processWorkflowTask(workflowTask("b", "Loop", nextEvents(3)))
	wantCounter(t, metrics, sdkmetrics.StickyCacheMiss, loopTags, 1)
	if v, _ := metrics.GaugeValue(sdkmetrics.StickyCacheSize, loopTags); v != 2 {
		t.Errorf("temporal_sticky_cache_size %v, want 2", v)
	}
	wantTimings(t, metrics, sdkmetrics.WorkflowTaskExecutionLatency, loopTags, 3)
	wantTimings(t, metrics, sdkmetrics.WorkflowTaskReplayLatency, loopTags, 3)

	onceTags := queueTagged(sdkmetrics.TagWorkflowType, "Once")
	w.processWorkflowTask(workflowTask("c", "Once", firstEvents("Once")))
	wantCounter(t, metrics, sdkmetrics.WorkflowCompleted, onceTags, 1)
	if d := wantTimings(t, metrics, sdkmetrics.WorkflowEndToEndLatency, onceTags, 1); len(d) == 1 && d[0] < time.Hour {
		t.Errorf("temporal_workflow_endtoend_latency %v of a run started an hour ago", d[0])
	}

	unknownTags := queueTagged(sdkmetrics.TagWorkflowType, "Unknown")
	w.processWorkflowTask(workflowTask("d", "Unknown", firstEvents("Unknown")))
	failures := metrics.CounterSeries(sdkmetrics.WorkflowTaskExecutionFailed)
	want := queueTagged(sdkmetrics.TagWorkflowType, "Unknown", sdkmetrics.TagFailureReason, sdkmetrics.FailureReasonWorkflowError)
	if len(failures) != 1 || !maps.Equal(failures[0].Tags, want) {
		t.Errorf("temporal_workflow_task_execution_failed series %v, want one tagged %v", failures, want)
	}
	wantCounter(t, metrics, sdkmetrics.WorkflowTaskExecutionFailed, unknownTags, 1)
	wantTimings(t, metrics, sdkmetrics.WorkflowTaskExecutionLatency, unknownTags, 1)

	// Reports are tagged with the workflow type, history reads with the
	// task queue.
	for i, call := range svc.reports {
		tags := svc.reportTags[i]
		switch call {
		case "GetWorkflowExecutionHistory":
			if !maps.Equal(tags, queueTagged()) {
				t.Errorf("%s tagged %v, want the task queue", call, tags)
			}
		default:
			if tags[sdkmetrics.TagWorkflowType] == "" || len(tags) != 1 {
				t.Errorf("%s tagged %v, want the workflow type", call, tags)
			}
		}
	}
}

// TestForcedEvictionCountsOpenRunsDroppedForRoom: a full cache drops its
// least recently used run to make room (forced); a purge counts nothing.
func TestForcedEvictionCountsOpenRunsDroppedForRoom(t *testing.T) {
	metrics := metricstest.NewHandler()
	svc := &memoryService{}
	w := newMetricsWorker(t, svc, metrics, 1, nil)
	w.processWorkflowTask(workflowTask("a", "Loop", firstEvents("Loop")))
	wantCounter(t, metrics, sdkmetrics.StickyCacheTotalForcedEviction, nil, 0)
	w.processWorkflowTask(workflowTask("b", "Loop", firstEvents("Loop")))
	series := metrics.CounterSeries(sdkmetrics.StickyCacheTotalForcedEviction)
	if len(series) != 1 || !maps.Equal(series[0].Tags, queueTagged()) {
		t.Errorf("forced eviction series %v, want one tagged with the task queue only", series)
	}
	wantCounter(t, metrics, sdkmetrics.StickyCacheTotalForcedEviction, nil, 1)
	w.opts.Cache.Purge()
	wantCounter(t, metrics, sdkmetrics.StickyCacheTotalForcedEviction, nil, 1)
}

// TestPollMetrics: empty polls are counted apart from those that bring a
// task, whose schedule-to-start latency is the server's times' difference;
// temporal_num_pollers counts the poll while it is in flight.
func TestPollMetrics(t *testing.T) {
	metrics := metricstest.NewHandler()
	scheduled := time.Now().Add(-time.Minute)
	task := workflowTask("a", "Loop", firstEvents("Loop"))
	task.ScheduledTime, task.StartedTime = timestamppb.New(scheduled), timestamppb.New(scheduled.Add(3*time.Second))
	svc := &memoryService{metrics: metrics, workflowTasks: []*workflowservice.PollWorkflowTaskQueueResponse{{}, task}}
	w := newMetricsWorker(t, svc, metrics, 10, nil)
	for range 2 {
		if _, _, err := w.pollWorkflowTask(context.Background(), w.normalQueue()); err != nil {
			t.Fatal(err)
		}
	}
	wantCounter(t, metrics, sdkmetrics.WorkflowTaskQueuePollEmpty, queueTagged(), 1)
	loopTags := queueTagged(sdkmetrics.TagWorkflowType, "Loop")
	wantCounter(t, metrics, sdkmetrics.WorkflowTaskQueuePollSucceed, loopTags, 1)
	if d := wantTimings(t, metrics, sdkmetrics.WorkflowTaskScheduleToStartLatency, loopTags, 1); len(d) == 1 && d[0] != 3*time.Second {
		t.Errorf("schedule-to-start %v, want 3s", d[0])
	}
	pollers := queueTagged(sdkmetrics.TagPollerType, sdkmetrics.PollerTypeWorkflowTask)
	if v, _ := metrics.GaugeValue(sdkmetrics.NumPollers, pollers); v != 0 || len(svc.pollersDuringPoll) != 2 || svc.pollersDuringPoll[0] != 1 {
		t.Errorf("temporal_num_pollers %v after the polls, %v during them; want 0 after, 1 during", v, svc.pollersDuringPoll)
	}
}

// activityFunc runs activity code from a function.
type activityFunc func(ctx context.Context, t *ActivityTask) (*commonpb.Payloads, error)

func (f activityFunc) Execute(ctx context.Context, t *ActivityTask) (*commonpb.Payloads, error) {
	return f(ctx, t)
}

func activityTask(id string, scheduled time.Time) *workflowservice.PollActivityTaskQueueResponse {
	return &workflowservice.PollActivityTaskQueueResponse{
		TaskToken: []byte(id), ActivityId: id,
		WorkflowType: &commonpb.WorkflowType{Name: "Loop"}, ActivityType: &commonpb.ActivityType{Name: "Charge"},
		ScheduledTime:               timestamppb.New(scheduled),
		CurrentAttemptScheduledTime: timestamppb.New(scheduled.Add(time.Minute)),
		StartedTime:                 timestamppb.New(scheduled.Add(time.Minute + 2*time.Second)),
	}
}

// TestActivityTaskMetrics runs activity attempts that succeed, fail, fail
// with a benign error and complete asynchronously.
func TestActivityTaskMetrics(t *testing.T) {
	metrics := metricstest.NewHandler()
	scheduled := time.Now().Add(-time.Hour)
	svc := &memoryService{activityTasks: []*workflowservice.PollActivityTaskQueueResponse{
		activityTask("ok", scheduled), activityTask("fails", scheduled), activityTask("benign", scheduled), activityTask("async", scheduled), {}}}
	outcomes := map[string]error{
		"ok":     nil,
		"fails":  errors.New("broken"),
		"benign": failure.NewApplicationErrorWithOptions("expected", "Expected", failure.ApplicationErrorOptions{Category: failure.ApplicationErrorCategoryBenign}),
		"async":  ErrResultPending,
	}
	w := newMetricsWorker(t, svc, metrics, 0, activityFunc(func(_ context.Context, t *ActivityTask) (*commonpb.Payloads, error) {
		return nil, outcomes[t.Task.GetActivityId()]
	}))
	w.workCtx = context.Background()
	for {
		task, ok, err := w.pollActivityTask(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		w.handleActivityTask(task)
	}
	act := queueTagged(sdkmetrics.TagWorkflowType, "Loop", sdkmetrics.TagActivityType, "Charge")
	wantCounter(t, metrics, sdkmetrics.ActivityPollNoTask, queueTagged(), 1)
	for _, d := range wantTimings(t, metrics, sdkmetrics.ActivityScheduleToStartLatency, act, 4) {
		if d != 2*time.Second {
			t.Errorf("activity schedule-to-start %v, want 2s: from the current attempt's scheduling", d)
		}
	}
	wantTimings(t, metrics, sdkmetrics.ActivityExecutionLatency, act, 4)
	if d := wantTimings(t, metrics, sdkmetrics.ActivitySucceedEndToEndLatency, act, 1); len(d) == 1 && d[0] < time.Hour {
		t.Errorf("activity end-to-end %v, want from the first scheduling, an hour ago", d[0])
	}
	failed := queueTagged(sdkmetrics.TagWorkflowType, "Loop", sdkmetrics.TagActivityType, "Charge", sdkmetrics.TagFailureReason, sdkmetrics.FailureReasonActivityError)
	wantCounter(t, metrics, sdkmetrics.ActivityExecutionFailed, failed, 1) // not the benign one
	for i, call := range svc.reports {
		want := map[string]string{sdkmetrics.TagWorkflowType: "Loop", sdkmetrics.TagActivityType: "Charge"}
		if !maps.Equal(svc.reportTags[i], want) {
			t.Errorf("%s tagged %v, want %v", call, svc.reportTags[i], want)
		}
	}
}

// TestSlotGauges: a slot is used while it holds a task, available
// otherwise (waiting on a poll included).
func TestSlotGauges(t *testing.T) {
	metrics := metricstest.NewHandler()
	m := newWorkerMetrics(metrics, "tq")
	s := newSlots(NewFixedSlots(3), "tq", "me", m.slotGauges(sdkmetrics.WorkerTypeActivity))
	tags := queueTagged(sdkmetrics.TagWorkerType, sdkmetrics.WorkerTypeActivity)
	check := func(available, used float64) {
		t.Helper()
		a, _ := metrics.GaugeValue(sdkmetrics.WorkerTaskSlotsAvailable, tags)
		u, _ := metrics.GaugeValue(sdkmetrics.WorkerTaskSlotsUsed, tags)
		if a != available || u != used {
			t.Errorf("slots available %v, used %v; want %v, %v", a, u, available, used)
		}
	}
	check(3, 0)
	var permits []Permit
	for range 2 {
		p, err := s.reserve(context.Background(), enumspb.TASK_QUEUE_KIND_NORMAL)
		if err != nil {
			t.Fatal(err)
		}
		permits = append(permits, p)
	}
	check(3, 0) // polling
	s.markUsed(permits[0])
	check(2, 1)
	s.release(permits[1], false) // the other poll came back empty
	s.release(permits[0], true)
	check(3, 0)
	// Local activity slots are gauged apart from activity slots.
	local := newSlots(NewFixedSlots(5), "tq", "me", m.slotGauges(sdkmetrics.WorkerTypeLocalActivity))
	p, _ := local.reserve(context.Background(), enumspb.TASK_QUEUE_KIND_UNSPECIFIED)
	local.markUsed(p)
	check(3, 0)
	localTags := queueTagged(sdkmetrics.TagWorkerType, sdkmetrics.WorkerTypeLocalActivity)
	if a, _ := metrics.GaugeValue(sdkmetrics.WorkerTaskSlotsAvailable, localTags); a != 4 {
		t.Errorf("local activity slots available %v, want 4", a)
	}
}

func TestCloseCounterNamesHowTheRunClosed(t *testing.T) {
	benign := &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION,
		Attributes: &commandpb.Command_FailWorkflowExecutionCommandAttributes{FailWorkflowExecutionCommandAttributes: &commandpb.FailWorkflowExecutionCommandAttributes{
			Failure: failure.GetDefaultFailureConverter().ErrorToFailure(failure.NewApplicationErrorWithOptions("x", "X", failure.ApplicationErrorOptions{Category: failure.ApplicationErrorCategoryBenign}))}}}
	timer := &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_START_TIMER}
	cases := []struct {
		commands []*commandpb.Command
		counter  string
		closes   bool
	}{
		{[]*commandpb.Command{timer}, "", false},
		{[]*commandpb.Command{timer, {CommandType: enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION}}, sdkmetrics.WorkflowCompleted, true},
		{[]*commandpb.Command{{CommandType: enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION}}, sdkmetrics.WorkflowFailed, true},
		{[]*commandpb.Command{benign}, "", true},
		{[]*commandpb.Command{{CommandType: enumspb.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION}}, sdkmetrics.WorkflowCanceled, true},
		{[]*commandpb.Command{{CommandType: enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION}}, sdkmetrics.WorkflowContinueAsNew, true},
	}
	for _, c := range cases {
		if counter, closes := closeCounter(c.commands); counter != c.counter || closes != c.closes {
			t.Errorf("closeCounter(%v) = %q, %v; want %q, %v", c.commands, counter, closes, c.counter, c.closes)
		}
	}
}

// BenchmarkWorkflowTaskMetrics is one sticky workflow task through the
// worker (its cached run continues, one command goes back to an in-memory
// service) without a metrics handler, with the no-op handler, and with a
// recording one. Without a handler, or with the no-op one, no metrics code
// runs: both cost the same.
func BenchmarkWorkflowTaskMetrics(b *testing.B) {
	handlers := []struct {
		name    string
		handler sdkmetrics.Handler
	}{
		{"unset", nil},
		{"nop", sdkmetrics.NopHandler},
		{"recording", metricstest.NewHandler()},
	}
	for _, h := range handlers {
		b.Run(h.name, func(b *testing.B) {
			svc := &memoryService{}
			w := newMetricsWorker(b, svc, h.handler, 10, nil)
			w.processWorkflowTask(workflowTask("a", "Loop", firstEvents("Loop")))
			started := int64(3)
			b.ReportAllocs()
			for b.Loop() {
				events := nextEvents(started)
				started = events[len(events)-1].GetEventId()
				w.processWorkflowTask(workflowTask("a", "Loop", events))
				svc.reports, svc.reportTags = svc.reports[:0], svc.reportTags[:0]
			}
			if run := w.opts.Cache.get("a"); run == nil || run.exec.LastStartedEventID() != started {
				b.Fatal("the run did not continue from the cache")
			}
		})
	}
}

// BenchmarkActivityTaskMetrics is one activity attempt through the worker,
// from its poll to its report, with the same handlers.
func BenchmarkActivityTaskMetrics(b *testing.B) {
	handlers := []struct {
		name    string
		handler sdkmetrics.Handler
	}{
		{"unset", nil},
		{"nop", sdkmetrics.NopHandler},
		{"recording", metricstest.NewHandler()},
	}
	task := activityTask("ok", time.Now())
	for _, h := range handlers {
		b.Run(h.name, func(b *testing.B) {
			svc := &memoryService{}
			w := newMetricsWorker(b, svc, h.handler, 0, activityFunc(func(context.Context, *ActivityTask) (*commonpb.Payloads, error) {
				return nil, nil
			}))
			w.workCtx = context.Background()
			b.ReportAllocs()
			for b.Loop() {
				svc.activityTasks = append(svc.activityTasks[:0], task)
				polled, ok, err := w.pollActivityTask(context.Background())
				if err != nil || !ok {
					b.Fatal(ok, err)
				}
				w.handleActivityTask(polled)
				svc.reports, svc.reportTags = svc.reports[:0], svc.reportTags[:0]
			}
		})
	}
}
