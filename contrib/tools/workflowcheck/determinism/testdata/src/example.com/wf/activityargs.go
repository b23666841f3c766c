package wf

import (
	"context"
	"time"

	"github.com/durable-go/sdk/workflow"
)

type order struct{ ID string }

func Charge(ctx context.Context, o order, cents int) error         { return nil }
func Label(name string) (string, error)                            { return name, nil }
func Notify(ctx context.Context, to string, lines ...string) error { return nil }

// ActivityArguments calls activities with arguments that fit them and with
// some that do not: both SDKs schedule the latter all the same.
func ActivityArguments(ctx workflow.Context, o order, anything any) error {
	_ = workflow.ExecuteActivity(ctx, Charge, o, 100)
	_ = workflow.ExecuteActivity(ctx, Charge, &o, 100)         // want `ExecuteActivity: argument 1 is \*example.com/wf.order, but activity Charge's parameter is example.com/wf.order; the activity decodes it into example.com/wf.order, and fails if it cannot`
	_ = workflow.ExecuteActivity(ctx, Charge, o)               // want `ExecuteActivity: activity Charge takes 2 argument\(s\) \(example.com/wf.order, int\), but 1 are given; it is scheduled all the same`
	_ = workflow.ExecuteActivity(ctx, Label, "a", "b")         // want `ExecuteActivity: activity Label takes 1 argument\(s\) \(string\), but 2 are given`
	_ = workflow.ExecuteActivity(ctx, Label, 42)               // want `ExecuteActivity: argument 1 is int, but activity Label's parameter is string`
	_ = workflow.ExecuteLocalActivity(ctx, Label, time.Second) // want `ExecuteLocalActivity: argument 1 is time.Duration, but activity Label's parameter is string`

	// What fits, or cannot be known here.
	_ = workflow.ExecuteActivity(ctx, Label, nil)
	_ = workflow.ExecuteActivity(ctx, Label, anything)
	_ = workflow.ExecuteActivity(ctx, "Label", 1, 2, 3)
	_ = workflow.ExecuteActivity(ctx, Notify, "ops")
	_ = workflow.ExecuteActivity(ctx, Notify, "ops", "a", "b")
	args := []any{"a"}
	_ = workflow.ExecuteActivity(ctx, Label, args...)
	_ = workflow.ExecuteActivity(ctx, func(ctx context.Context, n int) error { return nil }, 1)
	_ = workflow.ExecuteActivity(ctx, Label, 42) //workflowcheck:ignore the test says what a directive does
	return nil
}
