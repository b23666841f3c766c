// Taken from github.com/temporalio/features, features/deployment_versioning/aa_clean_old_deployments/feature.go at commit
// 98d4694b7bb831a38f98a549f7281a856b924cf1; only its imports are rewritten, to this module's harness
// and to this SDK.
//
//lint:file-ignore SA1019,S1039,SA4006 the features repository's code, kept as it is there.

package routing_with_ramp

import (
	"context"
	"fmt"
	"time"

	"github.com/durable-go/sdk/compat/features/harness/official"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/workflow"
)

var Feature = harness.Feature{
	Workflows:  CleanOldDeployments,
	Activities: []any{ListOldDeployments, DeleteDeployment},
	Execute: func(ctx context.Context, runner *harness.Runner) (client.WorkflowRun, error) {
		run, err := runner.ExecuteDefault(ctx)
		if err != nil {
			return nil, err
		}
		return run, nil
	},
	StartWorkflowOptionsMutator: func(o *client.StartWorkflowOptions) {
		// I observed this complete in 2 minutes 55 seconds when there were many Deployments
		// to delete. If the deletions are happening frequently, this will likely be shorter.
		// Giving a long timeout here to make sure it doesn't cause flakiness.
		o.WorkflowExecutionTimeout = 5 * time.Minute
	},
}

func CleanOldDeployments(ctx workflow.Context) (string, error) {
	var deploymentsToClean []string
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 1 * time.Minute,
	})
	err := workflow.ExecuteActivity(ctx, ListOldDeployments).Get(ctx, &deploymentsToClean)
	if err != nil {
		return "", err
	}

	for _, deployment := range deploymentsToClean {
		err := workflow.ExecuteActivity(ctx, DeleteDeployment, deployment).Get(ctx, nil)
		if err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("Cleaned %d deployments", len(deploymentsToClean)), nil
}

func ListOldDeployments(ctx context.Context) ([]string, error) {
	tClient := activity.GetClient(ctx)

	allDeployments := make([]string, 0)
	iterator, err := tClient.WorkerDeploymentClient().List(ctx, client.WorkerDeploymentListOptions{})
	if err != nil {
		return nil, err
	}
	for iterator.HasNext() {
		deployment, err := iterator.Next()
		if err != nil {
			return nil, err
		}
		if deployment.CreateTime.Before(time.Now().Add(-time.Hour * 24)) {
			allDeployments = append(allDeployments, deployment.Name)
		}
	}
	return allDeployments, nil
}

func DeleteDeployment(ctx context.Context, deploymentName string) error {
	client := activity.GetClient(ctx)
	ns := activity.GetInfo(ctx).WorkflowNamespace

	deploymentInfo, err := client.WorkflowService().DescribeWorkerDeployment(
		ctx,
		&workflowservice.DescribeWorkerDeploymentRequest{
			Namespace:      ns,
			DeploymentName: deploymentName,
		},
	)
	if err != nil {
		return fmt.Errorf("failed to describe worker deployment %s: %w", deploymentName, err)
	}
	// Unset current/ramping versions so things can be deleted
	_, err = client.WorkflowService().SetWorkerDeploymentCurrentVersion(ctx, &workflowservice.SetWorkerDeploymentCurrentVersionRequest{
		Namespace:               ns,
		DeploymentName:          deploymentName,
		Identity:                "feature-deployment-deleter",
		IgnoreMissingTaskQueues: true,
	})
	if err != nil {
		return fmt.Errorf("failed to unset current version for deployment %s: %w", deploymentName, err)
	}
	_, err = client.WorkflowService().SetWorkerDeploymentRampingVersion(ctx, &workflowservice.SetWorkerDeploymentRampingVersionRequest{
		Namespace:               ns,
		DeploymentName:          deploymentName,
		Identity:                "feature-deployment-deleter",
		IgnoreMissingTaskQueues: true,
	})
	if err != nil {
		return fmt.Errorf("failed to unset ramping version for deployment %s: %w", deploymentName, err)
	}

	for _, version := range deploymentInfo.WorkerDeploymentInfo.VersionSummaries {
		_, err = client.WorkflowService().DeleteWorkerDeploymentVersion(ctx,
			&workflowservice.DeleteWorkerDeploymentVersionRequest{
				Namespace:         ns,
				DeploymentVersion: version.DeploymentVersion,
				SkipDrainage:      true,
				Identity:          "feature-deployment-deleter",
			},
		)
		if err != nil {
			return fmt.Errorf("failed to delete deployment version %s for deployment %s: %w",
				version.DeploymentVersion, deploymentName, err)
		}
	}

	client.WorkflowService().DeleteWorkerDeployment(ctx,
		&workflowservice.DeleteWorkerDeploymentRequest{
			Namespace:      ns,
			DeploymentName: deploymentName,
			Identity:       "features-deployment-deleter",
		},
	)
	return nil
}
