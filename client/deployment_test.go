package client_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/testharness"

	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/worker"
)

// pollAsVersion makes a version of deployment exist, as a worker of it
// does: one workflow and one activity poll of taskQueue, announcing the
// deployment and buildID, which the server records before the polls time
// out empty.
func pollAsVersion(t *testing.T, c client.Client, taskQueue, deployment, buildID string) {
	t.Helper()
	pollWithDeployment(c, taskQueue, deployment, buildID, enumspb.WORKER_VERSIONING_MODE_VERSIONED)
}

// pollWithDeployment polls taskQueue for workflow and activity tasks once
// each, announcing the deployment, buildID and mode, until the polls time
// out empty.
func pollWithDeployment(c client.Client, taskQueue, deployment, buildID string, mode enumspb.WorkerVersioningMode) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	options := &deploymentpb.WorkerDeploymentOptions{
		DeploymentName:       deployment,
		BuildId:              buildID,
		WorkerVersioningMode: mode,
	}
	queue := &taskqueuepb.TaskQueue{Name: taskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL}
	identity := "poller-" + buildID
	var wg sync.WaitGroup
	wg.Go(func() {
		_, _ = c.WorkflowService().PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{
			Namespace: "default", TaskQueue: queue, Identity: identity, DeploymentOptions: options,
		})
	})
	wg.Go(func() {
		_, _ = c.WorkflowService().PollActivityTaskQueue(ctx, &workflowservice.PollActivityTaskQueueRequest{
			Namespace: "default", TaskQueue: queue, Identity: identity, DeploymentOptions: options,
		})
	})
	wg.Wait()
}

// requireDeploymentServer skips a deployment test on the Temporal CLI's
// dev server (server 1.29.1): it checks a version's drainage every few
// minutes, not every second as durable-devserver (server 1.32.1) is
// configured to, and refuses some changes with other error types.
func requireDeploymentServer(t *testing.T) {
	testharness.NeedsDevServer(t, "worker deployments")
	if os.Getenv(devserver.TargetEnv) == "1.29" {
		t.Skipf("%s=1.29: the worker deployment tests need durable-devserver (server %s), whose drainage checks run every second", devserver.TargetEnv, devserver.DevServerVersion)
	}
}

// deploymentTestContext bounds a deployment test, which waits for the
// server's drainage checks (a 10s grace period on the test server) and
// takes longer than ctxFor allows.
func deploymentTestContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// describeDeploymentUntil describes the deployment until done accepts the
// answer, for up to a minute: the versions' drainage is checked on the
// server's schedule.
func describeDeploymentUntil(t *testing.T, h client.WorkerDeploymentHandle, done func(client.WorkerDeploymentDescribeResponse) bool) client.WorkerDeploymentDescribeResponse {
	t.Helper()
	var d client.WorkerDeploymentDescribeResponse
	deadline := time.Now().Add(time.Minute)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the deployment did not reach the state awaited within a minute; last described: %+v", d)
		}
		described, err := h.Describe(ctxFor(t), client.WorkerDeploymentDescribeOptions{})
		var notFound *serviceerror.NotFound
		switch {
		case errors.As(err, &notFound):
			// Not created yet.
		case err != nil:
			t.Fatal(err)
		case done(described):
			return described
		}
		d = described
		time.Sleep(200 * time.Millisecond)
	}
}

func versionBuildIDs(d client.WorkerDeploymentDescribeResponse) []string {
	var ids []string
	for _, s := range d.Info.VersionSummaries {
		ids = append(ids, s.Version.BuildID)
	}
	slices.Sort(ids)
	return ids
}

func wantFailedPrecondition(t *testing.T, what string, err error) {
	t.Helper()
	var refused *serviceerror.FailedPrecondition
	if !errors.As(err, &refused) {
		t.Fatalf("%s: want a *serviceerror.FailedPrecondition, got %T: %v", what, err, err)
	}
}

