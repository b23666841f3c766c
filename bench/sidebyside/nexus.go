package main

import (
	"context"
	"fmt"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/operatorservice/v1"

	oursclient "github.com/durable-go/sdk/client"
	ourstemporalnexus "github.com/durable-go/sdk/temporalnexus"
	oursworkflow "github.com/durable-go/sdk/workflow"
	officialclient "go.temporal.io/sdk/client"
	officialtemporalnexus "go.temporal.io/sdk/temporalnexus"
	officialworkflow "go.temporal.io/sdk/workflow"
)

// The nexus workloads: a caller workflow calls an operation of a Nexus
// service that the same worker serves, through an endpoint that targets
// the worker's task queue. The worker runs the caller's workflow tasks,
// the Nexus task and, for the workflow-run operation, the workflow the
// operation starts, so its CPU is that of the whole call.

const (
	nexusCallerName = "NexusCallerWorkflow"
	// nexusHandlerName is the workflow the workflow-run operation starts:
	// it returns its input plus one at once.
	nexusHandlerName = "NexusIncrementWorkflow"
	nexusServiceName = "sidebyside"
	// nexusSyncOperation returns its input plus one in the handler.
	nexusSyncOperation = "increment"
	// nexusWorkflowOperation starts NexusIncrementWorkflow and completes
	// with its result.
	nexusWorkflowOperation = "increment-workflow"
)

var nexusTimeout = time.Minute

