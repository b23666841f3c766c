package clientimpl

import (
	"fmt"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
)

// The worker deployment API's protos, to and from the client's types.
// Servers before 1.28 named a version by one string, "deployment.build"
// (or "__unversioned__" for the unversioned workers); requests still carry
// that string beside the structured version, and answers are read from the
// structured version first and the string when it is absent, as
// go.temporal.io/sdk does.

// unversionedVersionString is the version string of the unversioned
// workers.
const unversionedVersionString = "__unversioned__"

// deploymentVersionSeparator separates a deployment's name from a build ID
// in a version string; a deployment's name cannot hold it.
const deploymentVersionSeparator = "."

// versionString is the version string of buildID in deployment: the
// unversioned workers' for an empty build ID.
func versionString(deployment, buildID string) string {
	if buildID == "" {
		return unversionedVersionString
	}
	return deployment + deploymentVersionSeparator + buildID
}

// deploymentVersionFromWire reads a version from its message or, when the
// message is absent, from its string; nil when neither names a version
// (the unversioned workers, or nothing).
func deploymentVersionFromWire(v *deploymentpb.WorkerDeploymentVersion, fallback string) *clientapi.WorkerDeploymentVersion {
	if v != nil {
		return &clientapi.WorkerDeploymentVersion{DeploymentName: v.GetDeploymentName(), BuildID: v.GetBuildId()}
	}
	if name, buildID, ok := strings.Cut(fallback, deploymentVersionSeparator); ok {
		return &clientapi.WorkerDeploymentVersion{DeploymentName: name, BuildID: buildID}
	}
	return nil
}

// timeOrZero is a timestamp as a time; the zero time when it is absent, so
// that IsZero says so.
func timeOrZero(t *timestamppb.Timestamp) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.AsTime()
}

func routingConfigFromProto(r *deploymentpb.RoutingConfig) clientapi.WorkerDeploymentRoutingConfig {
	if r == nil {
		return clientapi.WorkerDeploymentRoutingConfig{}
	}
	return clientapi.WorkerDeploymentRoutingConfig{
		//lint:ignore SA1019 servers before 1.28 send the version string only
		CurrentVersion: deploymentVersionFromWire(r.GetCurrentDeploymentVersion(), r.GetCurrentVersion()),
		//lint:ignore SA1019 servers before 1.28 send the version string only
		RampingVersion:                      deploymentVersionFromWire(r.GetRampingDeploymentVersion(), r.GetRampingVersion()),
		RampingVersionPercentage:            r.GetRampingVersionPercentage(),
		CurrentVersionChangedTime:           timeOrZero(r.GetCurrentVersionChangedTime()),
		RampingVersionChangedTime:           timeOrZero(r.GetRampingVersionChangedTime()),
		RampingVersionPercentageChangedTime: timeOrZero(r.GetRampingVersionPercentageChangedTime()),
	}
}

func deploymentListEntryFromProto(s *workflowservice.ListWorkerDeploymentsResponse_WorkerDeploymentSummary) *clientapi.WorkerDeploymentListEntry {
	return &clientapi.WorkerDeploymentListEntry{
		Name:          s.GetName(),
		CreateTime:    timeOrZero(s.GetCreateTime()),
		RoutingConfig: routingConfigFromProto(s.GetRoutingConfig()),
	}
}

func deploymentInfoFromProto(info *deploymentpb.WorkerDeploymentInfo) clientapi.WorkerDeploymentInfo {
	if info == nil {
		return clientapi.WorkerDeploymentInfo{}
	}
	summaries := make([]clientapi.WorkerDeploymentVersionSummary, 0, len(info.GetVersionSummaries()))
	for _, s := range info.GetVersionSummaries() {
		//lint:ignore SA1019 servers before 1.28 send the version string only
		version := deploymentVersionFromWire(s.GetDeploymentVersion(), s.GetVersion())
		if version == nil {
			// A summary of no version says nothing; the server sends none.
			continue
		}
		summaries = append(summaries, clientapi.WorkerDeploymentVersionSummary{
			Version:        *version,
			CreateTime:     timeOrZero(s.GetCreateTime()),
			DrainageStatus: clientapi.WorkerDeploymentVersionDrainageStatus(s.GetDrainageStatus()),
		})
	}
	return clientapi.WorkerDeploymentInfo{
		Name:                 info.GetName(),
		CreateTime:           timeOrZero(info.GetCreateTime()),
		VersionSummaries:     summaries,
		RoutingConfig:        routingConfigFromProto(info.GetRoutingConfig()),
		LastModifierIdentity: info.GetLastModifierIdentity(),
		ManagerIdentity:      info.GetManagerIdentity(),
	}
}

