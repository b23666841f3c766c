// Taken from github.com/temporalio/features, features/build_id_versioning/unversioned_worker_no_task/feature.go at commit
// 98d4694b7bb831a38f98a549f7281a856b924cf1; only its imports are rewritten, to this module's harness
// and to this SDK.
//
//lint:file-ignore SA1019,S1039,SA4006 the features repository's code, kept as it is there.

package unversioned_worker_no_task

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/durable-go/sdk/compat/features/harness/official"
	"github.com/durable-go/sdk/compat/features/versioning/official/build_id_versioning"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/workflow"
)

var Feature = harness.Feature{
	Workflows: Workflow,
	Execute:   Execute,
}

func Execute(ctx context.Context, r *harness.Runner) (client.WorkflowRun, error) {
	if supported, err := build_id_versioning.ServerSupportsBuildIDVersioning(ctx, r); !supported || err != nil {
		if err != nil {
			return nil, err
		}
		return nil, r.Skip(fmt.Sprintf("server does not support build id versioning"))
	}
	// Add some versions to the queue
	err := build_id_versioning.AddSomeVersions(ctx, r.Client, r.TaskQueue)
	if err != nil {
		return nil, err
	}

	// Start workflow
	run, err := r.ExecuteDefault(ctx)
	if err != nil {
		return nil, err
	}

	shortTimeout, shortCancel := context.WithTimeout(ctx, 3*time.Second)
	defer shortCancel()
	_, err = r.Client.QueryWorkflow(shortTimeout, run.GetID(), run.GetRunID(), "__stack_trace")
	if err == nil {
		return nil, errors.New("query should have timed out")
	}
	r.StopWorker()

	// Restart worker with appropriate version
	r.Feature.WorkerOptions.BuildID = "2.1"
	r.Feature.WorkerOptions.UseBuildIDForVersioning = true
	err = r.StartWorker()
	if err != nil {
		return nil, err
	}

	return run, nil
}

func Workflow(_ workflow.Context) error {
	return nil
}
