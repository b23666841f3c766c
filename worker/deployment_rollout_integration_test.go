package worker_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// rolloutWorkflow waits for the "finish" signal and returns the build ID
// of the worker that ran its last task.
func rolloutWorkflow(ctx workflow.Context) (string, error) {
	workflow.GetSignalChannel(ctx, "finish").Receive(ctx, nil)
	return workflow.GetInfo(ctx).GetCurrentBuildID(), nil
}

// rolloutQuick returns the build ID of the worker that ran its first and
// only task.
func rolloutQuick(ctx workflow.Context) (string, error) {
	return workflow.GetInfo(ctx).GetCurrentBuildID(), nil
}

// startVersionedWorker starts a worker of deployment version
// deployment/buildID on taskQueue, versioned, with the rollout workflows
// registered as "Pinned", "AutoUpgrade" and "Quick" (auto-upgrade), and
// continueOnto and childOn as "ContinueOnto" and "ChildOn" (pinned).
func startVersionedWorker(t *testing.T, c client.Client, taskQueue, deployment, buildID string) worker.Worker {
	t.Helper()
	w := worker.New(c, taskQueue, worker.Options{DeploymentOptions: worker.DeploymentOptions{
		UseVersioning: true,
		Version:       worker.WorkerDeploymentVersion{DeploymentName: deployment, BuildID: buildID},
	}})
	w.RegisterWorkflowWithOptions(rolloutWorkflow, workflow.RegisterOptions{Name: "Pinned", VersioningBehavior: workflow.VersioningBehaviorPinned})
	w.RegisterWorkflowWithOptions(rolloutWorkflow, workflow.RegisterOptions{Name: "AutoUpgrade", VersioningBehavior: workflow.VersioningBehaviorAutoUpgrade})
	w.RegisterWorkflowWithOptions(rolloutQuick, workflow.RegisterOptions{Name: "Quick", VersioningBehavior: workflow.VersioningBehaviorAutoUpgrade})
	w.RegisterWorkflowWithOptions(continueOnto, workflow.RegisterOptions{Name: "ContinueOnto", VersioningBehavior: workflow.VersioningBehaviorPinned})
	w.RegisterWorkflowWithOptions(childOn, workflow.RegisterOptions{Name: "ChildOn", VersioningBehavior: workflow.VersioningBehaviorPinned})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	return w
}

// deploymentOps are the calls an operator makes during a rollout, through
// client.WorkerDeploymentClient.
type deploymentOps struct {
	t                     *testing.T
	c                     client.Client
	deployment, taskQueue string
}

// eventually retries op until it succeeds or a minute has passed: the
// server learns of a version from its workers' polls, and reports
// drainage after its refresh interval.
func (o deploymentOps) eventually(what string, op func(ctx context.Context) error) {
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

func (o deploymentOps) handle() client.WorkerDeploymentHandle {
	return o.c.WorkerDeploymentClient().GetHandle(o.deployment)
}

func (o deploymentOps) setCurrent(buildID string) {
	o.t.Helper()
	o.eventually("set current version "+buildID, func(ctx context.Context) error {
		_, err := o.handle().SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: buildID, Identity: "rollout-test"})
		return err
	})
	o.waitRouting(buildID, "", 0)
}

// waitRouting waits until the task queue routes as the deployment says:
// the server takes a change of the current or ramping version at once,
// and tells the task queue after.
func (o deploymentOps) waitRouting(current, ramping string, percentage float32) {
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

func (o deploymentOps) setRamping(current, buildID string, percentage float32) {
	o.t.Helper()
	o.eventually(fmt.Sprintf("ramp version %s to %v%%", buildID, percentage), func(ctx context.Context) error {
		_, err := o.handle().SetRampingVersion(ctx, client.WorkerDeploymentSetRampingVersionOptions{BuildID: buildID, Percentage: percentage, Identity: "rollout-test"})
		return err
	})
	o.waitRouting(current, buildID, percentage)
}

// waitPollers waits until the task queue's pollers of the type are the
// versions given, each versioned in its deployment, as the server saw
// them in the workers' polls.
func (o deploymentOps) waitPollers(queueType enumspb.TaskQueueType, buildIDs ...string) {
	o.t.Helper()
	o.eventually("pollers of versions "+fmt.Sprint(buildIDs), func(ctx context.Context) error {
		resp, err := o.c.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{
			Namespace: "default", TaskQueue: &taskqueuepb.TaskQueue{Name: o.taskQueue}, TaskQueueType: queueType})
		if err != nil {
			return err
		}
		var polled []string
		for _, p := range resp.GetPollers() {
			d := p.GetDeploymentOptions()
			if d.GetDeploymentName() != o.deployment || d.GetWorkerVersioningMode() != enumspb.WORKER_VERSIONING_MODE_VERSIONED {
				return fmt.Errorf("a poller with deployment options %v", d)
			}
			if !slices.Contains(polled, d.GetBuildId()) {
				polled = append(polled, d.GetBuildId())
			}
		}
		if slices.Sort(polled); !slices.Equal(polled, buildIDs) {
			return fmt.Errorf("pollers of versions %q", polled)
		}
		return nil
	})
}

