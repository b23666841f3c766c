package clientimpl

import (
	"context"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
)

func TestDeploymentEnumsHaveTheProtoValues(t *testing.T) {
	chk.Equal(t, int(enumspb.VERSION_DRAINAGE_STATUS_UNSPECIFIED), clientapi.WorkerDeploymentVersionDrainageStatusUnspecified)
	chk.Equal(t, int(enumspb.VERSION_DRAINAGE_STATUS_DRAINING), clientapi.WorkerDeploymentVersionDrainageStatusDraining)
	chk.Equal(t, int(enumspb.VERSION_DRAINAGE_STATUS_DRAINED), clientapi.WorkerDeploymentVersionDrainageStatusDrained)
	chk.Equal(t, int(enumspb.WORKER_VERSIONING_MODE_UNSPECIFIED), clientapi.WorkerVersioningModeUnspecified)
	chk.Equal(t, int(enumspb.WORKER_VERSIONING_MODE_UNVERSIONED), clientapi.WorkerVersioningModeUnversioned)
	chk.Equal(t, int(enumspb.WORKER_VERSIONING_MODE_VERSIONED), clientapi.WorkerVersioningModeVersioned)
}

func TestDeploymentVersionFromWire(t *testing.T) {
	for _, tc := range []struct {
		name     string
		message  *deploymentpb.WorkerDeploymentVersion
		fallback string
		want     *clientapi.WorkerDeploymentVersion
	}{
		{"the message wins over the string", &deploymentpb.WorkerDeploymentVersion{DeploymentName: "orders", BuildId: "b2"}, "orders.b1",
			&clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "b2"}},
		{"a string alone, from an older server", nil, "orders.b1", &clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "b1"}},
		{"a build ID may hold dots", nil, "orders.2024.11.3", &clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "2024.11.3"}},
		{"the unversioned workers are no version", nil, unversionedVersionString, nil},
		{"nothing", nil, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chk.Equal(t, tc.want, deploymentVersionFromWire(tc.message, tc.fallback))
		})
	}
}

func TestVersionString(t *testing.T) {
	chk.Equal(t, "orders.b1", versionString("orders", "b1"))
	chk.Equal(t, unversionedVersionString, versionString("orders", ""))
}

func TestRoutingConfigFromProto(t *testing.T) {
	chk.Equal(t, clientapi.WorkerDeploymentRoutingConfig{}, routingConfigFromProto(nil))

	changed := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	got := routingConfigFromProto(&deploymentpb.RoutingConfig{
		CurrentDeploymentVersion: &deploymentpb.WorkerDeploymentVersion{DeploymentName: "orders", BuildId: "b1"},
		//lint:ignore SA1019 an older server's form
		RampingVersion:            "orders.b2",
		RampingVersionPercentage:  30,
		CurrentVersionChangedTime: timestamppb.New(changed),
	})
	chk.Equal(t, clientapi.WorkerDeploymentRoutingConfig{
		CurrentVersion:            &clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "b1"},
		RampingVersion:            &clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "b2"},
		RampingVersionPercentage:  30,
		CurrentVersionChangedTime: changed,
	}, got)
	if !got.RampingVersionChangedTime.IsZero() || !got.RampingVersionPercentageChangedTime.IsZero() {
		t.Errorf("absent times must read as the zero time: %+v", got)
	}
}

func TestDeploymentInfoFromProto(t *testing.T) {
	chk.Equal(t, clientapi.WorkerDeploymentInfo{}, deploymentInfoFromProto(nil))

	created := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	got := deploymentInfoFromProto(&deploymentpb.WorkerDeploymentInfo{
		Name:       "orders",
		CreateTime: timestamppb.New(created),
		VersionSummaries: []*deploymentpb.WorkerDeploymentInfo_WorkerDeploymentVersionSummary{
			{DeploymentVersion: &deploymentpb.WorkerDeploymentVersion{DeploymentName: "orders", BuildId: "b1"}, CreateTime: timestamppb.New(created), DrainageStatus: enumspb.VERSION_DRAINAGE_STATUS_DRAINED},
			{}, // names no version: dropped
			{Version: "orders.b2"},
		},
		LastModifierIdentity: "operator",
		ManagerIdentity:      "deployer",
	})
	chk.Equal(t, clientapi.WorkerDeploymentInfo{
		Name:       "orders",
		CreateTime: created,
		VersionSummaries: []clientapi.WorkerDeploymentVersionSummary{
			{Version: clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "b1"}, CreateTime: created, DrainageStatus: clientapi.WorkerDeploymentVersionDrainageStatusDrained},
			{Version: clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "b2"}},
		},
		LastModifierIdentity: "operator",
		ManagerIdentity:      "deployer",
	}, got)
}

