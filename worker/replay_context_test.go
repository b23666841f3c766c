package worker_test

import (
	"path/filepath"
	"sync"
	"testing"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/worker"
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
