package main

import (
	"context"
	"fmt"

	"github.com/durable-go/sdk/typed"
	ours "github.com/durable-go/sdk/workflow"
)

// The typed workload: the throughput workload's one-activity workflow
// written with this SDK's typed API (typed.ExecuteActivity, a Future[int]),
// which the official SDK does not have: its side registers its plain
// workflow under the same name, so the report puts our typed call beside
// the official plain one. Each side's worker first runs the same number
// of plain workflows (the baseline), and the ratio of the two CPU figures
// is what the typed layer costs our worker (about 1 on the official side,
// where both are the same code: the spread of the measurement).

// typedSequentialName is the typed one-activity workflow on our side,
// the plain one (sequentialOfficial) on the official side.
const typedSequentialName = "TypedSequentialActivitiesWorkflow"

// typedSequentialOurs is sequentialOurs through the typed API.
func typedSequentialOurs(ctx ours.Context, n int) (int, error) {
	ctx = ours.WithActivityOptions(ctx, ours.ActivityOptions{StartToCloseTimeout: activityTimeout})
	v := 0
	for i := 0; i < n; i++ {
		var err error
		if v, err = typed.ExecuteActivity(ctx, Increment, v).Get(ctx); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// typedMetrics are the figures of the typed workload.
func typedMetrics() []metric {
	return append([]metric{{key: "rate", label: "workflows / second", unit: unitRate}},
		addedCostMetrics("typed", "typed", "plain")...)
}

// typedOf returns the typed workload for n one-activity workflows from
// the concurrent starters: first n plain ones, then n of
// typedSequentialName, in one worker.
func (b *bench) typedOf(n int) func(context.Context, *sideRun) (figures, error) {
	return func(ctx context.Context, r *sideRun) (figures, error) {
		c, err := b.startWorker(ctx, r)
		if err != nil {
			return nil, err
		}
		defer c.kill()
		conc := b.cfg.concurrency
		workflows := func(count int, prefix, workflowType string) func() error {
			return func() error {
				return runMany(ctx, count, conc, func(ctx context.Context, i int) error {
					return b.execute(ctx, r, workflowType, fmt.Sprintf("%s-%s-%d", r.taskQueue, prefix, i), 1)
				})
			}
		}
		warm := min(b.cfg.warmup*5, conc)
		if err := workflows(warm, "warmup-plain", sequentialName)(); err != nil {
			return nil, err
		}
		if err := workflows(warm, "warmup-typed", typedSequentialName)(); err != nil {
			return nil, err
		}
		// The baseline is not profiled: a profile shows the typed calls.
		unprofiled := &sideRun{side: r.side, taskQueue: r.taskQueue}
		base, err := measureUsage(ctx, c, unprofiled, workflows(n, "plain", sequentialName))
		if err != nil {
			return nil, err
		}
		u, err := measureUsage(ctx, c, r, workflows(n, "typed", typedSequentialName))
		if err != nil {
			return nil, err
		}
		if err := c.stop(ctx); err != nil {
			return nil, err
		}
		return addedCostFigures(n, base, u), nil
	}
}
