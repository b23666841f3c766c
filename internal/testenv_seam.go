package internal

import (
	"context"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/history"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/workerrt"
)

// The test environment's seam. The test environment
// (testsuite.TestWorkflowEnvironment and TestActivityEnvironment) lives in
// package internal/testenv, which only package testsuite imports, so that
// a program that imports client, worker, workflow or activity links
// neither it nor what it needs (the in-memory server, testify). It runs
// the worker as a worker runs, with this package's wiring (wiring.go)
// and internal/workerimpl's runtime options and plugin hooks. What only
// the root can do beyond that, which production code keeps unexported,
// is this file: TestEnvSeam's methods; nothing else uses them. Each
// hands over what only this package can do, and says why; what a lower
// package or an exported function does, the test environment calls
// itself.

// TestEnvSeam gives the test environment what it borrows from this
// package. Its zero value is ready to use.
type TestEnvSeam struct{}

// Replay replays the history of one run of the test (the replay check)
// with a fresh engine, as the test's worker ran it: with reg's functions
// and env (the worker's converters, interceptors, namespace, panic policy
// and deadlock timeout). Only the root can: the replayed runs are its
// workflowRun.
func (TestEnvSeam) Replay(reg *registry.Registry, env RunOptions, events []*historypb.HistoryEvent, execution clientapi.WorkflowExecution) error {
	env.Replayer = true
	_, err := replayHistory(context.Background(), reg, env, history.Source{Events: events, Original: execution}, false)
	return err
}

// ActivityInfo is what activity.GetInfo returns for task, for the
// listeners that hear of an activity as its code sees it. Only the root
// can: its activity executor builds the info from the task.
func (TestEnvSeam) ActivityInfo(task *workerrt.ActivityTask, namespace string) ActivityInfo {
	return activityInfoOf(task, namespace)
}

// WithHistoryLength is a copy of info whose GetCurrentHistoryLength
// reports length (TestWorkflowEnvironment.SetCurrentHistoryLength). Only
// the root can: the length is unexported, as in go.temporal.io/sdk, so
// that workflow code cannot set it.
func (TestEnvSeam) WithHistoryLength(info *WorkflowInfo, length int) *WorkflowInfo {
	copied := *info
	copied.currentHistoryLength = length
	return &copied
}
