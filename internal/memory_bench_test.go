package internal

import (
	"context"
	"runtime"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/registry"
)

func waitsForASignal(ctx Context, name string) (string, error) {
	var s string
	GetSignalChannel(ctx, "go").Receive(ctx, &s)
	return name + s, nil
}

// firstTask is the history of a new run's first workflow task.
func firstTask(workflowType string, input *commonpb.Payloads) []*historypb.HistoryEvent {
	now := timestamppb.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return []*historypb.HistoryEvent{
		{EventId: 1, EventTime: now, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
				WorkflowType: &commonpb.WorkflowType{Name: workflowType}, TaskQueue: &taskqueuepb.TaskQueue{Name: "tq"}, Input: input}}},
		{EventId: 2, EventTime: now, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED},
		{EventId: 3, EventTime: now, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED},
	}
}

// BenchmarkCachedWorkflowMemory reports the heap and stack bytes that one
// cached workflow run holds while it waits for a signal, the state a
// worker's sticky cache keeps for each workflow.
func BenchmarkCachedWorkflowMemory(b *testing.B) {
	reg := registry.New()
	if err := reg.RegisterWorkflow(waitsForASignal, "", false); err != nil {
		b.Fatal(err)
	}
	dc := converter.GetDefaultDataConverter()
	env := newWorkflowEnv(reg, workflowEnvOptions{DataConverter: dc, Namespace: "default", SDKMetadataFlags: true})
	input, _ := dc.ToPayloads("ann")
	const runs = 2000
	measure := func() (heap, stack uint64) {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse, m.StackInuse
	}
	for b.Loop() {
		execs := make([]*engine.Execution, 0, runs)
		heap0, stack0 := measure()
		for range runs {
			x := engine.NewExecution(env.engineOptions())
			if _, err := x.ProcessTask(engine.Task{Events: engine.NewEventSource(context.Background(), firstTask("waitsForASignal", input), nil, nil)}); err != nil {
				b.Fatal(err)
			}
			execs = append(execs, x)
		}
		heap1, stack1 := measure()
		b.ReportMetric(float64(heap1-heap0)/runs, "heapB/workflow")
		b.ReportMetric(float64(stack1-stack0)/runs, "stackB/workflow")
		for _, x := range execs {
			x.Close()
		}
	}
}
