package internal

import (
	"context"
	"strconv"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/workerrt"
)

func increment(_ context.Context, i int) (int, error) { return i + 1, nil }

// oneActivity is the throughput workload's workflow: one activity.
func oneActivity(ctx Context, v int) (int, error) {
	ctx = WithActivityOptions(ctx, ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	err := ExecuteActivity(ctx, increment, v).Get(ctx, &v)
	return v, err
}

// activityDone are the events of the task after the first one, which
// scheduled the activity: it ran and returned result.
func activityDone(result *commonpb.Payloads) []*historypb.HistoryEvent {
	id := int64(3)
	ev := func(t enumspb.EventType) *historypb.HistoryEvent {
		id++
		return &historypb.HistoryEvent{EventId: id, EventType: t}
	}
	completed := ev(enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
	scheduled := ev(enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
	scheduled.Attributes = &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
		ActivityId: strconv.FormatInt(scheduled.EventId, 10), ActivityType: &commonpb.ActivityType{Name: "increment"}}}
	started := ev(enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED)
	started.Attributes = &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: scheduled.EventId}}
	done := ev(enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
	done.Attributes = &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{
		ScheduledEventId: scheduled.EventId, StartedEventId: started.EventId, Result: result}}
	return []*historypb.HistoryEvent{completed, scheduled, started, done,
		ev(enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED), ev(enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED)}
}

// BenchmarkOneActivityWorkflow is the part of a worker's work for one
// workflow of the throughput workload that is this module's own, without
// the calls to the server: the run's first task (its code starts and
// schedules the activity), the activity, and the next task on the cached
// run (the code takes the result and the workflow completes).
func BenchmarkOneActivityWorkflow(b *testing.B) {
	reg := registry.New()
	if err := reg.RegisterWorkflow(oneActivity, "", false); err != nil {
		b.Fatal(err)
	}
	if err := reg.RegisterActivity(increment, "", false, false); err != nil {
		b.Fatal(err)
	}
	dc := converter.GetDefaultDataConverter()
	logger := logging.NewTextLogger(discard{}, 0)
	config := newRunConfig(reg, RunOptions{DataConverter: dc, Namespace: "default", SDKMetadataFlags: true, Logger: logger})
	opts := config.engineOptions()
	activities := &activityExecutor{registry: reg, dc: dc, logger: logger, namespace: "default", taskQueue: "tq"}
	input, _ := dc.ToPayloads(1)
	b.ReportAllocs()
	for b.Loop() {
		x := engine.NewRun(opts)
		x.SetRun("wf", "run")
		res, err := x.ProcessTask(engine.Task{Events: engine.NewEventSource(context.Background(), firstTask("oneActivity", input), nil, nil)})
		if err != nil || len(res.Commands) != 1 {
			b.Fatalf("first task: %v %v", res, err)
		}
		attrs := res.Commands[0].GetScheduleActivityTaskCommandAttributes()
		result, err := activities.Execute(context.Background(), &workerrt.ActivityTask{Task: &workflowservice.PollActivityTaskQueueResponse{
			ActivityId: attrs.GetActivityId(), ActivityType: attrs.GetActivityType(), Input: attrs.GetInput(), Attempt: 1,
			WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: "wf", RunId: "run"}, WorkflowType: &commonpb.WorkflowType{Name: "oneActivity"},
		}})
		if err != nil {
			b.Fatal(err)
		}
		res, err = x.ProcessTask(engine.Task{Events: engine.NewEventSource(context.Background(), activityDone(result), nil, nil)})
		if err != nil || !res.Closed {
			b.Fatalf("second task: %v %v", res, err)
		}
		x.Close()
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
