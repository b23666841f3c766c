package replay

import (
	"context"
	"time"

	ours "github.com/durable-go/sdk/workflow"
	official "go.temporal.io/sdk/workflow"
)

// The same workflows written against each SDK; the histories were recorded
// by go.temporal.io/sdk running the official versions.

func Increment(ctx context.Context, i int) (int, error) { return i + 1, nil }

func SequentialActivitiesWorkflowOurs(ctx ours.Context, n int) (int, error) {
	ctx = ours.WithActivityOptions(ctx, ours.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	v := 0
	for i := 0; i < n; i++ {
		if err := ours.ExecuteActivity(ctx, Increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

func SequentialActivitiesWorkflowOfficial(ctx official.Context, n int) (int, error) {
	ctx = official.WithActivityOptions(ctx, official.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	v := 0
	for i := 0; i < n; i++ {
		if err := official.ExecuteActivity(ctx, Increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

func PingPongWorkflowOurs(ctx ours.Context, n int) (int, error) {
	ch1, ch2, done := ours.NewChannel(ctx), ours.NewChannel(ctx), ours.NewChannel(ctx)
	ours.Go(ctx, func(ctx ours.Context) {
		v := 0
		for i := 0; i < n; i++ {
			ch1.Send(ctx, v)
			ch2.Receive(ctx, &v)
		}
		done.Send(ctx, v)
	})
	ours.Go(ctx, func(ctx ours.Context) {
		for i := 0; i < n; i++ {
			var v int
			ch1.Receive(ctx, &v)
			ch2.Send(ctx, v+1)
		}
	})
	var result int
	done.Receive(ctx, &result)
	return result, nil
}

func PingPongWorkflowOfficial(ctx official.Context, n int) (int, error) {
	ch1, ch2, done := official.NewChannel(ctx), official.NewChannel(ctx), official.NewChannel(ctx)
	official.Go(ctx, func(ctx official.Context) {
		v := 0
		for i := 0; i < n; i++ {
			ch1.Send(ctx, v)
			ch2.Receive(ctx, &v)
		}
		done.Send(ctx, v)
	})
	official.Go(ctx, func(ctx official.Context) {
		for i := 0; i < n; i++ {
			var v int
			ch1.Receive(ctx, &v)
			ch2.Send(ctx, v+1)
		}
	})
	var result int
	done.Receive(ctx, &result)
	return result, nil
}