func (o deploymentOps) describe(ctx context.Context, buildID string) (client.WorkerDeploymentVersionDescription, error) {
	return o.handle().DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: buildID})
}

// waitDrained waits until the server reports the version drained: no
// open workflow can need it any more.
func (o deploymentOps) waitDrained(buildID string) {
	o.t.Helper()
	o.eventually("version "+buildID+" drained", func(ctx context.Context) error {
		resp, err := o.describe(ctx, buildID)
		if err != nil {
			return err
		}
		if d := resp.Info.DrainageInfo; d == nil || d.DrainageStatus != client.WorkerDeploymentVersionDrainageStatusDrained {
			return fmt.Errorf("drainage %+v", d)
		}
		return nil
	})
}

func (o deploymentOps) deleteVersion(buildID string) {
	o.t.Helper()
	o.eventually("delete version "+buildID, func(ctx context.Context) error {
		_, err := o.handle().DeleteVersion(ctx, client.WorkerDeploymentDeleteVersionOptions{BuildID: buildID, Identity: "rollout-test"})
		return err
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var notFound *serviceerror.NotFound
	if _, err := o.describe(ctx, buildID); !errors.As(err, &notFound) {
		o.t.Fatalf("describe deleted version %s: %v, want NotFound", buildID, err)
	}
}

// waitForBehavior waits until the run's first task has completed, which
// records its versioning behavior and version, and returns them.
func waitForBehavior(t *testing.T, c client.Client, run client.WorkflowRun) (enumspb.VersioningBehavior, string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		d, err := c.DescribeWorkflowExecution(testCtx(t), run.GetID(), run.GetRunID())
		if err != nil {
			t.Fatal(err)
		}
		v := d.GetWorkflowExecutionInfo().GetVersioningInfo()
		if v.GetBehavior() != enumspb.VERSIONING_BEHAVIOR_UNSPECIFIED {
			return v.GetBehavior(), v.GetDeploymentVersion().GetBuildId()
		}
		if time.Now().After(deadline) {
			t.Fatalf("workflow %s: no versioning behavior recorded in time (%v)", run.GetID(), v)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// taskBuildIDs are the build IDs the run's WorkflowTaskCompleted events
// record, in order.
func taskBuildIDs(t *testing.T, c client.Client, run client.WorkflowRun) []string {
	t.Helper()
	var ids []string
	it := c.GetWorkflowHistory(testCtx(t), run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetWorkflowTaskCompletedEventAttributes(); a != nil {
			ids = append(ids, a.GetDeploymentVersion().GetBuildId())
		}
	}
	return ids
}

func runResult(t *testing.T, run client.WorkflowRun) string {
	t.Helper()
	var buildID string
	if err := run.Get(testCtx(t), &buildID); err != nil {
		t.Fatal(err)
	}
	return buildID
}

// A rollout as an operator runs it, on the dev server: workers of version
// 1 run pinned and auto-upgrade workflows; version 2 starts, is ramped to
// 30% and then made current; the pinned workflow finishes on version 1,
// the auto-upgrade one moves to version 2 at its next task, new
// workflows start on version 2; version 1 drains, its workers stop, and it
// is deleted.
func TestDeploymentRollout(t *testing.T) {
	testharness.NeedsDevServer(t, "worker deployments")
	if os.Getenv(devserver.TargetEnv) == "1.29" {
		t.Skipf("%s=1.29: the rollout waits for version 1 to drain and deletes it, which the CLI's server checks every few minutes; durable-devserver (server %s) checks every second", devserver.TargetEnv, devserver.DevServerVersion)
	}
	c := dial(t)
	deployment, taskQueue := unique(t, "deployment"), unique(t, "tq")
	ops := deploymentOps{t: t, c: c, deployment: deployment, taskQueue: taskQueue}
	start := func(workflowType string) client.WorkflowRun {
		t.Helper()
		run, err := c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: unique(t, workflowType), TaskQueue: taskQueue}, workflowType)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}

	v1 := startVersionedWorker(t, c, taskQueue, deployment, "v1")
	defer v1.Stop()
	ops.setCurrent("v1")
	pinned, autoUpgrade := start("Pinned"), start("AutoUpgrade")
	for _, tc := range []struct {
		run  client.WorkflowRun
		want enumspb.VersioningBehavior
	}{{pinned, enumspb.VERSIONING_BEHAVIOR_PINNED}, {autoUpgrade, enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE}} {
		if behavior, buildID := waitForBehavior(t, c, tc.run); behavior != tc.want || buildID != "v1" {
			t.Fatalf("%s: behavior %v on %q, want %v on v1", tc.run.GetID(), behavior, buildID, tc.want)
		}
	}

	v2 := startVersionedWorker(t, c, taskQueue, deployment, "v2")
	defer v2.Stop()
	ops.waitPollers(enumspb.TASK_QUEUE_TYPE_WORKFLOW, "v1", "v2")
	ops.waitPollers(enumspb.TASK_QUEUE_TYPE_ACTIVITY, "v1", "v2")
	ops.setRamping("v1", "v2", 30)
	// With 30% ramped, new workflows start on both versions: the chance
	// that none of 40 lands on either is below one in a million.
	var ramped []client.WorkflowRun
	for range 40 {
		ramped = append(ramped, start("Quick"))
	}
	onVersion := map[string]int{}
	for _, run := range ramped {
		onVersion[runResult(t, run)]++
	}
	if onVersion["v1"] == 0 || onVersion["v2"] == 0 || onVersion["v1"]+onVersion["v2"] != 40 {
		t.Fatalf("with v2 ramped to 30%%, 40 new workflows ran on %v; want both versions", onVersion)
	}

	ops.setCurrent("v2")
	for _, run := range []client.WorkflowRun{pinned, autoUpgrade} {
		if err := c.SignalWorkflow(testCtx(t), run.GetID(), run.GetRunID(), "finish", nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := runResult(t, pinned); got != "v1" {
		t.Errorf("the pinned workflow finished on %q, want v1", got)
	}
	if got := taskBuildIDs(t, c, pinned); !slices.Equal(got, []string{"v1", "v1"}) {
		t.Errorf("the pinned workflow's tasks completed on %q, want v1 twice", got)
	}
	if got := runResult(t, autoUpgrade); got != "v2" {
		t.Errorf("the auto-upgrade workflow finished on %q, want v2", got)
	}
	if got := taskBuildIDs(t, c, autoUpgrade); !slices.Equal(got, []string{"v1", "v2"}) {
		t.Errorf("the auto-upgrade workflow's tasks completed on %q, want v1 then v2", got)
	}
	fresh := start("Pinned")
	if behavior, buildID := waitForBehavior(t, c, fresh); behavior != enumspb.VERSIONING_BEHAVIOR_PINNED || buildID != "v2" {
		t.Errorf("a new pinned workflow: behavior %v on %q, want pinned on v2", behavior, buildID)
	}
	if err := c.SignalWorkflow(testCtx(t), fresh.GetID(), fresh.GetRunID(), "finish", nil); err != nil {
		t.Fatal(err)
	}
	if got := runResult(t, fresh); got != "v2" {
		t.Errorf("a new workflow finished on %q, want v2", got)
	}

	ops.waitDrained("v1")
	v1.Stop()
	ops.deleteVersion("v1")
}

// A start that asks for eager execution on a versioned worker of this
// client names the worker's version (EagerWorkerDeploymentOptions), as
// go.temporal.io/sdk's does: the server runs the first task there, eagerly,
// and records it as that version's.
func TestEagerStartNamesTheWorkersDeploymentVersion(t *testing.T) {
	testharness.NeedsDevServer(t, "worker deployments")
	var mu sync.Mutex
	var sent *deploymentpb.WorkerDeploymentOptions
	var eager bool
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{
		grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
			err := invoker(ctx, method, req, reply, cc, opts...)
			if start, ok := req.(*workflowservice.StartWorkflowExecutionRequest); ok {
				mu.Lock()
				sent = start.GetEagerWorkerDeploymentOptions()
				eager = reply.(*workflowservice.StartWorkflowExecutionResponse).GetEagerWorkflowTask() != nil
				mu.Unlock()
			}
			return err
		}),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	deployment, taskQueue := unique(t, "deployment"), unique(t, "tq")
	ops := deploymentOps{t: t, c: c, deployment: deployment, taskQueue: taskQueue}
	w := startVersionedWorker(t, c, taskQueue, deployment, "v1")
	defer w.Stop()
	ops.setCurrent("v1")
	run, err := c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue, EnableEagerStart: true}, "Quick")
	if err != nil {
		t.Fatal(err)
	}
	if got := runResult(t, run); got != "v1" {
		t.Errorf("the eagerly started workflow ran on %q, want v1", got)
	}
	mu.Lock()
	defer mu.Unlock()
	want := &deploymentpb.WorkerDeploymentOptions{DeploymentName: deployment, BuildId: "v1", WorkerVersioningMode: enumspb.WORKER_VERSIONING_MODE_VERSIONED}
	if !proto.Equal(sent, want) || !eager {
		t.Errorf("the start sent deployment options %v and its first task came eagerly: %v; want %v, true", sent, eager, want)
	}
	if got := taskBuildIDs(t, c, run); !slices.Equal(got, []string{"v1"}) {
		t.Errorf("the eager task completed on %q, want v1", got)
	}
}

// continueOnto continues as new once, on the "continue" signal, with the
// initial versioning behavior given; the new run returns the build ID it
// runs on.
func continueOnto(ctx workflow.Context, behavior workflow.ContinueAsNewVersioningBehavior) (string, error) {
	if workflow.GetInfo(ctx).ContinuedExecutionRunID != "" {
		return workflow.GetInfo(ctx).GetCurrentBuildID(), nil
	}
	workflow.GetSignalChannel(ctx, "continue").Receive(ctx, nil)
	return "", workflow.NewContinueAsNewErrorWithOptions(ctx, workflow.ContinueAsNewErrorOptions{InitialVersioningBehavior: behavior}, "ContinueOnto", behavior)
}

// childOn runs "Quick" as a child pinned to deployment's version buildID
// and returns the build ID it ran on, or its error.
func childOn(ctx workflow.Context, deployment, buildID string) (string, error) {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{VersioningOverride: &client.PinnedVersioningOverride{
		Version: worker.WorkerDeploymentVersion{DeploymentName: deployment, BuildID: buildID}}})
	var ran string
	err := workflow.ExecuteChildWorkflow(ctx, "Quick").Get(ctx, &ran)
	if invalid := (*temporal.InvalidVersioningOverrideError)(nil); errors.As(err, &invalid) {
		return "refused: " + invalid.Error(), nil
	}
	return ran, err
}

