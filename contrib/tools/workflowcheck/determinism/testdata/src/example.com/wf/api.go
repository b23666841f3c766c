package wf

import (
	"context"
	"math/rand"
	"os"
	"time"

	"github.com/durable-go/sdk/workflow"
)

// The workflow API is deterministic, including what its implementation
// does inside, and side effects and activities run outside the workflow.
func APIWorkflow(ctx workflow.Context) (string, error) {
	_ = workflow.Now(ctx)
	if err := workflow.Sleep(ctx, time.Minute); err != nil {
		return "", err
	}
	ready := false
	workflow.Go(ctx, func(ctx workflow.Context) {
		_ = workflow.NewTimer(ctx, time.Second).Get(ctx, nil)
		ready = true
	})
	if _, err := workflow.AwaitWithTimeout(ctx, time.Hour, func() bool { return ready }); err != nil {
		return "", err
	}
	_ = workflow.Await(ctx, func() bool { return ready })

	var stamp time.Time
	_ = workflow.SideEffect(ctx, func(ctx workflow.Context) any {
		return time.Now()
	}).Get(&stamp)
	var id int
	_ = workflow.MutableSideEffect(ctx, "id", func(ctx workflow.Context) any {
		return rand.Int()
	}, func(a, b any) bool { return a == b }).Get(&id)

	var out string
	err := workflow.ExecuteActivity(ctx, ReadConfig, "path").Get(ctx, &out)
	_ = workflow.ExecuteLocalActivity(ctx, func(ctx context.Context) (string, error) {
		host, err := os.Hostname()
		return host, err
	}).Get(ctx, nil)
	return out, err
}

// ReadConfig is an activity: it may do I/O, and workflows pass it without
// calling it.
func ReadConfig(ctx context.Context, path string) (string, error) { // want ReadConfig:"nondeterministic"
	data, err := os.ReadFile(path)
	return string(data), err
}

// The equality callback of MutableSideEffect runs in workflow code.
func MutableSideEffectEquals(ctx workflow.Context) error { // want MutableSideEffectEquals:"nondeterministic"
	return workflow.MutableSideEffect(ctx, "id", func(ctx workflow.Context) any { return 1 },
		func(a, b any) bool {
			return time.Now().IsZero() // want `time.Now called: MutableSideEffectEquals; use workflow.Now`
		}).Get(nil)
}
