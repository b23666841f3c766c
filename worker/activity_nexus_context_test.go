package worker_test

import (
	"context"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// nexusMarkingConverter marks each payload it encodes with the operation
// of the Nexus serialization context it was told, if any.
type nexusMarkingConverter struct {
	converter.DataConverter
	operation string
}

const nexusMarkKey = "test-nexus-operation"

func (c nexusMarkingConverter) WithSerializationContext(sc converter.SerializationContext) converter.DataConverter {
	nc, _ := sc.(converter.NexusSerializationContext)
	return nexusMarkingConverter{DataConverter: c.DataConverter, operation: nc.Operation}
}

func (c nexusMarkingConverter) mark(p *commonpb.Payload) {
	if c.operation != "" {
		p.Metadata[nexusMarkKey] = []byte(c.operation)
	}
}

func (c nexusMarkingConverter) ToPayload(value any) (*commonpb.Payload, error) {
	p, err := c.DataConverter.ToPayload(value)
	if err == nil {
		c.mark(p)
	}
	return p, err
}

func (c nexusMarkingConverter) ToPayloads(values ...any) (*commonpb.Payloads, error) {
	ps, err := c.DataConverter.ToPayloads(values...)
	if err == nil {
		for _, p := range ps.GetPayloads() {
			c.mark(p)
		}
	}
	return ps, err
}

// TestAsyncActivityCompletionWithNexusContext: CompleteActivityOptions and
// RecordActivityHeartbeatOptions with a NexusSerializationContext encode
// the result and the details with that context, as go.temporal.io/sdk
// does (for an activity a Nexus operation's handler started), and with
// the activity's own context without it.
func TestAsyncActivityCompletionWithNexusContext(t *testing.T) {
	c := dialWith(t, client.Options{DataConverter: nexusMarkingConverter{DataConverter: converter.GetDefaultDataConverter()}})
	tokens := make(chan []byte, 2)
	pending := func(ctx context.Context) (string, error) {
		tokens <- activity.GetInfo(ctx).TaskToken
		return "", activity.ErrResultPending
	}
	run := func(ctx workflow.Context) (string, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		var out string
		err := workflow.ExecuteActivity(ctx, "Pending").Get(ctx, &out)
		return out, err
	}
	queue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterActivityWithOptions(pending, activity.RegisterOptions{Name: "Pending"})
		w.RegisterWorkflowWithOptions(run, workflow.RegisterOptions{Name: "RunsPending"})
	})
	ctx := testCtx(t)
	nexusContext := &converter.NexusSerializationContext{Endpoint: "ep", Service: "svc", Operation: "op"}
	for _, tc := range []struct {
		name string
		nc   *converter.NexusSerializationContext
		want string
	}{{"with", nexusContext, "op"}, {"without", nil, ""}} {
		t.Run(tc.name, func(t *testing.T) {
			wr, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: queue}, "RunsPending")
			if err != nil {
				t.Fatal(err)
			}
			token := <-tokens
			if err := c.RecordActivityHeartbeatWithOptions(ctx, client.RecordActivityHeartbeatOptions{
				TaskToken: token, Details: []any{"beat"}, NexusSerializationContext: tc.nc}); err != nil {
				t.Fatal(err)
			}
			desc, err := c.DescribeWorkflowExecution(ctx, wr.GetID(), "")
			if err != nil {
				t.Fatal(err)
			}
			details := desc.GetPendingActivities()[0].GetHeartbeatDetails().GetPayloads()[0]
			if got := string(details.GetMetadata()[nexusMarkKey]); got != tc.want {
				t.Errorf("heartbeat details marked %q, want %q", got, tc.want)
			}
			if err := c.CompleteActivityWithOptions(ctx, client.CompleteActivityOptions{
				TaskToken: token, Result: "done", NexusSerializationContext: tc.nc}); err != nil {
				t.Fatal(err)
			}
			var out string
			if err := wr.Get(ctx, &out); err != nil || out != "done" {
				t.Fatalf("workflow: %q, %v", out, err)
			}
			it := c.GetWorkflowHistory(ctx, wr.GetID(), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
			for it.HasNext() {
				e, err := it.Next()
				if err != nil {
					t.Fatal(err)
				}
				if a := e.GetActivityTaskCompletedEventAttributes(); a != nil {
					if got := string(a.GetResult().GetPayloads()[0].GetMetadata()[nexusMarkKey]); got != tc.want {
						t.Errorf("result marked %q, want %q", got, tc.want)
					}
					return
				}
			}
			t.Error("no ActivityTaskCompleted event")
		})
	}
}
