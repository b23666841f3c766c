package worker_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// contextRecorder is the default data converter, noting the workflow
// serialization contexts it is told.
type contextRecorder struct {
	converter.DataConverter
	mu   *sync.Mutex
	told *[]converter.WorkflowSerializationContext
	// decodedWith is the context of the converter that decoded a result
	// (the zero value: the worker's, told none).
	decodedWith *converter.WorkflowSerializationContext
	context     converter.WorkflowSerializationContext
}

func (c contextRecorder) WithSerializationContext(sc converter.SerializationContext) converter.DataConverter {
	if w, ok := sc.(converter.WorkflowSerializationContext); ok {
		c.mu.Lock()
		*c.told = append(*c.told, w)
		c.mu.Unlock()
		c.context = w
	}
	return c
}

func (c contextRecorder) FromPayloads(payloads *commonpb.Payloads, valuePtrs ...any) error {
	c.mu.Lock()
	*c.decodedWith = c.context
	c.mu.Unlock()
	return c.DataConverter.FromPayloads(payloads, valuePtrs...)
}

// A replay's result is decoded as the workflow encoded it: with the data
// converter told the workflow's serialization context, as
// go.temporal.io/sdk's worker encodes a result.
func TestReplayResultIsDecodedWithTheWorkflowsSerializationContext(t *testing.T) {
	var told []converter.WorkflowSerializationContext
	var decodedWith converter.WorkflowSerializationContext
	dc := contextRecorder{DataConverter: converter.GetDefaultDataConverter(), mu: &sync.Mutex{}, told: &told, decodedWith: &decodedWith}
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{DataConverter: dc})
	if err != nil {
		t.Fatal(err)
	}
	for _, wf := range fixtureWorkflows() {
		r.RegisterWorkflow(wf)
	}
	h := readHistory(t, "timers.json")
	res, err := r.ReplayWorkflowHistoryWithResult(nil, h, worker.ReplayWorkflowHistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got int
	if err := res.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}
	if got != 2 {
		t.Fatalf("result %d, want 2 (%s)", got, filepath.Join(fixtures, "timers.json"))
	}
	if decodedWith.WorkflowID == "" {
		t.Fatalf("the result was decoded by a converter told no workflow context (contexts told: %+v)", told)
	}
}

// markingConverter is the default data converter that marks each payload
// it encodes with the serialization context it was told.
type markingConverter struct {
	converter.DataConverter
	told string
}

func (c markingConverter) WithSerializationContext(sc converter.SerializationContext) converter.DataConverter {
	c.told = fmt.Sprintf("%T%+v", sc, sc)
	return c
}

func (c markingConverter) ToPayloads(values ...any) (*commonpb.Payloads, error) {
	p, err := c.DataConverter.ToPayloads(values...)
	for _, payload := range p.GetPayloads() {
		payload.Metadata["told"] = []byte(c.told)
	}
	return p, err
}

// markingFailureConverter marks each failure it makes with the
// serialization context it was told.
type markingFailureConverter struct {
	converter.FailureConverter
	told string
}

func (c markingFailureConverter) WithSerializationContext(sc converter.SerializationContext) converter.FailureConverter {
	c.told = fmt.Sprintf("%T%+v", sc, sc)
	return c
}

func (c markingFailureConverter) ErrorToFailure(err error) *failurepb.Failure {
	f := c.FailureConverter.ErrorToFailure(err)
	f.Source = c.told
	return f
}

func startedByNexus(ctx workflow.Context, fail bool) (string, error) {
	if fail {
		return "", errors.New("refused")
	}
	return "done", nil
}

// A workflow that a Nexus operation started (its start event carries the
// operation's serialization context) converts its result and its failure
// with that context, as go.temporal.io/sdk does: they go back to the
// operation's caller.
func TestAWorkflowStartedByNexusClosesWithTheOperationsContext(t *testing.T) {
	const want = "converter.NexusSerializationContext{Endpoint:orders-endpoint Service:orders Operation:place}"
	for _, fail := range []bool{false, true} {
		input, err := converter.GetDefaultDataConverter().ToPayloads(fail)
		if err != nil {
			t.Fatal(err)
		}
		h := &historypb.History{Events: []*historypb.HistoryEvent{
			{EventId: 1, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{
				WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
					WorkflowType: &commonpb.WorkflowType{Name: "startedByNexus"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "q"},
					Input:                               input,
					PropagatedNexusSerializationContext: &nexuspb.PropagatedSerializationContext{Endpoint: "orders-endpoint", Service: "orders", Operation: "place"},
				}}},
			{EventId: 2, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, Attributes: &historypb.HistoryEvent_WorkflowTaskScheduledEventAttributes{
				WorkflowTaskScheduledEventAttributes: &historypb.WorkflowTaskScheduledEventAttributes{TaskQueue: &taskqueuepb.TaskQueue{Name: "q"}}}},
			{EventId: 3, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, Attributes: &historypb.HistoryEvent_WorkflowTaskStartedEventAttributes{
				WorkflowTaskStartedEventAttributes: &historypb.WorkflowTaskStartedEventAttributes{ScheduledEventId: 2}}},
		}}
		r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
			DataConverter:    markingConverter{DataConverter: converter.GetDefaultDataConverter()},
			FailureConverter: markingFailureConverter{FailureConverter: temporal.GetDefaultFailureConverter()},
		})
		if err != nil {
			t.Fatal(err)
		}
		r.RegisterWorkflow(startedByNexus)
		res, err := r.ReplayWorkflowHistoryWithResult(nil, h, worker.ReplayWorkflowHistoryOptions{RunPendingWorkflowTask: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.PendingCommands) != 1 {
			t.Fatalf("fail=%v: commands %v, want the one that closes the workflow", fail, res.PendingCommands)
		}
		c := res.PendingCommands[0]
		if fail {
			if got := c.GetFailWorkflowExecutionCommandAttributes().GetFailure().GetSource(); got != want {
				t.Fatalf("the failure was converted with the context %q, want %q", got, want)
			}
			continue
		}
		result := c.GetCompleteWorkflowExecutionCommandAttributes().GetResult().GetPayloads()
		if len(result) != 1 || string(result[0].Metadata["told"]) != want {
			t.Fatalf("the result was encoded with the context %q, want %q", result[0].Metadata["told"], want)
		}
		var got string
		if err := res.GetWorkflowResult(&got); err != nil || got != "done" {
			t.Fatalf("replay result %q, %v", got, err)
		}
	}
}
