package compat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// A migration's rollout, as a mixed fleet runs it: go.temporal.io/sdk's
// workers are version 1 of a worker deployment, this SDK's version 2.
// The workflows are the same code in both SDKs, under one type name each:
// Pinned and AutoUpgrade wait for a signal and return the build ID of the
// worker that ran their last task; Quick returns it at once.

func rolloutWorkflowOurs(ctx workflow.Context) (string, error) {
	workflow.GetSignalChannel(ctx, "finish").Receive(ctx, nil)
	return workflow.GetInfo(ctx).GetCurrentBuildID(), nil
}

func rolloutWorkflowOfficial(ctx officialworkflow.Context) (string, error) {
	officialworkflow.GetSignalChannel(ctx, "finish").Receive(ctx, nil)
	return officialworkflow.GetInfo(ctx).GetCurrentBuildID(), nil
}

func rolloutQuickOurs(ctx workflow.Context) (string, error) {
	return workflow.GetInfo(ctx).GetCurrentBuildID(), nil
}

func rolloutQuickOfficial(ctx officialworkflow.Context) (string, error) {
	return officialworkflow.GetInfo(ctx).GetCurrentBuildID(), nil
}

// The rollout: version 1 (official workers) runs a pinned and an
// auto-upgrade workflow; version 2 (this SDK's) is ramped to 30% and
// then made current; the pinned workflow finishes on version 1, the
// auto-upgrade one moves to version 2 at its next task, new workflows
// start on version 2; version 1 drains, its workers stop, it is deleted.
// Then each SDK's replayer replays the histories the other wrote,
// mixed ones included.
func TestDeploymentRolloutFromOfficialToOurWorkers(t *testing.T) {
	c, oc := dialBoth(t)
	ctx := func() context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		t.Cleanup(cancel)
		return ctx
	}
	name := fmt.Sprintf("rollout-%d", time.Now().UnixNano())
	deployment, taskQueue := name+"-deployment", name+"-tq"
	ops := rolloutOps{t: t, c: c, deployment: deployment, taskQueue: taskQueue}
	var started int
	start := func(workflowType string) client.WorkflowRun {
		t.Helper()
		started++
		run, err := c.ExecuteWorkflow(ctx(), client.StartWorkflowOptions{ID: fmt.Sprintf("%s-%s-%d", name, workflowType, started), TaskQueue: taskQueue}, workflowType)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	result := func(run client.WorkflowRun) string {
		t.Helper()
		var buildID string
		if err := run.Get(ctx(), &buildID); err != nil {
			t.Fatal(err)
		}
		return buildID
	}

	v1 := officialworker.New(oc, taskQueue, officialworker.Options{DeploymentOptions: officialworker.DeploymentOptions{
		UseVersioning: true, Version: officialworker.WorkerDeploymentVersion{DeploymentName: deployment, BuildID: "v1"}}})
	v1.RegisterWorkflowWithOptions(rolloutWorkflowOfficial, officialworkflow.RegisterOptions{Name: "Pinned", VersioningBehavior: officialworkflow.VersioningBehaviorPinned})
	v1.RegisterWorkflowWithOptions(rolloutWorkflowOfficial, officialworkflow.RegisterOptions{Name: "AutoUpgrade", VersioningBehavior: officialworkflow.VersioningBehaviorAutoUpgrade})
	v1.RegisterWorkflowWithOptions(rolloutQuickOfficial, officialworkflow.RegisterOptions{Name: "Quick", VersioningBehavior: officialworkflow.VersioningBehaviorAutoUpgrade})
	if err := v1.Start(); err != nil {
		t.Fatal(err)
	}
	defer v1.Stop()
	ops.setCurrent("v1")
	pinned, autoUpgrade := start("Pinned"), start("AutoUpgrade")
	for _, tc := range []struct {
		run  client.WorkflowRun
		want enumspb.VersioningBehavior
	}{{pinned, enumspb.VERSIONING_BEHAVIOR_PINNED}, {autoUpgrade, enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE}} {
		if behavior, buildID := ops.behavior(tc.run); behavior != tc.want || buildID != "v1" {
			t.Fatalf("%s on the official worker: behavior %v on %q, want %v on v1", tc.run.GetID(), behavior, buildID, tc.want)
		}
	}

	v2 := worker.New(c, taskQueue, worker.Options{DeploymentOptions: worker.DeploymentOptions{
		UseVersioning: true, Version: worker.WorkerDeploymentVersion{DeploymentName: deployment, BuildID: "v2"}}})
	v2.RegisterWorkflowWithOptions(rolloutWorkflowOurs, workflow.RegisterOptions{Name: "Pinned", VersioningBehavior: workflow.VersioningBehaviorPinned})
	v2.RegisterWorkflowWithOptions(rolloutWorkflowOurs, workflow.RegisterOptions{Name: "AutoUpgrade", VersioningBehavior: workflow.VersioningBehaviorAutoUpgrade})
	v2.RegisterWorkflowWithOptions(rolloutQuickOurs, workflow.RegisterOptions{Name: "Quick", VersioningBehavior: workflow.VersioningBehaviorAutoUpgrade})
	if err := v2.Start(); err != nil {
		t.Fatal(err)
	}
	defer v2.Stop()
	ops.setRamping("v1", "v2", 30)
	// With 30% ramped, new workflows start on both versions: the chance
	// that none of 40 lands on either is below one in a million.
	var ramped []client.WorkflowRun
	for range 40 {
		ramped = append(ramped, start("Quick"))
	}
	onVersion := map[string]int{}
	var quickOnV1, quickOnV2 client.WorkflowRun
	for _, run := range ramped {
		switch buildID := result(run); buildID {
		case "v1":
			quickOnV1 = run
		case "v2":
			quickOnV2 = run
		}
		onVersion[result(run)]++
	}
	if onVersion["v1"] == 0 || onVersion["v2"] == 0 || onVersion["v1"]+onVersion["v2"] != 40 {
		t.Fatalf("with v2 ramped to 30%%, 40 new workflows ran on %v; want both versions", onVersion)
	}

	ops.setCurrent("v2")
	for _, run := range []client.WorkflowRun{pinned, autoUpgrade} {
		if err := c.SignalWorkflow(ctx(), run.GetID(), run.GetRunID(), "finish", nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := result(pinned); got != "v1" {
		t.Errorf("the pinned workflow finished on %q, want v1 (the official worker)", got)
	}
	if got := ops.taskBuildIDs(pinned); !slices.Equal(got, []string{"v1", "v1"}) {
		t.Errorf("the pinned workflow's tasks completed on %q, want v1 twice", got)
	}
	if got := result(autoUpgrade); got != "v2" {
		t.Errorf("the auto-upgrade workflow finished on %q, want v2 (this SDK's worker)", got)
	}
	if got := ops.taskBuildIDs(autoUpgrade); !slices.Equal(got, []string{"v1", "v2"}) {
		t.Errorf("the auto-upgrade workflow's tasks completed on %q, want v1 then v2", got)
	}
	fresh := start("Pinned")
	if behavior, buildID := ops.behavior(fresh); behavior != enumspb.VERSIONING_BEHAVIOR_PINNED || buildID != "v2" {
		t.Errorf("a new pinned workflow: behavior %v on %q, want pinned on v2", behavior, buildID)
	}
	if err := c.SignalWorkflow(ctx(), fresh.GetID(), fresh.GetRunID(), "finish", nil); err != nil {
		t.Fatal(err)
	}
	if got := result(fresh); got != "v2" {
		t.Errorf("a new workflow finished on %q, want v2", got)
	}

	ops.waitDrained("v1")
	v1.Stop()
	ops.deleteVersion("v1")

	// The histories replay on both SDKs: the official worker's alone
	// (pinned, a quick one on v1), this SDK's alone (a quick one on v2,
	// the new pinned one), and the auto-upgrade one both wrote.
	ours := worker.NewWorkflowReplayer()
	ours.RegisterWorkflowWithOptions(rolloutWorkflowOurs, workflow.RegisterOptions{Name: "Pinned"})
	ours.RegisterWorkflowWithOptions(rolloutWorkflowOurs, workflow.RegisterOptions{Name: "AutoUpgrade"})
	ours.RegisterWorkflowWithOptions(rolloutQuickOurs, workflow.RegisterOptions{Name: "Quick"})
	official := officialworker.NewWorkflowReplayer()
	official.RegisterWorkflowWithOptions(rolloutWorkflowOfficial, officialworkflow.RegisterOptions{Name: "Pinned"})
	official.RegisterWorkflowWithOptions(rolloutWorkflowOfficial, officialworkflow.RegisterOptions{Name: "AutoUpgrade"})
	official.RegisterWorkflowWithOptions(rolloutQuickOfficial, officialworkflow.RegisterOptions{Name: "Quick"})
	for _, run := range []client.WorkflowRun{pinned, quickOnV1, autoUpgrade, quickOnV2, fresh} {
		h := runHistory(t, c, run.GetID(), run.GetRunID())
		if err := ours.ReplayWorkflowHistory(nil, h); err != nil {
			t.Errorf("this SDK's replayer fails on %s: %v", run.GetID(), err)
		}
		if err := official.ReplayWorkflowHistory(quiet{}, h); err != nil {
			t.Errorf("the official replayer fails on %s: %v", run.GetID(), err)
		}
	}
}

// rolloutOps are an operator's calls during a rollout, the
// WorkflowService requests they are.
type rolloutOps struct {
	t                     *testing.T
	c                     client.Client
	deployment, taskQueue string
}

// eventually retries op for up to a minute: the server learns of a
// version from its workers' polls, routes to it a moment after it is set,
// and reports drainage after its refresh interval.
func (o rolloutOps) eventually(what string, op func(ctx context.Context) error) {
	o.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := op(ctx)
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			o.t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (o rolloutOps) setCurrent(buildID string) {
	o.t.Helper()
	o.eventually("set current version "+buildID, func(ctx context.Context) error {
		_, err := o.c.WorkflowService().SetWorkerDeploymentCurrentVersion(ctx, &workflowservice.SetWorkerDeploymentCurrentVersionRequest{
			Namespace: "default", DeploymentName: o.deployment, BuildId: buildID, Identity: "rollout-test"})
		return err
	})
	o.waitRouting(buildID, "", 0)
}

func (o rolloutOps) setRamping(current, buildID string, percentage float32) {
	o.t.Helper()
	o.eventually(fmt.Sprintf("ramp version %s to %v%%", buildID, percentage), func(ctx context.Context) error {
		_, err := o.c.WorkflowService().SetWorkerDeploymentRampingVersion(ctx, &workflowservice.SetWorkerDeploymentRampingVersionRequest{
			Namespace: "default", DeploymentName: o.deployment, BuildId: buildID, Percentage: percentage, Identity: "rollout-test"})
		return err
	})
	o.waitRouting(current, buildID, percentage)
}

// waitRouting waits until the task queue routes as the deployment says.
func (o rolloutOps) waitRouting(current, ramping string, percentage float32) {
	o.t.Helper()
	o.eventually("the task queue routes to the versions set", func(ctx context.Context) error {
		resp, err := o.c.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{
			Namespace: "default", TaskQueue: &taskqueuepb.TaskQueue{Name: o.taskQueue}, TaskQueueType: enumspb.TASK_QUEUE_TYPE_WORKFLOW})
		if err != nil {
			return err
		}
		v := resp.GetVersioningInfo()
		if v.GetCurrentDeploymentVersion().GetBuildId() != current || v.GetRampingDeploymentVersion().GetBuildId() != ramping || v.GetRampingVersionPercentage() != percentage {
			return fmt.Errorf("the task queue routes as %v", v)
		}
		return nil
	})
}

func (o rolloutOps) describe(ctx context.Context, buildID string) (*workflowservice.DescribeWorkerDeploymentVersionResponse, error) {
	return o.c.WorkflowService().DescribeWorkerDeploymentVersion(ctx, &workflowservice.DescribeWorkerDeploymentVersionRequest{
		Namespace: "default", DeploymentVersion: &deploymentpb.WorkerDeploymentVersion{DeploymentName: o.deployment, BuildId: buildID}})
}

func (o rolloutOps) waitDrained(buildID string) {
	o.t.Helper()
	o.eventually("version "+buildID+" drained", func(ctx context.Context) error {
		resp, err := o.describe(ctx, buildID)
		if err != nil {
			return err
		}
		if status := resp.GetWorkerDeploymentVersionInfo().GetDrainageInfo().GetStatus(); status != enumspb.VERSION_DRAINAGE_STATUS_DRAINED {
			return fmt.Errorf("drainage status %v", status)
		}
		return nil
	})
}

func (o rolloutOps) deleteVersion(buildID string) {
	o.t.Helper()
	o.eventually("delete version "+buildID, func(ctx context.Context) error {
		_, err := o.c.WorkflowService().DeleteWorkerDeploymentVersion(ctx, &workflowservice.DeleteWorkerDeploymentVersionRequest{
			Namespace: "default", DeploymentVersion: &deploymentpb.WorkerDeploymentVersion{DeploymentName: o.deployment, BuildId: buildID}, Identity: "rollout-test"})
		return err
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var notFound *serviceerror.NotFound
	if _, err := o.describe(ctx, buildID); !errors.As(err, &notFound) {
		o.t.Fatalf("describe deleted version %s: %v, want NotFound", buildID, err)
	}
}

// behavior waits until the run's first task has completed and returns
// the versioning behavior and version the server recorded for it.
func (o rolloutOps) behavior(run client.WorkflowRun) (enumspb.VersioningBehavior, string) {
	o.t.Helper()
	var behavior enumspb.VersioningBehavior
	var buildID string
	o.eventually("a versioning behavior recorded for "+run.GetID(), func(ctx context.Context) error {
		d, err := o.c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
		if err != nil {
			return err
		}
		v := d.GetWorkflowExecutionInfo().GetVersioningInfo()
		if v.GetBehavior() == enumspb.VERSIONING_BEHAVIOR_UNSPECIFIED {
			return errors.New("none yet")
		}
		behavior, buildID = v.GetBehavior(), v.GetDeploymentVersion().GetBuildId()
		return nil
	})
	return behavior, buildID
}

// taskBuildIDs are the build IDs the run's WorkflowTaskCompleted events
// record, in order.
func (o rolloutOps) taskBuildIDs(run client.WorkflowRun) []string {
	o.t.Helper()
	var ids []string
	for _, ev := range runHistory(o.t, o.c, run.GetID(), run.GetRunID()).GetEvents() {
		if a := ev.GetWorkflowTaskCompletedEventAttributes(); a != nil {
			ids = append(ids, a.GetDeploymentVersion().GetBuildId())
		}
	}
	return ids
}