func TestDeploymentVersionInfoFromProto(t *testing.T) {
	chk.Equal(t, clientapi.WorkerDeploymentVersionInfo{}, deploymentVersionInfoFromProto(nil))

	checked := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	payload := &commonpb.Payload{Data: []byte(`"blue"`)}
	got := deploymentVersionInfoFromProto(&deploymentpb.WorkerDeploymentVersionInfo{
		DeploymentVersion: &deploymentpb.WorkerDeploymentVersion{DeploymentName: "orders", BuildId: "b1"},
		RampPercentage:    12.5,
		TaskQueueInfos: []*deploymentpb.WorkerDeploymentVersionInfo_VersionTaskQueueInfo{
			{Name: "orders-tq", Type: enumspb.TASK_QUEUE_TYPE_ACTIVITY},
		},
		DrainageInfo: &deploymentpb.VersionDrainageInfo{Status: enumspb.VERSION_DRAINAGE_STATUS_DRAINING, LastCheckedTime: timestamppb.New(checked)},
		Metadata:     &deploymentpb.VersionMetadata{Entries: map[string]*commonpb.Payload{"color": payload}},
	})
	chk.Equal(t, clientapi.WorkerDeploymentVersionInfo{
		Version:         clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "b1"},
		RampPercentage:  12.5,
		TaskQueuesInfos: []clientapi.WorkerDeploymentTaskQueueInfo{{Name: "orders-tq", Type: clientapi.TaskQueueTypeActivity}},
		DrainageInfo:    &clientapi.WorkerDeploymentVersionDrainageInfo{DrainageStatus: clientapi.WorkerDeploymentVersionDrainageStatusDraining, LastCheckedTime: checked},
		Metadata:        map[string]*commonpb.Payload{"color": payload},
	}, got)

	// A current or ramping version has no drainage, and no metadata yet.
	//lint:ignore SA1019 an older server's form
	got = deploymentVersionInfoFromProto(&deploymentpb.WorkerDeploymentVersionInfo{Version: "orders.b1"})
	if got.DrainageInfo != nil || got.Metadata != nil || got.Version.BuildID != "b1" {
		t.Errorf("a version with no drainage nor metadata: %+v", got)
	}
}

func TestMetadataUpsertsToProto(t *testing.T) {
	dc := converter.GetDefaultDataConverter()
	raw := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/plain")}, Data: []byte("as is")}
	got, err := metadataUpsertsToProto(dc, map[string]any{"raw": raw, "owner": "team-a", "replicas": 3})
	chk.NoErr(t, err)
	if got["raw"] != raw {
		t.Errorf("a payload must be sent as it is, got %v", got["raw"])
	}
	var owner string
	var replicas int
	chk.NoErr(t, dc.FromPayload(got["owner"], &owner))
	chk.NoErr(t, dc.FromPayload(got["replicas"], &replicas))
	if owner != "team-a" || replicas != 3 {
		t.Errorf("values encoded with the data converter decode to %q and %d", owner, replicas)
	}

	_, err = metadataUpsertsToProto(dc, map[string]any{"callback": func() {}})
	chk.ErrContains(t, err, `metadata entry "callback"`)
}

func TestTaskQueueVersioningInfoFromProto(t *testing.T) {
	if got := taskQueueVersioningInfoFromProto(nil); got != nil {
		t.Errorf("no versioning info must read as nil, got %+v", got)
	}
	updated := time.Date(2026, 11, 4, 0, 0, 0, 0, time.UTC)
	got := taskQueueVersioningInfoFromProto(&taskqueuepb.TaskQueueVersioningInfo{
		CurrentDeploymentVersion: &deploymentpb.WorkerDeploymentVersion{DeploymentName: "orders", BuildId: "b1"},
		//lint:ignore SA1019 an older server's form
		RampingVersion:           unversionedVersionString,
		RampingVersionPercentage: 5,
		UpdateTime:               timestamppb.New(updated),
	})
	chk.Equal(t, &clientapi.TaskQueueVersioningInfo{
		CurrentVersion:           &clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "b1"},
		RampingVersionPercentage: 5,
		UpdateTime:               updated,
	}, got)
}

