// Taken from github.com/temporalio/features, features/deployment_versioning/routing_auto_upgrade/feature.go at commit
// 98d4694b7bb831a38f98a549f7281a856b924cf1; only its imports are rewritten, to this module's harness
// and to this SDK.
//
//lint:file-ignore SA1019,S1039,SA4006 the features repository's code, kept as it is there.

package routing_auto_upgrade

import (
	"context"
	"fmt"
	"time"

	"github.com/durable-go/sdk/compat/features/harness/official"
	"github.com/durable-go/sdk/compat/features/versioning/official/deployment_versioning"
	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

var deploymentName = uuid.NewString()
var v1 = worker.WorkerDeploymentVersion{
	DeploymentName: deploymentName,
	BuildID:        "1.0",
}
var v2 = worker.WorkerDeploymentVersion{
	DeploymentName: deploymentName,
	BuildID:        "2.0",
}

func WaitForSignalOne(ctx workflow.Context) (string, error) {
	var value string
	workflow.GetSignalChannel(ctx, "start-signal").Receive(ctx, &value)
	return value + "_v1", nil
}

func WaitForSignalTwo(ctx workflow.Context) (string, error) {
	var value string
	workflow.GetSignalChannel(ctx, "start-signal").Receive(ctx, &value)
	return value + "_v2", nil
}

var Feature = harness.Feature{
	Workflows: []interface{}{
		harness.WorkflowWithOptions{
			Workflow: WaitForSignalOne,
			Options: workflow.RegisterOptions{
				Name:               "WaitForSignal",
				VersioningBehavior: workflow.VersioningBehaviorAutoUpgrade,
			},
		},
	},
	Execute: Execute,
	WorkerOptions: worker.Options{
		DeploymentOptions: worker.DeploymentOptions{
			UseVersioning: true,
			Version:       v1,
		},
	},
	CheckHistory:    CheckHistory,
	ExpectRunResult: "prefix_v2",
}

var worker2 worker.Worker

func Execute(ctx context.Context, r *harness.Runner) (client.WorkflowRun, error) {
	if supported := deployment_versioning.ServerSupportsDeployments(ctx, r); !supported {
		return nil, r.Skip(fmt.Sprintf("server does not support deployment versioning"))
	}

	worker2 = deployment_versioning.StartWorker(ctx, r, v2,
		workflow.VersioningBehaviorAutoUpgrade, WaitForSignalTwo)
	if err := worker2.Start(); err != nil {
		return nil, err
	}

	if err := deployment_versioning.SetCurrent(r, ctx, deploymentName, v1); err != nil {
		return nil, err
	}

	run, err := r.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		TaskQueue:                r.TaskQueue,
		ID:                       "workflow_1",
		WorkflowExecutionTimeout: 1 * time.Minute,
	}, "WaitForSignal")

	if err != nil {
		return nil, err
	}

	if err := deployment_versioning.WaitForWorkflowRunning(r, ctx, run); err != nil {
		return nil, err
	}

	if err := deployment_versioning.SetCurrent(r, ctx, deploymentName, v2); err != nil {
		return nil, err
	}

	if err := r.Client.SignalWorkflow(ctx, run.GetID(), run.GetRunID(), "start-signal", "prefix"); err != nil {
		return nil, err
	}

	return run, nil
}

func CheckHistory(ctx context.Context, r *harness.Runner, run client.WorkflowRun) error {
	// Shut down the 2.0 worker
	worker2.Stop()
	return r.CheckHistoryDefault(ctx, run)
}
