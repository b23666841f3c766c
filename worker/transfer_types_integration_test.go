package worker_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// temperature is sent as its transfer type, a string with its unit.
type temperature struct{ milliKelvin int64 }

type temperatureWire struct {
	Kelvin string `json:"kelvin"`
}

func (temperature) TransferTypeConverter() (converter.TransferTypeConverter, error) {
	return converter.NewTransferTypeConverter(
		func(t *temperature) (*temperatureWire, error) {
			return &temperatureWire{Kelvin: fmt.Sprintf("%d.%03d K", t.milliKelvin/1000, t.milliKelvin%1000)}, nil
		},
		func(w *temperatureWire, t *temperature) error {
			var k, mk int64
			if _, err := fmt.Sscanf(w.Kelvin, "%d.%d K", &k, &mk); err != nil {
				return err
			}
			t.milliKelvin = k*1000 + mk
			return nil
		})
}

func warmer(_ context.Context, t temperature) (temperature, error) {
	return temperature{t.milliKelvin + 1500}, nil
}

func warmingWorkflow(ctx workflow.Context, t temperature) (temperature, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var warmed temperature
	err := workflow.ExecuteActivity(ctx, warmer, t).Get(ctx, &warmed)
	return warmed, err
}

// A workflow's and an activity's arguments and results of a type with a
// transfer type converter arrive as their model values, and the history
// holds their transfer values.
func TestTransferTypesThroughAWorkflow(t *testing.T) {
	c := dial(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(warmingWorkflow)
		w.RegisterActivity(warmer)
	})
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, warmingWorkflow, temperature{273150})
	if err != nil {
		t.Fatal(err)
	}
	var got temperature
	if err := run.Get(ctx, &got); err != nil || got.milliKelvin != 274650 {
		t.Fatalf("result %+v, %v", got, err)
	}
	for _, e := range history(t, c, run.GetID()) {
		if e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED {
			if data := string(e.GetWorkflowExecutionCompletedEventAttributes().GetResult().GetPayloads()[0].GetData()); !strings.Contains(data, `"kelvin":"274.650 K"`) {
				t.Errorf("the history's result is %s, want the transfer value", data)
			}
		}
	}
}