func TestPollerDeploymentOptionsFromProto(t *testing.T) {
	if got := pollerDeploymentOptionsFromProto(nil); got != nil {
		t.Errorf("a poller without deployment options: %+v", got)
	}
	chk.Equal(t, &clientapi.WorkerDeploymentPollerOptions{DeploymentName: "orders", BuildID: "b1", WorkerVersioningMode: clientapi.WorkerVersioningModeVersioned},
		pollerDeploymentOptionsFromProto(&deploymentpb.WorkerDeploymentOptions{DeploymentName: "orders", BuildId: "b1", WorkerVersioningMode: enumspb.WORKER_VERSIONING_MODE_VERSIONED}))
}

// The arguments are checked before anything is sent: the client here has
// no connection, so a call that got past its checks would panic.
func TestWorkerDeploymentArgumentChecks(t *testing.T) {
	ctx := context.Background()
	c := &workflowClient{namespace: "ns", identity: "me", dataConverter: converter.GetDefaultDataConverter()}
	deployments := c.WorkerDeploymentClient()

	_, err := deployments.List(ctx, clientapi.WorkerDeploymentListOptions{PageSize: -1})
	chk.ErrContains(t, err, "PageSize is -1")
	_, err = deployments.Delete(ctx, clientapi.WorkerDeploymentDeleteOptions{})
	chk.ErrContains(t, err, "WorkerDeploymentDeleteOptions.Name is empty")

	unnamed := deployments.GetHandle("")
	_, err = unnamed.Describe(ctx, clientapi.WorkerDeploymentDescribeOptions{})
	chk.ErrContains(t, err, "WorkerDeploymentHandle.Describe: the handle has no deployment name")
	dotted := deployments.GetHandle("orders.v1")
	_, err = dotted.SetCurrentVersion(ctx, clientapi.WorkerDeploymentSetCurrentVersionOptions{BuildID: "b1"})
	chk.ErrContains(t, err, `deployment name "orders.v1" holds "."`)

	h := deployments.GetHandle("orders")
	_, err = h.DescribeVersion(ctx, clientapi.WorkerDeploymentDescribeVersionOptions{})
	chk.ErrContains(t, err, "WorkerDeploymentDescribeVersionOptions.BuildID is empty")
	_, err = h.DeleteVersion(ctx, clientapi.WorkerDeploymentDeleteVersionOptions{})
	chk.ErrContains(t, err, "WorkerDeploymentDeleteVersionOptions.BuildID is empty")
	_, err = h.UpdateVersionMetadata(ctx, clientapi.WorkerDeploymentUpdateVersionMetadataOptions{Version: clientapi.WorkerDeploymentVersion{DeploymentName: "orders"}})
	chk.ErrContains(t, err, "Version.BuildID is empty")
	_, err = h.UpdateVersionMetadata(ctx, clientapi.WorkerDeploymentUpdateVersionMetadataOptions{
		Version:        clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "b1"},
		MetadataUpdate: clientapi.WorkerDeploymentMetadataUpdate{UpsertEntries: map[string]any{"bad": make(chan int)}},
	})
	chk.ErrContains(t, err, `UpdateVersionMetadata: metadata entry "bad"`)
	_, err = h.SetManagerIdentity(ctx, clientapi.WorkerDeploymentSetManagerIdentityOptions{Self: true, ManagerIdentity: "other"})
	chk.ErrContains(t, err, "both Self and ManagerIdentity")
}

// The list iterator reports a failed page once, after the entries before
// it, and then ends.
func TestWorkerDeploymentListIteratorPages(t *testing.T) {
	pages := []*workflowservice.ListWorkerDeploymentsResponse{
		{WorkerDeployments: []*workflowservice.ListWorkerDeploymentsResponse_WorkerDeploymentSummary{{Name: "a"}, {Name: "b"}}, NextPageToken: []byte("1")},
		{NextPageToken: []byte("2")}, // an empty page that is not the last
		{WorkerDeployments: []*workflowservice.ListWorkerDeploymentsResponse_WorkerDeploymentSummary{{Name: "c"}}, NextPageToken: []byte("3")},
	}
	var tokens []string
	it := newWorkerDeploymentListIterator(func(token []byte) (*workflowservice.ListWorkerDeploymentsResponse, error) {
		tokens = append(tokens, string(token))
		if len(tokens) > len(pages) {
			return nil, errClientTest
		}
		return pages[len(tokens)-1], nil
	})
	var names []string
	var errs []error
	for it.HasNext() {
		entry, err := it.Next()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		names = append(names, entry.Name)
	}
	chk.Equal(t, []string{"a", "b", "c"}, names)
	chk.Equal(t, []string{"", "1", "2", "3"}, tokens)
	chk.Equal(t, []error{errClientTest}, errs)
	_, err := it.Next()
	chk.ErrContains(t, err, "check HasNext first")
}
