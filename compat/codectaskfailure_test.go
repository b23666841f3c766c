package compat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	officialactivity "go.temporal.io/sdk/activity"
	officialclient "go.temporal.io/sdk/client"
	officialconverter "go.temporal.io/sdk/converter"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// A payload codec whose key service is briefly down asks to fail the
// workflow task (converter.WorkflowTaskFailureError) rather than the
// workflow: the same codec and workflow on a worker of each SDK must leave
// the same history, each failed task with the same cause, and complete.

// The payloads that need the key service: the charge's input, which the
// workflow encodes, and its receipt, which the workflow decodes.
const (
	needsKeyToEncode = "card-number"
	needsKeyToDecode = "receipt-signature"
)

// flakyKeyServiceCodec refuses the first encodeFailures encodings of a
// payload holding needsKeyToEncode and the first decodeFailures decodings
// of one holding needsKeyToDecode, with the SDK's WorkflowTaskFailureError
// (request); it passes everything else through.
type flakyKeyServiceCodec struct {
	request func(cause error) error

	mu                             sync.Mutex
	encodeFailures, decodeFailures int
}

func (c *flakyKeyServiceCodec) refuse(payloads []*commonpb.Payload, tag string, left *int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range payloads {
		if *left > 0 && bytes.Contains(p.GetData(), []byte(tag)) {
			*left--
			return c.request(errors.New("key service unavailable"))
		}
	}
	return nil
}

func (c *flakyKeyServiceCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if err := c.refuse(payloads, needsKeyToEncode, &c.encodeFailures); err != nil {
		return nil, err
	}
	return payloads, nil
}

func (c *flakyKeyServiceCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if err := c.refuse(payloads, needsKeyToDecode, &c.decodeFailures); err != nil {
		return nil, err
	}
	return payloads, nil
}

// ChargeCard is the activity the workflows call; it runs outside
// workflow tasks, where the codec never refuses.
func ChargeCard(_ context.Context, card string) (string, error) {
	return "charged " + strings.TrimPrefix(card, needsKeyToEncode+" ") + " " + needsKeyToDecode, nil
}

func KeyServiceOrderOurs(ctx workflow.Context, card string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var receipt string
	if err := workflow.ExecuteActivity(ctx, "ChargeCard", needsKeyToEncode+" "+card).Get(ctx, &receipt); err != nil {
		return "", err
	}
	return strings.TrimSuffix(receipt, " "+needsKeyToDecode), nil
}

func KeyServiceOrderOfficial(ctx officialworkflow.Context, card string) (string, error) {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var receipt string
	if err := officialworkflow.ExecuteActivity(ctx, "ChargeCard", needsKeyToEncode+" "+card).Get(ctx, &receipt); err != nil {
		return "", err
	}
	return strings.TrimSuffix(receipt, " "+needsKeyToDecode), nil
}

// keyServiceRun is what a run of KeyServiceOrder left.
type keyServiceRun struct {
	result     string
	eventTypes []enumspb.EventType
	causes     []enumspb.WorkflowTaskFailedCause // of each WorkflowTaskFailed
	messages   []string                          // of each WorkflowTaskFailed's failure
}