// A run that continues as new with ContinueAsNewVersioningBehaviorAutoUpgrade
// starts its new run on the current version, where one without it stays
// on its pinned version; a child pinned to a version by its
// VersioningOverride runs there, and one pinned to a version that does
// not exist fails to start, as the server decides from what the worker
// sends.
func TestContinueAsNewAndChildrenChooseTheirVersion(t *testing.T) {
	testharness.NeedsDevServer(t, "worker deployments")
	if os.Getenv(devserver.TargetEnv) == "1.29" {
		t.Skipf("%s=1.29: server 1.29 has neither the continue-as-new versioning behavior nor the refusal of a child's override to an unknown version; durable-devserver (server %s) has both", devserver.TargetEnv, devserver.DevServerVersion)
	}
	c := dial(t)
	deployment, taskQueue := unique(t, "deployment"), unique(t, "tq")
	ops := deploymentOps{t: t, c: c, deployment: deployment, taskQueue: taskQueue}
	v1 := startVersionedWorker(t, c, taskQueue, deployment, "v1")
	defer v1.Stop()
	v2 := startVersionedWorker(t, c, taskQueue, deployment, "v2")
	defer v2.Stop()
	ops.setCurrent("v1")

	// Both runs start pinned on v1; they continue as new once v2 is
	// current.
	behaviors := []struct {
		behavior workflow.ContinueAsNewVersioningBehavior
		want     string
	}{{workflow.ContinueAsNewVersioningBehaviorUnspecified, "v1"}, {workflow.ContinueAsNewVersioningBehaviorAutoUpgrade, "v2"}}
	var runs []client.WorkflowRun
	for _, tc := range behaviors {
		run, err := c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: unique(t, "continue"), TaskQueue: taskQueue}, "ContinueOnto", tc.behavior)
		if err != nil {
			t.Fatal(err)
		}
		if behavior, buildID := waitForBehavior(t, c, run); behavior != enumspb.VERSIONING_BEHAVIOR_PINNED || buildID != "v1" {
			t.Fatalf("run %s: %v on %q, want pinned on v1", run.GetID(), behavior, buildID)
		}
		runs = append(runs, run)
	}
	ops.setCurrent("v2")
	for i, tc := range behaviors {
		run := runs[i]
		if err := c.SignalWorkflow(testCtx(t), run.GetID(), run.GetRunID(), "continue", nil); err != nil {
			t.Fatal(err)
		}
		var got string
		if err := c.GetWorkflow(testCtx(t), run.GetID(), "").Get(testCtx(t), &got); err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("continued as new with initial versioning behavior %v: the new run ran on %q, want %s", tc.behavior, got, tc.want)
		}
	}

	for _, tc := range []struct {
		pinTo, want string
	}{{"v1", "v1"}, {"v9", "refused: invalid versioning override"}} {
		run, err := c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: unique(t, "parent"), TaskQueue: taskQueue}, "ChildOn", deployment, tc.pinTo)
		if err != nil {
			t.Fatal(err)
		}
		if got := runResult(t, run); got != tc.want {
			t.Errorf("a child pinned to %s: %q, want %q", tc.pinTo, got, tc.want)
		}
	}
}
