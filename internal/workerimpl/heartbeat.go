package workerimpl

import (
	deploymentpb "go.temporal.io/api/deployment/v1"
	workerpb "go.temporal.io/api/worker/v1"

	"github.com/durable-go/sdk/internal/workerheartbeat"
)

// heartbeatSource is the worker's heartbeat source, or nil when its client
// sends no heartbeats or its namespace does not take them (the server
// reports the WorkerHeartbeats capability at the namespace check the
// worker makes as it starts). Its Status is set once the runtime exists.
func (w *AggregatedWorker) heartbeatSource() *workerheartbeat.Worker {
	s := w.clientSettings
	if s.Heartbeats == nil || !s.Conn.KnownNamespaceCapabilities(s.Namespace).GetWorkerHeartbeats() {
		return nil
	}
	hb := &workerheartbeat.Worker{InstanceKey: w.plugins.instanceKey, Identity: w.options.Identity, TaskQueue: w.taskQueue,
		GroupingKey: s.Heartbeats.GroupingKey, SDKName: s.SDKName, SDKVersion: s.SDKVersion, Environment: s.Environment}
	if hb.Identity == "" {
		hb.Identity = s.Identity
	}
	if w.sysInfo != nil {
		hb.Usage = hostUsage(w.sysInfo, w.logger())
	}
	if d := w.options.DeploymentOptions; d.UseVersioning {
		hb.Deployment = &deploymentpb.WorkerDeploymentVersion{DeploymentName: d.Version.DeploymentName, BuildId: d.Version.BuildID}
	}
	seen := map[string]bool{}
	for _, p := range w.plugins.list {
		if name := p.Name(); !seen[name] {
			seen[name] = true
			info := &workerpb.PluginInfo{Name: name}
			if v, ok := p.(interface{ Version() string }); ok {
				info.Version = v.Version()
			}
			hb.Plugins = append(hb.Plugins, info)
		}
	}
	return hb
}
