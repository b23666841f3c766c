package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// What an empty, non-nil []byte becomes on its way through a worker of
// each SDK on a dev server: as the workflow's input, as an activity's
// argument, as an activity's result.

// describeBytes says whether b is nil, empty or holds bytes.
func describeBytes(b []byte) string {
	switch {
	case b == nil:
		return "nil"
	case len(b) == 0:
		return "empty"
	}
	return fmt.Sprintf("%d bytes", len(b))
}

// BytesSeen reports what it received and returns an empty slice.
func BytesSeen(_ context.Context, b []byte) (string, error) { return describeBytes(b), nil }

func EmptyBytes(_ context.Context) ([]byte, error) { return []byte{}, nil }

func PassesEmptyBytesOurs(ctx workflow.Context, input []byte) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var arg string
	if err := workflow.ExecuteActivity(ctx, BytesSeen, []byte{}).Get(ctx, &arg); err != nil {
		return "", err
	}
	var result []byte
	if err := workflow.ExecuteActivity(ctx, EmptyBytes).Get(ctx, &result); err != nil {
		return "", err
	}
	return fmt.Sprintf("input %s, activity argument %s, activity result %s", describeBytes(input), arg, describeBytes(result)), nil
}

func PassesEmptyBytesOfficial(ctx officialworkflow.Context, input []byte) (string, error) {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var arg string
	if err := officialworkflow.ExecuteActivity(ctx, BytesSeen, []byte{}).Get(ctx, &arg); err != nil {
		return "", err
	}
	var result []byte
	if err := officialworkflow.ExecuteActivity(ctx, EmptyBytes).Get(ctx, &result); err != nil {
		return "", err
	}
	return fmt.Sprintf("input %s, activity argument %s, activity result %s", describeBytes(input), arg, describeBytes(result)), nil
}

func TestAnEmptyByteSliceArrivesAsOnGoTemporalIOSDK(t *testing.T) {
	hp := testharness.HostPort(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tq := fmt.Sprintf("empty-bytes-%d", time.Now().UnixNano())

	c, err := client.Dial(client.Options{HostPort: hp, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, tq+"-ours", worker.Options{})
	w.RegisterWorkflowWithOptions(PassesEmptyBytesOurs, workflow.RegisterOptions{Name: "PassesEmptyBytes"})
	w.RegisterActivity(BytesSeen)
	w.RegisterActivity(EmptyBytes)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	r, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq + "-ours"}, "PassesEmptyBytes", []byte{})
	if err != nil {
		t.Fatal(err)
	}
	var here string
	if err := r.Get(ctx, &here); err != nil {
		t.Fatal(err)
	}

	oc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()
	ow := officialworker.New(oc, tq+"-official", officialworker.Options{})
	ow.RegisterWorkflowWithOptions(PassesEmptyBytesOfficial, officialworkflow.RegisterOptions{Name: "PassesEmptyBytes"})
	ow.RegisterActivity(BytesSeen)
	ow.RegisterActivity(EmptyBytes)
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()
	or, err := oc.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{TaskQueue: tq + "-official"}, "PassesEmptyBytes", []byte{})
	if err != nil {
		t.Fatal(err)
	}
	var there string
	if err := or.Get(ctx, &there); err != nil {
		t.Fatal(err)
	}
	t.Logf("go.temporal.io/sdk: %s", there)
	if here != there {
		t.Errorf("this SDK: %s\ngo.temporal.io/sdk: %s", here, there)
	}
}