// nexusCallerOurs calls operation n times, one after the other, each
// with the previous result; with n = 0 it is the same workflow without a
// Nexus call (the workload's baseline).
func nexusCallerOurs(ctx oursworkflow.Context, endpoint, operation string, n int) (int, error) {
	c := oursworkflow.NewNexusClient(endpoint, nexusServiceName)
	opts := oursworkflow.NexusOperationOptions{ScheduleToCloseTimeout: nexusTimeout}
	v := 0
	for i := 0; i < n; i++ {
		if err := c.ExecuteOperation(ctx, operation, v, opts).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

func nexusCallerOfficial(ctx officialworkflow.Context, endpoint, operation string, n int) (int, error) {
	c := officialworkflow.NewNexusClient(endpoint, nexusServiceName)
	opts := officialworkflow.NexusOperationOptions{ScheduleToCloseTimeout: nexusTimeout}
	v := 0
	for i := 0; i < n; i++ {
		if err := c.ExecuteOperation(ctx, operation, v, opts).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

func nexusIncrementOurs(_ oursworkflow.Context, i int) (int, error)         { return i + 1, nil }
func nexusIncrementOfficial(_ officialworkflow.Context, i int) (int, error) { return i + 1, nil }

// incrementOperation is the synchronous operation, the same handler code
// on both sides (both SDKs serve github.com/nexus-rpc/sdk-go operations).
func incrementOperation() nexus.Operation[int, int] {
	return nexus.NewSyncOperation(nexusSyncOperation, func(_ context.Context, i int, _ nexus.StartOperationOptions) (int, error) {
		return i + 1, nil
	})
}

// nexusServiceOurs and nexusServiceOfficial are the service each side's
// worker registers: the synchronous operation and the workflow-run one,
// whose workflow ID is the operation's request ID (unique per call).
func nexusServiceOurs() *nexus.Service {
	s := nexus.NewService(nexusServiceName)
	s.MustRegister(incrementOperation(), ourstemporalnexus.NewWorkflowRunOperation(nexusWorkflowOperation, nexusIncrementOurs,
		func(_ context.Context, _ int, o nexus.StartOperationOptions) (oursclient.StartWorkflowOptions, error) {
			return oursclient.StartWorkflowOptions{ID: "nexus-" + o.RequestID}, nil
		}))
	return s
}

func nexusServiceOfficial() *nexus.Service {
	s := nexus.NewService(nexusServiceName)
	s.MustRegister(incrementOperation(), officialtemporalnexus.NewWorkflowRunOperation(nexusWorkflowOperation, nexusIncrementOfficial,
		func(_ context.Context, _ int, o nexus.StartOperationOptions) (officialclient.StartWorkflowOptions, error) {
			return officialclient.StartWorkflowOptions{ID: "nexus-" + o.RequestID}, nil
		}))
	return s
}

// createNexusEndpoint creates an endpoint that sends operations to
// taskQueue, named after it (with the time, so that a run against a
// -server that an interrupted run left an endpoint on still starts), and
// returns it and the function that deletes it.
func createNexusEndpoint(ctx context.Context, op operatorservice.OperatorServiceClient, namespace, taskQueue string) (string, func(), error) {
	name := fmt.Sprintf("%s-%d", taskQueue, time.Now().UnixNano())
	resp, err := op.CreateNexusEndpoint(ctx, &operatorservice.CreateNexusEndpointRequest{Spec: &nexuspb.EndpointSpec{
		Name: name,
		Target: &nexuspb.EndpointTarget{Variant: &nexuspb.EndpointTarget_Worker_{Worker: &nexuspb.EndpointTarget_Worker{
			Namespace: namespace, TaskQueue: taskQueue}}},
	}})
	if err != nil {
		return "", nil, fmt.Errorf("creating the Nexus endpoint %s: %w", name, err)
	}
	remove := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = op.DeleteNexusEndpoint(ctx, &operatorservice.DeleteNexusEndpointRequest{
			Id: resp.GetEndpoint().GetId(), Version: resp.GetEndpoint().GetVersion()})
	}
	return name, remove, nil
}

// nexusMetrics are the figures of a nexus workload: those of throughput
// for the workflows that call the operation, the worker's CPU per
// workflow without the call, and the difference, the cost of the call.
func nexusMetrics() []metric {
	return []metric{
		{key: "rate", label: "workflows / second", unit: unitRate},
		{key: "op", label: "worker CPU / Nexus op", unit: unitDuration, target: &target{atMost: true, ratio: 0.5}},
		{key: "cpu", label: "worker CPU / wf with op", unit: unitDuration},
		{key: "base", label: "worker CPU / wf without op", unit: unitDuration},
		{key: "goroutines", label: "goroutines started / wf", unit: unitCount},
		{key: "sleeps", label: "thread sleeps / workflow", unit: unitCount},
		{key: "syscalls", label: "reads+writes / workflow", unit: unitCount},
	}
}

// nexusOf returns the workload that runs n caller workflows from the
// concurrent starters twice in one worker: first without a Nexus call
// (the baseline: one workflow task each), then each calling operation
// once. The difference of the worker's CPU per workflow is what the
// operation costs the worker: the caller's second workflow task (and its
// command and events), the Nexus task and, for the workflow-run
// operation, the start of its workflow and that workflow's task. The
// goroutine, sleep and system-call counts are of the calling workflows.
func (b *bench) nexusOf(operation string, n int) func(context.Context, *sideRun) (figures, error) {
	return func(ctx context.Context, r *sideRun) (figures, error) {
		st := b.starters[r.side]
		endpoint, remove, err := createNexusEndpoint(ctx, st.operator(), b.namespace, r.taskQueue)
		if err != nil {
			return nil, err
		}
		defer remove()
		serving := *r
		serving.nexus = true
		c, err := b.startWorker(ctx, &serving)
		if err != nil {
			return nil, err
		}
		defer c.kill()
		conc := b.cfg.concurrency
		workflows := func(count int, prefix string, calls int) func() error {
			return func() error {
				return runMany(ctx, count, conc, func(ctx context.Context, i int) error {
					return b.executeNexus(ctx, r, fmt.Sprintf("%s-%s-%d", r.taskQueue, prefix, i), endpoint, operation, calls)
				})
			}
		}
		warm := min(b.cfg.warmup*5, conc)
		if err := workflows(warm, "warmup-base", 0)(); err != nil {
			return nil, err
		}
		if err := workflows(warm, "warmup", 1)(); err != nil {
			return nil, err
		}
		// The baseline is not profiled: a profile shows the calls.
		unprofiled := &sideRun{side: r.side, taskQueue: r.taskQueue}
		base, err := measureUsage(ctx, c, unprofiled, workflows(n, "base", 0))
		if err != nil {
			return nil, err
		}
		u, err := measureUsage(ctx, c, r, workflows(n, "op", 1))
		if err != nil {
			return nil, err
		}
		series, err := b.metricSeries(ctx, c)
		if err != nil {
			return nil, err
		}
		if err := c.stop(ctx); err != nil {
			return nil, err
		}
		return figures{
			"rate":       float64(n) / u.wall.Seconds(),
			"op":         float64(u.cpu-base.cpu) / float64(n),
			"cpu":        float64(u.cpu) / float64(n),
			"base":       float64(base.cpu) / float64(n),
			"goroutines": float64(u.goroutinesCreated) / float64(n),
			"sleeps":     float64(u.threadSleeps) / float64(n),
			"syscalls":   float64(u.readWriteCalls) / float64(n),
			"series":     series,
		}, nil
	}
}

// executeNexus starts a caller workflow that calls operation calls times
// through endpoint and checks its result.
func (b *bench) executeNexus(ctx context.Context, r *sideRun, id, endpoint, operation string, calls int) error {
	run, err := b.starters[r.side].start(ctx, id, r.taskQueue, nexusCallerName, endpoint, operation, calls)
	if err != nil {
		return fmt.Errorf("starting %s: %w", id, err)
	}
	var v int
	if err := run.Get(ctx, &v); err != nil {
		return fmt.Errorf("result of %s: %w", id, err)
	}
	if v != calls {
		return fmt.Errorf("result of %s: got %d, want %d", id, v, calls)
	}
	return nil
}
