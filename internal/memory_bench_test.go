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

// signalOrder is a workflow input that reflection must pass.
type signalOrder struct{ Name string }

// waitsForASignalWithAStruct is waitsForASignal with a struct argument: it
// is called through reflect.
func waitsForASignalWithAStruct(ctx Context, order signalOrder) (string, error) {
	var s string
	GetSignalChannel(ctx, "go").Receive(ctx, &s)
	return order.Name + s, nil
}

// BenchmarkCachedWorkflowMemory reports the heap and stack bytes that one
// cached workflow run holds while it waits for a signal, the state a
// worker's sticky cache keeps for each workflow.
func BenchmarkCachedWorkflowMemory(b *testing.B) {
	benchmarkCachedWorkflowMemory(b, waitsForASignal, "ann")
}

// BenchmarkCachedWorkflowMemoryStructArgument is the same for a workflow
// function that is called through reflect.
func BenchmarkCachedWorkflowMemoryStructArgument(b *testing.B) {
	benchmarkCachedWorkflowMemory(b, waitsForASignalWithAStruct, signalOrder{Name: "ann"})
}

func benchmarkCachedWorkflowMemory(b *testing.B, workflow any, input any) {
	const runs = 2000
	for b.Loop() {
		m := cachedWorkflowMemory(b, runs, workflow, input)
		b.ReportMetric(m.heap, "heapB/workflow")
		b.ReportMetric(m.stack, "stackB/workflow")
		b.ReportMetric(m.live, "liveB/workflow")
	}
}

// runMemory is what a cached run holds, per run: heap is the heap's spans
// in use (HeapInuse, what the side-by-side benchmark reports; it moves by
// a hundred bytes from run to run with how the runs' objects share
// spans), live the bytes of its objects (HeapAlloc after a collection:
// steady to the byte), stack its goroutine's stack.
type runMemory struct{ heap, live, stack float64 }

// cachedWorkflowMemory starts runs runs of workflow that each wait for a
// signal, and returns the heap and stack bytes in use per run while they
// wait.
func cachedWorkflowMemory(tb testing.TB, runs int, workflow any, input any) runMemory {
	reg := registry.New()
	name := registry.FunctionName(workflow)
	if err := reg.RegisterWorkflow(workflow, name, false); err != nil {
		tb.Fatal(err)
	}
	dc := converter.GetDefaultDataConverter()
	config := newRunConfig(reg, RunOptions{DataConverter: dc, Namespace: "default", SDKMetadataFlags: true})
	opts := config.engineOptions()
	payloads, _ := dc.ToPayloads(input)
	execs := make([]*engine.Run, 0, runs)
	before := measureMemory()
	for range runs {
		x := engine.NewRun(opts)
		if _, err := x.ProcessTask(engine.Task{Events: engine.NewEventSource(context.Background(), firstTask(name, payloads), nil, nil)}); err != nil {
			tb.Fatal(err)
		}
		execs = append(execs, x)
	}
	after := measureMemory()
	for _, x := range execs {
		x.Close()
	}
	per := func(after, before uint64) float64 { return float64(int64(after)-int64(before)) / float64(runs) }
	return runMemory{
		heap:  per(after.heap, before.heap),
		live:  per(after.live, before.live),
		stack: per(after.stack, before.stack),
	}
}

// memStats is measureMemory's; a runtime.MemStats (5 KB) in a frame of the
// measuring goroutine would count in the average stack the runtime starts
// new goroutines with (see runtime/debug's adaptivestackstart) and make
// the runs' coroutines start larger than they do in a worker.
var memStats runtime.MemStats

// measureMemory collects garbage and returns the heap and stacks in use.
func measureMemory() (m struct{ heap, live, stack uint64 }) {
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&memStats)
	m.heap, m.live, m.stack = memStats.HeapInuse, memStats.HeapAlloc, memStats.StackInuse
	return m
}

// A waiting workflow whose function is called directly keeps the 2 KiB
// stack its goroutine starts with: the frames under its code, those of
// GetSignalChannel and Receive, and the allocations they make, fit it
// (see Coroutine.start). The garbage collector would never halve a 4 KiB
// stack that a waiting workflow uses, so one that grew once stays grown:
// an allocation that takes the allocator's slow path deep down (about one
// in ten) still grows a stack now and then, hence the margin.
func TestAWaitingWorkflowKeepsATwoKiBStack(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes frames larger")
	}
	m := cachedWorkflowMemory(t, 500, waitsForASignal, "ann")
	if m.stack > 2048+512 {
		t.Errorf("a waiting workflow keeps %.0f bytes of stack, want 2 KiB", m.stack)
	}
}

// Scheduling an activity grows a workflow's coroutine stack once, to
// 4 KiB, not twice: encoding the arguments is the deepest call the code
// makes before it blocks, and a copy of the stack per doubling is CPU
// every workflow pays (executeActivity keeps its frame small for it).
// Measured without a collection, which would shrink stacks.
func TestSchedulingAnActivityGrowsTheStackOnce(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes frames larger")
	}
	reg := registry.New()
	if err := reg.RegisterWorkflow(oneActivity, "oneActivity", false); err != nil {
		t.Fatal(err)
	}
	dc := converter.GetDefaultDataConverter()
	config := newRunConfig(reg, RunOptions{DataConverter: dc, Namespace: "default", SDKMetadataFlags: true})
	opts := config.engineOptions()
	input, _ := dc.ToPayloads(1)
	const runs = 500
	execs := make([]*engine.Run, 0, runs)
	defer func() {
		for _, x := range execs {
			x.Close()
		}
	}()
	runtime.GC()
	runtime.ReadMemStats(&memStats)
	before := memStats.StackInuse
	for range runs {
		x := engine.NewRun(opts)
		x.SetRun("wf", "run")
		res, err := x.ProcessTask(engine.Task{Events: engine.NewEventSource(context.Background(), firstTask("oneActivity", input), nil, nil)})
		if err != nil || len(res.Commands) != 1 {
			t.Fatalf("first task: %v %v", res, err)
		}
		execs = append(execs, x)
	}
	runtime.ReadMemStats(&memStats)
	if per := float64(int64(memStats.StackInuse)-int64(before)) / runs; per > 4096+512 {
		t.Errorf("a workflow that scheduled an activity has %.0f bytes of stack, want 4 KiB", per)
	}
}
