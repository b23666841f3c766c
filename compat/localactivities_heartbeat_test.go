package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	officialclient "go.temporal.io/sdk/client"
	officialconverter "go.temporal.io/sdk/converter"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	ourconverter "github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// When a worker heartbeats a workflow task that waits for a local
// activity: both SDKs count 80% of the task timeout from when the worker
// began processing the task, not from when the code first blocked on the
// local activity. A task whose processing takes a good part of the
// timeout before that (here a data converter that takes 1.2s of a 3s task
// timeout to decode the input; in production a long replay) is heartbeated
// 2.4s after it began, in time; counted from the block, it would be 3.6s,
// after the server timed the task out. The wide margins keep the test
// meaningful on a loaded machine.

// slowTaskTimeout is the workflow task timeout of these runs.
const slowTaskTimeout = 3 * time.Second

// slowInput is the workflow input the converters below take their time
// over.
const slowInput = `"slow input"`

// inputDecodeTime is how long they take.
const inputDecodeTime = 1200 * time.Millisecond

// slowDown takes inputDecodeTime when data is slowInput.
func slowDown(data []byte) {
	if string(data) == slowInput {
		time.Sleep(inputDecodeTime)
	}
}

// slowOurConverter and slowOfficialConverter are each SDK's default data
// converter, slow to decode slowInput (whichever of FromPayload and
// FromPayloads the SDK decodes workflow arguments with).
type slowOurConverter struct{ ourconverter.DataConverter }

func (c slowOurConverter) FromPayload(p *commonpb.Payload, valuePtr any) error {
	slowDown(p.GetData())
	return c.DataConverter.FromPayload(p, valuePtr)
}

func (c slowOurConverter) FromPayloads(p *commonpb.Payloads, valuePtrs ...any) error {
	if len(p.GetPayloads()) == 1 {
		slowDown(p.GetPayloads()[0].GetData())
	}
	return c.DataConverter.FromPayloads(p, valuePtrs...)
}

type slowOfficialConverter struct {
	officialconverter.DataConverter
}

func (c slowOfficialConverter) FromPayload(p *commonpb.Payload, valuePtr any) error {
	slowDown(p.GetData())
	return c.DataConverter.FromPayload(p, valuePtr)
}

func (c slowOfficialConverter) FromPayloads(p *commonpb.Payloads, valuePtrs ...any) error {
	if len(p.GetPayloads()) == 1 {
		slowDown(p.GetPayloads()[0].GetData())
	}
	return c.DataConverter.FromPayloads(p, valuePtrs...)
}

const slowStartName = "LocalActivityAfterASlowStartWorkflow"

func slowStartOurs(ctx workflow.Context, _ string) (string, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var s string
	err := workflow.ExecuteLocalActivity(ctx, LocalSleep, 3500*time.Millisecond).Get(ctx, &s)
	return s, err
}

func slowStartOfficial(ctx officialworkflow.Context, _ string) (string, error) {
	ctx = officialworkflow.WithLocalActivityOptions(ctx, officialworkflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var s string
	err := officialworkflow.ExecuteLocalActivity(ctx, LocalSleep, 3500*time.Millisecond).Get(ctx, &s)
	return s, err
}

// TestHeartbeatOfATaskThatWasSlowToProcess: a task that spent most of its
// timeout decoding its input before its local activity started is
// heartbeated in time by both SDKs' workers, which count the heartbeat's
// deadline from when the task's processing began, not from when the code
// blocked on the local activity; no workflow task times out.
func TestHeartbeatOfATaskThatWasSlowToProcess(t *testing.T) {
	hp := testharness.HostPort(t)
	c, err := client.Dial(client.Options{HostPort: hp, DataConverter: slowOurConverter{ourconverter.GetDefaultDataConverter()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	oc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{}, DataConverter: slowOfficialConverter{officialconverter.GetDefaultDataConverter()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(oc.Close)
	stamp := time.Now().UnixNano()
	officialTQ, oursTQ := fmt.Sprintf("la-slow-official-%d", stamp), fmt.Sprintf("la-slow-ours-%d", stamp)
	// The input's decoding blocks the workflow's code for longer than the
	// official worker's default deadlock detection allows (1s).
	ow := officialworker.New(oc, officialTQ, officialworker.Options{DeadlockDetectionTimeout: 10 * time.Second})
	ow.RegisterWorkflowWithOptions(slowStartOfficial, officialworkflow.RegisterOptions{Name: slowStartName})
	w := worker.New(c, oursTQ, worker.Options{DeadlockDetectionTimeout: 10 * time.Second})
	w.RegisterWorkflowWithOptions(slowStartOurs, workflow.RegisterOptions{Name: slowStartName})
	startBoth(t, w, ow)
	// run returns how many of the run's workflow tasks timed out and its
	// error, once it completed or a task timed out.
	run := func(tq string) (int, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		r, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq, WorkflowTaskTimeout: slowTaskTimeout}, slowStartName, "slow input")
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- r.Get(ctx, nil) }()
		for {
			timedOut := 0
			for _, ev := range fullHistory(t, c, r.GetID()).GetEvents() {
				if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT {
					timedOut++
				}
			}
			select {
			case err := <-done:
				return timedOut, err
			case <-time.After(100 * time.Millisecond):
				if timedOut > 0 {
					_ = c.TerminateWorkflow(context.Background(), r.GetID(), "", "seen enough")
					return timedOut, <-done
				}
			}
		}
	}
	if timedOut, err := run(officialTQ); err != nil || timedOut != 0 {
		t.Errorf("the official worker: %v, %d workflow tasks timed out; want it to heartbeat the task in time", err, timedOut)
	}
	if timedOut, err := run(oursTQ); err != nil || timedOut != 0 {
		t.Errorf("this SDK's worker: %v, %d workflow tasks timed out; want it to heartbeat the task in time", err, timedOut)
	}
}
