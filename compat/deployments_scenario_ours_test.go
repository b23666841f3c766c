package compat

// The worker deployment scenario of TestWorkerDeploymentClientsAgree, on
// one SDK's client. deployments_scenario_official_test.go is
// deployments_scenario_ours_test.go with the import prefix and the
// function's name rewritten (TestDeploymentScenarioIsOneSource): edit the
// ours file and regenerate with
// go test -run TestDeploymentScenarioIsOneSource -update .

import (
	"context"
	"slices"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

// deploymentScenarioOurs runs an operator's calls on deployment name, whose
// versions v1 and v2 polled taskQueue, and notes what each returns.
func deploymentScenarioOurs(ctx context.Context, c client.Client, name, taskQueue string) *deploymentOutcome {
	o := &deploymentOutcome{name: name}
	deployments := c.WorkerDeploymentClient()
	h := deployments.GetHandle(name)

	// The checks each client makes before sending anything.
	_, err := deployments.GetHandle("").Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	o.noteRefused("describe an unnamed deployment", err)
	_, err = h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{})
	o.noteRefused("describe a version without build ID", err)
	_, err = h.DeleteVersion(ctx, client.WorkerDeploymentDeleteVersionOptions{})
	o.noteRefused("delete a version without build ID", err)
	_, err = h.SetManagerIdentity(ctx, client.WorkerDeploymentSetManagerIdentityOptions{Self: true, ManagerIdentity: "x"})
	o.noteRefused("set both Self and ManagerIdentity", err)
	_, err = deployments.Delete(ctx, client.WorkerDeploymentDeleteOptions{})
	o.noteRefused("delete an unnamed deployment", err)

	var d client.WorkerDeploymentDescribeResponse
	o.await("the versions", func() bool {
		d, err = h.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
		return err == nil && len(d.Info.VersionSummaries) == 2
	})
	var versions []string
	for _, s := range d.Info.VersionSummaries {
		versions = append(versions, o.version(&s.Version), o.strf("drainage %d, created %v", s.DrainageStatus, !s.CreateTime.IsZero()))
	}
	slices.Sort(versions)
	o.note("versions", versions)
	o.note("described", d.Info.Name == name, len(d.ConflictToken) > 0, !d.Info.CreateTime.IsZero(), d.Info.LastModifierIdentity, d.Info.ManagerIdentity)
	o.noteRouting("routing at first", d.Info.RoutingConfig)

	// Each version's task queues, once the server has recorded both types.
	var v1 client.WorkerDeploymentVersionDescription
	o.await("the versions' task queues", func() bool {
		v2, err := h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: "v2"})
		if err != nil || len(v2.Info.TaskQueuesInfos) < 2 {
			return false
		}
		v1, err = h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: "v1"})
		return err == nil && len(v1.Info.TaskQueuesInfos) == 2
	})
	var queues []string
	for _, q := range v1.Info.TaskQueuesInfos {
		queues = append(queues, o.strf("%s %d", o.anonymous(q.Name), q.Type))
	}
	slices.Sort(queues)
	o.note("v1", o.version(&v1.Info.Version), queues, v1.Info.DrainageInfo == nil, v1.Info.RampPercentage, len(v1.Info.Metadata),
		!v1.Info.CreateTime.IsZero(), !v1.Info.RoutingChangedTime.IsZero(), !v1.Info.CurrentSinceTime.IsZero(), !v1.Info.RampingSinceTime.IsZero())

	// The rollout, serialized by conflict tokens.
	current, err := h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: "v1", ConflictToken: d.ConflictToken})
	o.noteErr("set current v1", err)
	// The deprecated Previous fields are not compared: a call the client
	// retries after the server made the change is answered as a no-op,
	// whose previous value is the new one.
	o.note("token after set current", len(current.ConflictToken) > 0)
	_, err = h.SetRampingVersion(ctx, client.WorkerDeploymentSetRampingVersionOptions{BuildID: "v2", Percentage: 30, ConflictToken: d.ConflictToken})
	o.noteErr("ramp with a stale token", err)
	ramp, err := h.SetRampingVersion(ctx, client.WorkerDeploymentSetRampingVersionOptions{BuildID: "v2", Percentage: 30, ConflictToken: current.ConflictToken})
	o.noteErr("ramp v2", err)
	d, err = h.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	o.noteErr("describe", err)
	o.noteRouting("routing while ramping", d.Info.RoutingConfig)
	o.note("the ramp's token is the deployment's", string(ramp.ConflictToken) == string(d.ConflictToken))
	v2, err := h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: "v2"})
	o.noteErr("describe v2", err)
	o.note("v2 ramping", v2.Info.RampPercentage, !v2.Info.RampingSinceTime.IsZero(), v2.Info.DrainageInfo == nil)

	// Task queue descriptions: the routing, and the pollers' deployments.
	tq, err := c.DescribeTaskQueueEnhanced(ctx, client.DescribeTaskQueueEnhancedOptions{TaskQueue: taskQueue, ReportPollers: true})
	o.noteErr("describe the versioned task queue", err)
	o.note("versioned task queue", tq)
	// An unversioned worker of the deployment, polling just before the
	// description (on the test server, the enhanced description stopped
	// listing pollers seconds after their polls ended).
	pollAsDeployment(c.WorkflowService(), taskQueue+"-unversioned", name, "v3", enumspb.WORKER_VERSIONING_MODE_UNVERSIONED)
	tq, err = c.DescribeTaskQueueEnhanced(ctx, client.DescribeTaskQueueEnhancedOptions{TaskQueue: taskQueue + "-unversioned", ReportPollers: true})
	o.noteErr("describe the unversioned task queue", err)
	o.note("unversioned task queue", tq)

	// Metadata, encoded by the client's data converter.
	raw := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/plain")}, Data: []byte("blue")}
	meta, err := h.UpdateVersionMetadata(ctx, client.WorkerDeploymentUpdateVersionMetadataOptions{
		Version:        worker.WorkerDeploymentVersion{DeploymentName: name, BuildID: "v2"},
		MetadataUpdate: client.WorkerDeploymentMetadataUpdate{UpsertEntries: map[string]any{"owner": "team-a", "replicas": 3, "color": raw, "gone": true}},
	})
	o.noteErr("upsert metadata", err)
	o.noteMetadata("metadata after the upsert", meta.Metadata)
	meta, err = h.UpdateVersionMetadata(ctx, client.WorkerDeploymentUpdateVersionMetadataOptions{
		Version:        worker.WorkerDeploymentVersion{DeploymentName: name, BuildID: "v2"},
		MetadataUpdate: client.WorkerDeploymentMetadataUpdate{RemoveEntries: []string{"gone"}},
	})
	o.noteErr("remove metadata", err)
	o.noteMetadata("metadata after the removal", meta.Metadata)

	// The manager identity.
	_, err = h.SetManagerIdentity(ctx, client.WorkerDeploymentSetManagerIdentityOptions{Self: true})
	o.noteErr("become the manager", err)
	_, err = h.SetRampingVersion(ctx, client.WorkerDeploymentSetRampingVersionOptions{BuildID: "v2", Percentage: 40, Identity: "intruder"})
	o.noteErr("ramp as another identity", err)
	d, err = h.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	o.noteErr("describe", err)
	o.note("managed", d.Info.ManagerIdentity, d.Info.LastModifierIdentity)
	_, err = h.SetManagerIdentity(ctx, client.WorkerDeploymentSetManagerIdentityOptions{})
	o.noteErr("clear the manager", err)

	// Promotion, and the versions no worker polled.
	_, err = h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: "v2"})
	o.noteErr("promote v2", err)
	d, err = h.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	o.noteErr("describe", err)
	o.noteRouting("routing after the promotion", d.Info.RoutingConfig)
	v1, err = h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: "v1"})
	o.noteErr("describe v1", err)
	o.note("v1 replaced", v1.Info.DrainageInfo != nil, !v1.Info.CurrentSinceTime.IsZero())
	_, err = h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: "v9"})
	o.noteErr("describe a version no worker polled", err)
	_, err = h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: "v9"})
	o.noteErr("make current a version no worker polled", err)
	_, err = h.DeleteVersion(ctx, client.WorkerDeploymentDeleteVersionOptions{BuildID: "v1", SkipDrainage: true})
	o.noteErr("delete a version whose workers polled", err)
	_, err = deployments.Delete(ctx, client.WorkerDeploymentDeleteOptions{Name: name})
	o.noteErr("delete a deployment with versions", err)

	var listed *client.WorkerDeploymentListEntry
	o.await("the listing", func() bool {
		it, err := deployments.List(ctx, client.WorkerDeploymentListOptions{PageSize: 2})
		if err != nil {
			return false
		}
		for it.HasNext() {
			entry, err := it.Next()
			if err != nil {
				return false
			}
			if entry.Name == name {
				listed = entry
			}
		}
		return listed != nil && listed.RoutingConfig.CurrentVersion != nil && listed.RoutingConfig.CurrentVersion.BuildID == "v2"
	})
	if listed != nil {
		o.note("listed", !listed.CreateTime.IsZero())
		o.noteRouting("listed routing", listed.RoutingConfig)
	}

	// A deployment that never had pollers, deleted with its version.
	bare := deployments.GetHandle(name + "-bare")
	_, err = bare.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	o.noteErr("describe an unknown deployment", err)
	_, err = bare.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: "b1"})
	o.noteErr("make current a version of an unknown deployment", err)
	_, err = bare.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: "b1", AllowNoPollers: true})
	o.noteErr("make current a version no worker polled, allowed", err)
	_, err = bare.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: ""})
	o.noteErr("route to the unversioned workers", err)
	_, err = bare.DeleteVersion(ctx, client.WorkerDeploymentDeleteVersionOptions{BuildID: "b1"})
	o.noteErr("delete a draining version", err)
	_, err = bare.DeleteVersion(ctx, client.WorkerDeploymentDeleteVersionOptions{BuildID: "b1", SkipDrainage: true})
	o.noteErr("delete a draining version, skipping drainage", err)
	o.await("the version's deletion", func() bool {
		d, err = bare.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
		return err == nil && len(d.Info.VersionSummaries) == 0
	})
	_, err = deployments.Delete(ctx, client.WorkerDeploymentDeleteOptions{Name: name + "-bare"})
	o.noteErr("delete a deployment without versions", err)
	_, err = bare.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	o.noteErr("describe a deleted deployment", err)
	return o
}