func TestCodecWorkflowTaskFailureIsRetriedAlikeOnBothSDKs(t *testing.T) {
	hp := testharness.HostPort(t)
	plain, err := client.Dial(client.Options{HostPort: hp})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()

	run := func(t *testing.T, start func(tq string, codec *flakyKeyServiceCodec) (execute func(ctx context.Context, id string) (string, error), stop func())) keyServiceRun {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		tq := fmt.Sprintf("%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().UnixNano())
		codec := &flakyKeyServiceCodec{encodeFailures: 1, decodeFailures: 1}
		execute, stop := start(tq, codec)
		defer stop()
		var r keyServiceRun
		id := tq + "-order"
		if r.result, err = execute(ctx, id); err != nil {
			t.Fatalf("the workflow did not complete: %v", err)
		}
		for _, ev := range fullHistory(t, plain, id).GetEvents() {
			r.eventTypes = append(r.eventTypes, ev.GetEventType())
			if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil {
				r.causes = append(r.causes, a.GetCause())
				r.messages = append(r.messages, a.GetFailure().GetMessage())
			}
		}
		codec.mu.Lock()
		defer codec.mu.Unlock()
		if codec.encodeFailures != 0 || codec.decodeFailures != 0 {
			t.Errorf("the codec was not asked for the payloads it refuses: %d encodings and %d decodings left to refuse", codec.encodeFailures, codec.decodeFailures)
		}
		return r
	}
	here := run(t, func(tq string, codec *flakyKeyServiceCodec) (func(context.Context, string) (string, error), func()) {
		codec.request = converter.NewWorkflowTaskFailureError
		c, err := client.Dial(client.Options{HostPort: hp, Logger: quiet{},
			DataConverter: converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec)})
		if err != nil {
			t.Fatal(err)
		}
		w := worker.New(c, tq, worker.Options{})
		w.RegisterWorkflowWithOptions(KeyServiceOrderOurs, workflow.RegisterOptions{Name: "KeyServiceOrder"})
		w.RegisterActivityWithOptions(ChargeCard, activity.RegisterOptions{Name: "ChargeCard"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return func(ctx context.Context, id string) (string, error) {
				r, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: tq}, "KeyServiceOrder", "4242")
				if err != nil {
					return "", err
				}
				var s string
				return s, r.Get(ctx, &s)
			}, func() {
				w.Stop()
				c.Close()
			}
	})
	there := run(t, func(tq string, codec *flakyKeyServiceCodec) (func(context.Context, string) (string, error), func()) {
		codec.request = officialconverter.NewWorkflowTaskFailureError
		c, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{},
			DataConverter: officialconverter.NewCodecDataConverter(officialconverter.GetDefaultDataConverter(), codec)})
		if err != nil {
			t.Fatal(err)
		}
		w := officialworker.New(c, tq, officialworker.Options{})
		w.RegisterWorkflowWithOptions(KeyServiceOrderOfficial, officialworkflow.RegisterOptions{Name: "KeyServiceOrder"})
		w.RegisterActivityWithOptions(ChargeCard, officialactivity.RegisterOptions{Name: "ChargeCard"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return func(ctx context.Context, id string) (string, error) {
				r, err := c.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: id, TaskQueue: tq}, "KeyServiceOrder", "4242")
				if err != nil {
					return "", err
				}
				var s string
				return s, r.Get(ctx, &s)
			}, func() {
				w.Stop()
				c.Close()
			}
	})

	if here.result != "charged 4242" || there.result != "charged 4242" {
		t.Errorf("results: %q here, %q on go.temporal.io/sdk; want %q", here.result, there.result, "charged 4242")
	}
	if !slices.Equal(here.eventTypes, there.eventTypes) {
		t.Errorf("histories differ:\nhere:     %v\nofficial: %v", here.eventTypes, there.eventTypes)
	}
	// One failed task for the charge's input, one for its receipt.
	wantCauses := []enumspb.WorkflowTaskFailedCause{enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE, enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE}
	if !slices.Equal(there.causes, wantCauses) {
		t.Errorf("go.temporal.io/sdk's failed tasks: causes %v, expected %v (the test's premise changed)", there.causes, wantCauses)
	}
	if !slices.Equal(here.causes, there.causes) {
		t.Errorf("failed tasks' causes: %v here, %v on go.temporal.io/sdk", here.causes, there.causes)
	}
	for i, msg := range append(slices.Clone(here.messages), there.messages...) {
		if !strings.Contains(msg, "key service unavailable") {
			t.Errorf("failed task %d does not report the codec's cause: %q", i, msg)
		}
	}
	for i, want := range []string{"ExecuteActivity(ChargeCard): encoding the input", `decoding the result of activity "ChargeCard"`} {
		if i < len(here.messages) && !strings.Contains(here.messages[i], want) {
			t.Errorf("failed task %d here does not say what failed (%q): %q", i, want, here.messages[i])
		}
	}
	t.Logf("failed tasks here: %q; on go.temporal.io/sdk: %q", here.messages, there.messages)
}
