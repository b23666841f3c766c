// Command sidebyside benchmarks this SDK (github.com/durable-go/sdk,
// "ours") beside go.temporal.io/sdk v1.50 ("official") on one Temporal dev
// server that it starts itself, and prints, per workload, both figures,
// their ratio ours/official and whether the project's target for the ratio
// is met:
//
//	cd bench/sidebyside && go run . [-quick] [-rounds N] [-profile DIR] [-metrics]
//
// The workloads:
//
//   - latency: one-activity workflows run one after the other; the
//     percentiles of the time from ExecuteWorkflow to the result (target:
//     p50 ratio <= 1).
//   - throughput: thousands of one-activity workflows from 50 concurrent
//     starters, each waiting for its workflow's result before starting the
//     next; workflows per second (target >= 1) and the worker's CPU time
//     per workflow (target <= 0.5).
//   - replay: replaying testdata/histories/sequential1000.json (1,000
//     sequential activities); CPU time per replay (target <= 0.2).
//   - dispatcher: replaying pingpong20000.json (two coroutines exchanging
//     20,000 values over unbuffered channels); CPU per replay (<= 0.1).
//   - memory: 2,000 workflows waiting for a signal, all in the worker's
//     sticky cache; heap+stack bytes per cached workflow (target <= 0.5),
//     and goroutines per workflow; then they are signaled and complete.
//   - localactivities: as latency, with workflows that run 10 local
//     activities one after the other (target: p50 ratio <= 1).
//   - scale: throughput with 1, 4 and 16 activities per workflow (same
//     targets as throughput), with 300 workflows each by default so that a
//     full run stays under ten minutes on two cores.
//   - nexus sync and nexus async: 500 workflows from the concurrent
//     starters that call a Nexus operation once, a synchronous one or a
//     workflow-run one whose workflow returns at once, served by the same
//     worker through an endpoint on its task queue; the same workflows
//     without the call run first in that worker, and the difference of
//     the worker's CPU per workflow is its CPU per Nexus operation
//     (target <= 0.5).
//   - versioning: 1,000 one-activity workflows from the concurrent
//     starters, run by an unversioned worker, then by a versioned one
//     (worker deployment versioning on, its version made current, default
//     behavior Pinned or AutoUpgrade); the worker's CPU per workflow of
//     each, and their ratio (target: versioned CPU per workflow <= 0.5).
//   - typed: 1,000 one-activity workflows, plain then written with our
//     typed API (the official side runs its plain workflow twice), in one
//     worker; the worker's CPU per workflow of each and their ratio.
//
// # How it measures
//
// The design is "the worker in a child process": for each SDK and each
// workload the program re-executes its own binary as a child (flag
// -child) that runs only that SDK's worker (or replayer). The parent
// process runs the dev server's client side: the starters, signals,
// describes and result waits, using the same SDK's client as the worker
// (so latency is the whole SDK's, client included). The child reports its
// own state on request over a pipe: process CPU time (getrusage
// RUSAGE_SELF, user+system, every thread including the garbage
// collector), runtime.MemStats and runtime.NumGoroutine. Worker CPU is the
// difference of two such readings around the measured part, so process
// start, connection, warm-up and shutdown are not counted, and the
// starters' CPU never is. A fresh process per SDK and workload also keeps
// the two SDKs' heaps, caches and garbage-collector pacing apart. The dev
// server is shared and, on a small machine, competes with the worker for
// CPU; both SDKs see the same server, and the SDKs alternate: each
// workload runs ours then official in odd rounds (-rounds), official then
// ours in even ones. Each SDK gets its own task queue per workload and
// round. Both SDKs use their default worker options, the same sticky
// cache size (at least twice the memory workload's workflows) and a
// warnings-only slog logger.
//
// Memory is read in the worker child after starting the workflows and
// polling DescribeWorkflowExecution until each has completed its first
// workflow task with none pending (the child's count of entered workflow
// functions is checked too): runtime.GC twice, then HeapInuse+StackInuse
// and NumGoroutine, against the same reading taken before the workflows
// started (after a few warm-up workflows completed).
//
// Replays run in a replay-only child: the history is parsed once, replayed
// once to check it, then replayed until -replay-time of process CPU and
// -replay-iters replays are spent.
//
// The dev server is started with its per-shard queue-reader limits
// (history.*ProcessorMaxPollRPS, 20 by default) raised: it has a single
// history shard, so those limits otherwise delay every task dispatch by
// about 50 ms and a one-activity workflow takes 150 ms with either SDK.
//
// With -metrics, both SDKs' workers get a metrics handler that records
// every counter, gauge and timer in an in-memory registry, the same code on
// both sides (metrics.go), so that worker CPU includes each SDK's own
// metrics; the report then also shows how many series each side recorded.
//
// Where a target is missed and -profile DIR is given, our side of that
// workload runs once more, not measured, with a CPU profile (a heap and a
// goroutine profile for memory) of the child written to DIR.
package main
