package worker_test

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// sealedOrder is in the payloads the key service codec must open.
const sealedOrder = "sealed-order"

// keyServiceDownCodec refuses to decode a payload holding sealedOrder the
// first failures times, as a codec whose key service is down, asking to
// fail the workflow task rather than the workflow.
type keyServiceDownCodec struct {
	mu       sync.Mutex
	failures int
}

func (c *keyServiceDownCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	return payloads, nil
}

func (c *keyServiceDownCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range payloads {
		if c.failures > 0 && bytes.Contains(p.GetData(), []byte(sealedOrder)) {
			c.failures--
			return nil, converter.NewWorkflowTaskFailureError(errors.New("key service unavailable"))
		}
	}
	return payloads, nil
}

func openOrder(_ workflow.Context, order string) (string, error) {
	return "opened " + strings.TrimPrefix(order, sealedOrder+" "), nil
}

// A workflow input the codec cannot decode while its key service is down
// fails the workflow task, under either panic policy; the server retries
// the task (the second failure is not reported again: its attempt times
// out, and the server records neither retried attempt), and once the key
// service is back the workflow completes.
func TestCodecWorkflowTaskFailureIsRetriedUntilTheCodecRecovers(t *testing.T) {
	for _, policy := range []worker.WorkflowPanicPolicy{worker.BlockWorkflow, worker.FailWorkflow} {
		t.Run(map[worker.WorkflowPanicPolicy]string{worker.BlockWorkflow: "BlockWorkflow", worker.FailWorkflow: "FailWorkflow"}[policy], func(t *testing.T) {
			codec := &keyServiceDownCodec{failures: 2}
			c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t),
				DataConverter: converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(c.Close)
			ctx := testCtx(t)
			tq, _ := startWorker(t, c, worker.Options{WorkflowPanicPolicy: policy}, func(w worker.Worker) {
				w.RegisterWorkflowWithOptions(openOrder, workflow.RegisterOptions{Name: "openOrder"})
			})
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq, WorkflowTaskTimeout: time.Second},
				"openOrder", sealedOrder+" 42")
			if err != nil {
				t.Fatal(err)
			}
			var got string
			if err := run.Get(ctx, &got); err != nil || got != "opened 42" {
				t.Fatalf("the workflow ended with %q, %v; want it to complete once the codec recovers", got, err)
			}
			events := history(t, c, run.GetID())
			var failed []string
			for _, ev := range events {
				if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil {
					if a.GetCause() != enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE {
						t.Errorf("the task failed with cause %v, want WORKFLOW_WORKER_UNHANDLED_FAILURE", a.GetCause())
					}
					failed = append(failed, a.GetFailure().GetMessage())
				}
			}
			if len(failed) != 1 {
				t.Fatalf("%d failed workflow tasks in history, want the first attempt's: %q", len(failed), failed)
			}
			for _, want := range []string{"a payload codec failed the workflow task", "server will retry the task", `decoding the input of workflow "openOrder"`, "key service unavailable"} {
				if !strings.Contains(failed[0], want) {
					t.Errorf("the failed task's message does not say %q: %q", want, failed[0])
				}
			}
			codec.mu.Lock()
			defer codec.mu.Unlock()
			if codec.failures != 0 {
				t.Errorf("the codec still has %d failures to give: the retried tasks did not decode the input", codec.failures)
			}
		})
	}
}
