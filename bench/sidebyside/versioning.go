package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/serviceerror"
)

// The versioning workload: the throughput workload's one-activity
// workflows run by a versioned worker (worker deployment versioning on,
// its version the deployment's current one) beside the same workflows
// run by an unversioned worker, on each side. The difference of the two
// workers' CPU per workflow is what versioning costs the worker: the
// deployment options on its polls, the version and behavior on each
// workflow task's completion, the server's versioning data on its tasks.

// deploymentVersion is a versioned worker's version (childConfig).
type deploymentVersion struct {
	Name    string `json:"name"`
	BuildID string `json:"buildID"`
	// AutoUpgrade makes AutoUpgrade the worker's default versioning
	// behavior; Pinned otherwise.
	AutoUpgrade bool `json:"autoUpgrade,omitempty"`
}

// versioningMetrics are the figures of the versioning workload: those of
// throughput for the versioned worker, the unversioned worker's CPU per
// workflow, their difference and their ratio.
func versioningMetrics() []metric {
	return append([]metric{
		{key: "rate", label: "workflows / s versioned", unit: unitRate},
		{key: "baseRate", label: "workflows / s unversioned", unit: unitRate},
	}, addedCostMetrics("versioning", "versioned", "unversioned")...)
}

// addedCostMetrics are the figures of a workload that runs the same
// workflows without a feature (the baseline) and with it: CPU per
// workflow of each, what the feature adds and their ratio, and the
// throughput workload's counts for the run with it.
func addedCostMetrics(feature, with, without string) []metric {
	return []metric{
		{key: "cpu", label: "worker CPU / wf " + with, unit: unitDuration, target: &target{atMost: true, ratio: 0.5}},
		{key: "base", label: "worker CPU / wf " + without, unit: unitDuration},
		{key: "added", label: "CPU added by " + feature + " / wf", unit: unitDuration},
		{key: "cost", label: with + " / " + without + " CPU", unit: unitCount},
		{key: "goroutines", label: "goroutines started / wf", unit: unitCount},
		{key: "sleeps", label: "thread sleeps / workflow", unit: unitCount},
		{key: "syscalls", label: "reads+writes / workflow", unit: unitCount},
	}
}

// addedCostFigures are addedCostMetrics' figures (and the rate) of n
// workflows run without a feature (base) and with it (u).
func addedCostFigures(n int, base, u usage) figures {
	return figures{
		"rate":       float64(n) / u.wall.Seconds(),
		"cpu":        float64(u.cpu) / float64(n),
		"base":       float64(base.cpu) / float64(n),
		"added":      float64(u.cpu-base.cpu) / float64(n),
		"cost":       float64(u.cpu) / float64(base.cpu),
		"goroutines": float64(u.goroutinesCreated) / float64(n),
		"sleeps":     float64(u.threadSleeps) / float64(n),
		"syscalls":   float64(u.readWriteCalls) / float64(n),
	}
}

// versioningOf returns the versioning workload for n workflows: first an
// unversioned worker runs them (on a task queue of its own), then a
// versioned worker of a new deployment, once its version is the current
// one. Each worker is a child process of its own, warmed up the same way.
func (b *bench) versioningOf(n int) func(context.Context, *sideRun) (figures, error) {
	return func(ctx context.Context, r *sideRun) (figures, error) {
		// The baseline is not profiled: a profile shows the versioned worker.
		unversioned := &sideRun{side: r.side, taskQueue: r.taskQueue + "-unversioned"}
		base, err := b.runVersioningWorker(ctx, unversioned, n)
		if err != nil {
			return nil, fmt.Errorf("unversioned: %w", err)
		}
		versioned := *r
		// A deployment of its own per run, so that a run against a
		// -server that an earlier run left deployments on starts afresh.
		versioned.deployment = &deploymentVersion{
			Name:        fmt.Sprintf("%s-%d", r.taskQueue, time.Now().UnixNano()),
			BuildID:     "v1",
			AutoUpgrade: b.cfg.versioningAutoUpgrade,
		}
		u, err := b.runVersioningWorker(ctx, &versioned, n)
		if err != nil {
			return nil, fmt.Errorf("versioned: %w", err)
		}
		f := addedCostFigures(n, base, u)
		f["baseRate"] = float64(n) / base.wall.Seconds()
		return f, nil
	}
}

// runVersioningWorker starts r's worker (versioned if r.deployment is
// set, and then makes its version current), warms it up and measures n
// one-activity workflows from the concurrent starters.
func (b *bench) runVersioningWorker(ctx context.Context, r *sideRun, n int) (usage, error) {
	c, err := b.startWorker(ctx, r)
	if err != nil {
		return usage{}, err
	}
	defer c.kill()
	if d := r.deployment; d != nil {
		if err := b.makeCurrent(ctx, r.side, d); err != nil {
			return usage{}, err
		}
	}
	conc := b.cfg.concurrency
	warm := min(b.cfg.warmup*5, conc)
	if err := runMany(ctx, warm, conc, func(ctx context.Context, i int) error {
		return b.execute(ctx, r, sequentialName, fmt.Sprintf("%s-warmup-%d", r.taskQueue, i), 1)
	}); err != nil {
		return usage{}, err
	}
	u, err := measureUsage(ctx, c, r, func() error {
		return runMany(ctx, n, conc, func(ctx context.Context, i int) error {
			return b.execute(ctx, r, sequentialName, fmt.Sprintf("%s-%d", r.taskQueue, i), 1)
		})
	})
	if err != nil {
		return usage{}, err
	}
	return u, c.stop(ctx)
}

// makeCurrent makes d the current version of its deployment. The server
// knows a version once a worker of it has polled, shortly after the
// worker started; until then it refuses, and makeCurrent tries again.
func (b *bench) makeCurrent(ctx context.Context, side string, d *deploymentVersion) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		err := b.starters[side].setCurrentVersion(ctx, d.Name, d.BuildID)
		if err == nil {
			return nil
		}
		if errors.As(err, new(*serviceerror.Unimplemented)) {
			// A server without worker deployments (the embedded one).
			return fmt.Errorf("making %s.%s the current version: %w", d.Name, d.BuildID, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("making %s.%s the current version (the worker of that version polls): %w", d.Name, d.BuildID, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