func deploymentVersionInfoFromProto(info *deploymentpb.WorkerDeploymentVersionInfo) clientapi.WorkerDeploymentVersionInfo {
	if info == nil {
		return clientapi.WorkerDeploymentVersionInfo{}
	}
	var version clientapi.WorkerDeploymentVersion
	//lint:ignore SA1019 servers before 1.28 send the version string only
	if v := deploymentVersionFromWire(info.GetDeploymentVersion(), info.GetVersion()); v != nil {
		version = *v
	}
	taskQueues := make([]clientapi.WorkerDeploymentTaskQueueInfo, len(info.GetTaskQueueInfos()))
	for i, tq := range info.GetTaskQueueInfos() {
		taskQueues[i] = clientapi.WorkerDeploymentTaskQueueInfo{Name: tq.GetName(), Type: clientapi.TaskQueueType(tq.GetType())}
	}
	var drainage *clientapi.WorkerDeploymentVersionDrainageInfo
	if d := info.GetDrainageInfo(); d != nil {
		drainage = &clientapi.WorkerDeploymentVersionDrainageInfo{
			DrainageStatus:  clientapi.WorkerDeploymentVersionDrainageStatus(d.GetStatus()),
			LastChangedTime: timeOrZero(d.GetLastChangedTime()),
			LastCheckedTime: timeOrZero(d.GetLastCheckedTime()),
		}
	}
	return clientapi.WorkerDeploymentVersionInfo{
		Version:            version,
		CreateTime:         timeOrZero(info.GetCreateTime()),
		RoutingChangedTime: timeOrZero(info.GetRoutingChangedTime()),
		CurrentSinceTime:   timeOrZero(info.GetCurrentSinceTime()),
		RampingSinceTime:   timeOrZero(info.GetRampingSinceTime()),
		RampPercentage:     info.GetRampPercentage(),
		TaskQueuesInfos:    taskQueues,
		DrainageInfo:       drainage,
		Metadata:           info.GetMetadata().GetEntries(),
	}
}

// metadataUpsertsToProto encodes the entries to set: a payload as it is,
// any other value with dc. An entry dc cannot encode is an error naming
// its key.
func metadataUpsertsToProto(dc converter.DataConverter, entries map[string]any) (map[string]*commonpb.Payload, error) {
	payloads := make(map[string]*commonpb.Payload, len(entries))
	for key, value := range entries {
		if p, ok := value.(*commonpb.Payload); ok {
			payloads[key] = p
			continue
		}
		p, err := dc.ToPayload(value)
		if err != nil {
			return nil, fmt.Errorf("metadata entry %q: the data converter cannot encode its %T value: %w", key, value, err)
		}
		payloads[key] = p
	}
	return payloads, nil
}

// taskQueueVersioningInfoFromProto reads the routing of a task queue's
// tasks; nil when the server reports none (unversioned workers take them).
func taskQueueVersioningInfoFromProto(info *taskqueuepb.TaskQueueVersioningInfo) *clientapi.TaskQueueVersioningInfo {
	if info == nil {
		return nil
	}
	return &clientapi.TaskQueueVersioningInfo{
		//lint:ignore SA1019 servers before 1.28 send the version string only
		CurrentVersion: deploymentVersionFromWire(info.GetCurrentDeploymentVersion(), info.GetCurrentVersion()),
		//lint:ignore SA1019 servers before 1.28 send the version string only
		RampingVersion:           deploymentVersionFromWire(info.GetRampingDeploymentVersion(), info.GetRampingVersion()),
		RampingVersionPercentage: info.GetRampingVersionPercentage(),
		// As go.temporal.io/sdk reads it: an absent time is the Unix
		// epoch, not the zero time.
		UpdateTime: info.GetUpdateTime().AsTime(),
	}
}

// pollerDeploymentOptionsFromProto reads a poller's deployment settings;
// nil when it announced none.
func pollerDeploymentOptionsFromProto(o *deploymentpb.WorkerDeploymentOptions) *clientapi.WorkerDeploymentPollerOptions {
	if o == nil {
		return nil
	}
	return &clientapi.WorkerDeploymentPollerOptions{
		DeploymentName:       o.GetDeploymentName(),
		BuildID:              o.GetBuildId(),
		WorkerVersioningMode: clientapi.WorkerVersioningMode(o.GetWorkerVersioningMode()),
	}
}