// TestWorkerDeploymentRollout is an operator's rollout from version 1 to
// version 2 of a deployment whose workers poll: ramp, promote, drain, with
// the conflict tokens that serialize the changes, the version metadata
// and the manager identity.
func TestWorkerDeploymentRollout(t *testing.T) {
	requireDeploymentServer(t)
	t.Parallel()
	ctx := deploymentTestContext(t)
	c := dial(t)
	name := workflowID(t)
	taskQueue := name + "-tq"
	var wg sync.WaitGroup
	wg.Go(func() { pollAsVersion(t, c, taskQueue, name, "v1") })
	wg.Go(func() { pollAsVersion(t, c, taskQueue, name, "v2") })
	wg.Wait()

	h := c.WorkerDeploymentClient().GetHandle(name)
	d := describeDeploymentUntil(t, h, func(d client.WorkerDeploymentDescribeResponse) bool {
		return slices.Equal(versionBuildIDs(d), []string{"v1", "v2"})
	})
	if d.Info.Name != name || d.Info.CreateTime.IsZero() || len(d.ConflictToken) == 0 {
		t.Errorf("the deployment as described: %+v", d)
	}
	if d.Info.RoutingConfig.CurrentVersion != nil || d.Info.RoutingConfig.RampingVersion != nil {
		t.Errorf("a new deployment routes to its unversioned workers: %+v", d.Info.RoutingConfig)
	}

	// The version, with the task queues its workers poll (both types, once
	// the server has recorded the second).
	var v1 client.WorkerDeploymentVersionDescription
	eventually(t, func() bool {
		var err error
		v1, err = h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: "v1"})
		if err != nil {
			t.Fatal(err)
		}
		return len(v1.Info.TaskQueuesInfos) == 2
	})
	if v1.Info.Version != (worker.WorkerDeploymentVersion{DeploymentName: name, BuildID: "v1"}) || v1.Info.CreateTime.IsZero() {
		t.Errorf("version v1: %+v", v1.Info)
	}
	wantQueues := []client.WorkerDeploymentTaskQueueInfo{{Name: taskQueue, Type: client.TaskQueueTypeWorkflow}, {Name: taskQueue, Type: client.TaskQueueTypeActivity}}
	if !sameElements(v1.Info.TaskQueuesInfos, wantQueues) {
		t.Errorf("version v1's task queues: %+v, want %+v", v1.Info.TaskQueuesInfos, wantQueues)
	}

	// Make v1 current, with the token of the description.
	current, err := h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: "v1", ConflictToken: d.ConflictToken})
	if err != nil {
		t.Fatal(err)
	}
	if len(current.ConflictToken) == 0 || string(current.ConflictToken) == string(d.ConflictToken) {
		t.Errorf("set current v1: %+v", current)
	}
	// The description's token is stale now.
	_, err = h.SetRampingVersion(ctx, client.WorkerDeploymentSetRampingVersionOptions{BuildID: "v2", Percentage: 30, ConflictToken: d.ConflictToken})
	wantFailedPrecondition(t, "a ramp with a stale conflict token", err)

	ramp, err := h.SetRampingVersion(ctx, client.WorkerDeploymentSetRampingVersionOptions{BuildID: "v2", Percentage: 30, ConflictToken: current.ConflictToken})
	if err != nil {
		t.Fatal(err)
	}
	d, err = h.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	routing := d.Info.RoutingConfig
	if *routing.CurrentVersion != (worker.WorkerDeploymentVersion{DeploymentName: name, BuildID: "v1"}) ||
		*routing.RampingVersion != (worker.WorkerDeploymentVersion{DeploymentName: name, BuildID: "v2"}) ||
		routing.RampingVersionPercentage != 30 || routing.CurrentVersionChangedTime.IsZero() || routing.RampingVersionChangedTime.IsZero() {
		t.Errorf("routing after the ramp: %+v", routing)
	}
	if d.Info.LastModifierIdentity != "client-test" {
		t.Errorf("the changes were made with the client's identity, the deployment says %q", d.Info.LastModifierIdentity)
	}
	if string(d.ConflictToken) != string(ramp.ConflictToken) {
		t.Errorf("the ramp's token is the deployment's: %x, described %x", ramp.ConflictToken, d.ConflictToken)
	}

	// The ramp reaches the task queue (the server reports its routing in
	// the plain DescribeTaskQueue only: not in the enhanced mode that
	// DescribeTaskQueueEnhanced asks for, where VersioningInfo stays nil).
	eventually(t, func() bool {
		legacy, err := c.DescribeTaskQueue(ctx, taskQueue, enumspb.TASK_QUEUE_TYPE_WORKFLOW)
		if err != nil {
			t.Fatal(err)
		}
		info := legacy.GetVersioningInfo()
		return info.GetRampingDeploymentVersion().GetBuildId() == "v2" && info.GetCurrentDeploymentVersion().GetBuildId() == "v1" && info.GetRampingVersionPercentage() == 30
	})

	// An unversioned worker of the deployment: the description names its
	// deployment, build ID and mode.
	unversioned := taskQueue + "-unversioned"
	pollWithDeployment(c, unversioned, name, "v3", enumspb.WORKER_VERSIONING_MODE_UNVERSIONED)
	tq, err := c.DescribeTaskQueueEnhanced(ctx, client.DescribeTaskQueueEnhancedOptions{TaskQueue: unversioned, ReportPollers: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, taskType := range []client.TaskQueueType{client.TaskQueueTypeWorkflow, client.TaskQueueTypeActivity} {
		pollers := tq.VersionsInfo[""].TypesInfo[taskType].Pollers
		if len(pollers) != 1 || pollers[0].WorkerDeploymentPollerOptions == nil {
			t.Fatalf("the unversioned worker's %v pollers: %+v", taskType, pollers)
		}
		if p := *pollers[0].WorkerDeploymentPollerOptions; p.DeploymentName != name || p.BuildID != "v3" || p.WorkerVersioningMode != client.WorkerVersioningModeUnversioned {
			t.Errorf("the unversioned worker's %v poller announced %+v", taskType, p)
		}
	}

	// A version no worker polled.
	var notFound *serviceerror.NotFound
	if _, err := h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: "v9"}); !errors.As(err, &notFound) {
		t.Errorf("making current a version no worker polled: %T %v", err, err)
	}
	if _, err := h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: "v9"}); !errors.As(err, &notFound) {
		t.Errorf("describing a version no worker polled: %T %v", err, err)
	}

	// Promote v2: v1 drains, having no open workflow.
	promoted, err := h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	// The previous version is v1; or v2 when the client retried the call
	// after the server had made the change, as it answers a change already
	// made (why go.temporal.io/sdk deprecates the field).
	//lint:ignore SA1019 the deprecated field is part of the API under test
	if p := promoted.PreviousVersion; p == nil || p.DeploymentName != name || (p.BuildID != "v1" && p.BuildID != "v2") {
		t.Errorf("promoting v2: previous version %+v, want v1", p)
	}
	d = describeDeploymentUntil(t, h, func(d client.WorkerDeploymentDescribeResponse) bool {
		for _, s := range d.Info.VersionSummaries {
			if s.Version.BuildID == "v1" && s.DrainageStatus == client.WorkerDeploymentVersionDrainageStatusDrained {
				return true
			}
		}
		return false
	})
	if d.Info.RoutingConfig.RampingVersion != nil || d.Info.RoutingConfig.CurrentVersion.BuildID != "v2" {
		t.Errorf("promoting the ramping version ends its ramp: %+v", d.Info.RoutingConfig)
	}
	v1, err = h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if dr := v1.Info.DrainageInfo; dr == nil || dr.DrainageStatus != client.WorkerDeploymentVersionDrainageStatusDrained || dr.LastCheckedTime.IsZero() || dr.LastChangedTime.IsZero() {
		t.Errorf("v1's drainage: %+v", dr)
	}
	// Its workers polled within the server's poller history: it stays.
	_, err = h.DeleteVersion(ctx, client.WorkerDeploymentDeleteVersionOptions{BuildID: "v1"})
	wantFailedPrecondition(t, "deleting a version whose workers polled", err)

	// Metadata: values through the data converter, payloads as they are.
	raw := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/plain")}, Data: []byte("blue")}
	meta, err := h.UpdateVersionMetadata(ctx, client.WorkerDeploymentUpdateVersionMetadataOptions{
		Version:        worker.WorkerDeploymentVersion{DeploymentName: name, BuildID: "v2"},
		MetadataUpdate: client.WorkerDeploymentMetadataUpdate{UpsertEntries: map[string]any{"owner": "team-a", "color": raw, "gone": 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(meta.Metadata) != 3 {
		t.Errorf("metadata after the upsert: %v", meta.Metadata)
	}
	meta, err = h.UpdateVersionMetadata(ctx, client.WorkerDeploymentUpdateVersionMetadataOptions{
		Version:        worker.WorkerDeploymentVersion{DeploymentName: name, BuildID: "v2"},
		MetadataUpdate: client.WorkerDeploymentMetadataUpdate{RemoveEntries: []string{"gone"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	v2, err := h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	var owner string
	if err := converter.GetDefaultDataConverter().FromPayload(v2.Info.Metadata["owner"], &owner); err != nil || owner != "team-a" {
		t.Errorf("the owner entry decodes to %q (%v)", owner, err)
	}
	if color := v2.Info.Metadata["color"]; color == nil || string(color.Data) != "blue" || len(v2.Info.Metadata) != 2 || len(meta.Metadata) != 2 {
		t.Errorf("metadata described %v, after the removal %v", v2.Info.Metadata, meta.Metadata)
	}
	if v2.Info.DrainageInfo != nil || v2.Info.CurrentSinceTime.IsZero() {
		t.Errorf("the current version has no drainage and a current-since time: %+v", v2.Info)
	}

	// The manager identity: only the manager may change the deployment.
	managed, err := h.SetManagerIdentity(ctx, client.WorkerDeploymentSetManagerIdentityOptions{Self: true})
	if err != nil {
		t.Fatal(err)
	}
	d, err = h.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Info.ManagerIdentity != "client-test" || string(d.ConflictToken) != string(managed.ConflictToken) {
		t.Errorf("after SetManagerIdentity(Self): manager %q", d.Info.ManagerIdentity)
	}
	_, err = h.SetRampingVersion(ctx, client.WorkerDeploymentSetRampingVersionOptions{BuildID: "v1", Percentage: 10, Identity: "intruder"})
	wantFailedPrecondition(t, "a change by another identity than the manager", err)
	if _, err := h.SetManagerIdentity(ctx, client.WorkerDeploymentSetManagerIdentityOptions{}); err != nil {
		t.Fatal(err)
	}
	if d, err = h.Describe(ctx, client.WorkerDeploymentDescribeOptions{}); err != nil || d.Info.ManagerIdentity != "" {
		t.Errorf("after clearing the manager: %q (%v)", d.Info.ManagerIdentity, err)
	}

	// List finds the deployment, with its routing.
	var found *client.WorkerDeploymentListEntry
	eventually(t, func() bool {
		it, err := c.WorkerDeploymentClient().List(ctx, client.WorkerDeploymentListOptions{PageSize: 1})
		if err != nil {
			t.Fatal(err)
		}
		for it.HasNext() {
			entry, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if entry.Name == name {
				found = entry
			}
		}
		return found != nil && found.RoutingConfig.CurrentVersion != nil && found.RoutingConfig.CurrentVersion.BuildID == "v2"
	})
	if found.CreateTime.IsZero() {
		t.Errorf("the listed deployment: %+v", found)
	}

	// A deployment with versions cannot be deleted.
	_, err = c.WorkerDeploymentClient().Delete(ctx, client.WorkerDeploymentDeleteOptions{Name: name})
	wantFailedPrecondition(t, "deleting a deployment with versions", err)
}

// TestWorkerDeploymentWithoutPollers is what the server refuses of versions
// no worker polled, unless told to, and the deletion of a deployment and
// its versions, which needs no poller to have been seen.
func TestWorkerDeploymentWithoutPollers(t *testing.T) {
	requireDeploymentServer(t)
	t.Parallel()
	ctx := deploymentTestContext(t)
	c := dial(t)
	deployments := c.WorkerDeploymentClient()
	name := workflowID(t)
	h := deployments.GetHandle(name)

	var notFound *serviceerror.NotFound
	if _, err := h.Describe(ctx, client.WorkerDeploymentDescribeOptions{}); !errors.As(err, &notFound) {
		t.Errorf("describing an unknown deployment: %T %v", err, err)
	}
	if _, err := h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: "b1"}); !errors.As(err, &notFound) {
		t.Errorf("a version of a deployment no worker polled made current without AllowNoPollers: %T %v", err, err)
	}
	if _, err := h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: "b1"}); !errors.As(err, &notFound) {
		t.Errorf("describing an unknown version: %T %v", err, err)
	}

	if _, err := h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: "b1", AllowNoPollers: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.SetRampingVersion(ctx, client.WorkerDeploymentSetRampingVersionOptions{BuildID: "b2", Percentage: 50, AllowNoPollers: true}); err != nil {
		t.Fatal(err)
	}
	d := describeDeploymentUntil(t, h, func(d client.WorkerDeploymentDescribeResponse) bool {
		return slices.Equal(versionBuildIDs(d), []string{"b1", "b2"})
	})
	if r := d.Info.RoutingConfig; r.CurrentVersion == nil || r.CurrentVersion.BuildID != "b1" || r.RampingVersion == nil || r.RampingVersion.BuildID != "b2" || r.RampingVersionPercentage != 50 {
		t.Errorf("routing: %+v", r)
	}

	// Back to the unversioned workers: b1 and b2 drain, and go.
	if _, err := h.SetRampingVersion(ctx, client.WorkerDeploymentSetRampingVersionOptions{BuildID: "", Percentage: 0}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: ""}); err != nil {
		t.Fatal(err)
	}
	d, err := h.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := d.Info.RoutingConfig; r.CurrentVersion != nil || r.RampingVersion != nil || r.RampingVersionPercentage != 0 {
		t.Errorf("routing to the unversioned workers: %+v", r)
	}
	// Neither current nor ramping, but draining until the server checks.
	_, err = h.DeleteVersion(ctx, client.WorkerDeploymentDeleteVersionOptions{BuildID: "b1"})
	wantFailedPrecondition(t, "deleting a draining version without SkipDrainage", err)
	if _, err := h.DeleteVersion(ctx, client.WorkerDeploymentDeleteVersionOptions{BuildID: "b1", SkipDrainage: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.DeleteVersion(ctx, client.WorkerDeploymentDeleteVersionOptions{BuildID: "b2", SkipDrainage: true, Identity: "cleaner"}); err != nil {
		t.Fatal(err)
	}
	d = describeDeploymentUntil(t, h, func(d client.WorkerDeploymentDescribeResponse) bool { return len(d.Info.VersionSummaries) == 0 })
	if d.Info.LastModifierIdentity != "cleaner" {
		t.Errorf("the last deletion was made as %q, the deployment says %q", "cleaner", d.Info.LastModifierIdentity)
	}
	if _, err := deployments.Delete(ctx, client.WorkerDeploymentDeleteOptions{Name: name}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Describe(ctx, client.WorkerDeploymentDescribeOptions{}); !errors.As(err, &notFound) {
		t.Errorf("describing a deleted deployment: %T %v", err, err)
	}
	if _, err := deployments.Delete(ctx, client.WorkerDeploymentDeleteOptions{Name: name}); err != nil {
		t.Errorf("deleting a deleted deployment again: %v", err)
	}
}

// sameElements reports whether a and b hold the same elements, in any
// order.
func sameElements[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
