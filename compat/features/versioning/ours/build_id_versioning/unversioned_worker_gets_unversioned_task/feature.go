// Taken from github.com/temporalio/features, features/build_id_versioning/unversioned_worker_gets_unversioned_task/feature.go at commit
// 98d4694b7bb831a38f98a549f7281a856b924cf1; only its imports are rewritten, to this module's harness
// and to this SDK.
//
//lint:file-ignore SA1019,S1039,SA4006 the features repository's code, kept as it is there.

package unversioned_worker_gets_unversioned_task

import (
	"context"
	"fmt"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/compat/features/harness/ours"
	"github.com/durable-go/sdk/compat/features/versioning/ours/build_id_versioning"
	"github.com/durable-go/sdk/workflow"
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

	// Start a workflow that won't be versioned
	unVersionedRun, err := r.ExecuteDefault(ctx)
	if err != nil {
		return nil, err
	}

	// Add some versions to the queue
	err = build_id_versioning.AddSomeVersions(ctx, r.Client, r.TaskQueue)
	if err != nil {
		return nil, err
	}

	// Now unblock the unversioned WF, it should complete
	err = r.Client.SignalWorkflow(ctx, unVersionedRun.GetID(), unVersionedRun.GetRunID(), "unblocker", nil)
	if err != nil {
		return nil, err
	}

	return unVersionedRun, nil
}

func Workflow(ctx workflow.Context) error {
	unblockCh := workflow.GetSignalChannel(ctx, "unblocker")
	unblockCh.Receive(ctx, nil)
	return nil
}
