// Package workerheartbeat sends a worker's heartbeats: every interval
// (60 s by default, client.Options.WorkerHeartbeatInterval), a client sends
// the server one RecordWorkerHeartbeat with a WorkerHeartbeat for each of
// its running workers, as go.temporal.io/sdk v1.51 does, so that the
// server (the UI's Workers page, `temporal worker list`, DescribeWorker)
// knows each worker: its host, task queue, SDK, versioning, slots and
// tasks, polls, sticky cache, plugins and runtime. A worker that stops
// sends its last one, status SHUTTING_DOWN, with its ShutdownWorker call.
//
// A Worker builds one worker's heartbeats from what its runtime reports
// (workerrt.Status); a Sender, one per client, sends them. Nothing is sent
// to a server whose namespace does not report the WorkerHeartbeats
// capability; a server that answers Unimplemented stops the Sender.
package workerheartbeat

import (
	"os"
	"strconv"
	"sync"
	"time"

	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	workerpb "go.temporal.io/api/worker/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/workerrt"
)

// DefaultInterval is go.temporal.io/sdk's.
const DefaultInterval = 60 * time.Second

// Worker is one worker's heartbeat source. Its fields are set before the
// first Heartbeat and not changed after.
type Worker struct {
	InstanceKey, Identity, TaskQueue string
	// GroupingKey is the client's: the workers of one client share it.
	GroupingKey         string
	SDKName, SDKVersion string
	// Deployment is the worker's deployment version, nil when it does not
	// use Worker Deployment Versioning.
	Deployment *deploymentpb.WorkerDeploymentVersion
	Plugins    []*workerpb.PluginInfo
	// Status reads the worker's runtime; Usage, when set, the host's CPU
	// and memory use (0 to 1).
	Status func() workerrt.Status
	Usage  func() (cpu, mem float32)
	// Environment is sent with each heartbeat until the server has
	// accepted one (nil with DisableWorkerEnvironmentInfo).
	Environment *workerpb.EnvironmentInfo

	once     sync.Once
	host     *workerpb.WorkerHostInfo
	started  *timestamppb.Timestamp
	mu       sync.Mutex
	previous time.Time
	counts   map[string][2]int64 // processed, failed at the previous heartbeat, by kind
	envSent  bool
	stopping bool
}

func (w *Worker) init() {
	w.once.Do(func() {
		host, _ := os.Hostname()
		w.host = &workerpb.WorkerHostInfo{HostName: host, ProcessId: strconv.Itoa(os.Getpid()), WorkerGroupingKey: w.GroupingKey}
		w.started = timestamppb.Now()
		w.counts = map[string][2]int64{}
	})
}

// Stopping makes later heartbeats say SHUTTING_DOWN.
func (w *Worker) Stopping() {
	w.mu.Lock()
	w.stopping = true
	w.mu.Unlock()
}

// accepted notes that the server took a heartbeat of this worker: its
// environment, sent once, is not sent again.
func (w *Worker) accepted() {
	w.mu.Lock()
	w.envSent = true
	w.mu.Unlock()
}

// Heartbeat is the worker's heartbeat now; each call is the start of the
// next interval (the counts of LastInterval... are since the previous).
func (w *Worker) Heartbeat() *workerpb.WorkerHeartbeat {
	w.init()
	s := w.Status()
	var cpu, mem float32
	if w.Usage != nil {
		cpu, mem = w.Usage()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	host := &workerpb.WorkerHostInfo{HostName: w.host.GetHostName(), ProcessId: w.host.GetProcessId(), WorkerGroupingKey: w.GroupingKey,
		CurrentHostCpuUsage: cpu, CurrentHostMemUsage: mem}
	hb := &workerpb.WorkerHeartbeat{
		WorkerInstanceKey: w.InstanceKey, WorkerIdentity: w.Identity, HostInfo: host, TaskQueue: w.TaskQueue,
		DeploymentVersion: w.Deployment, SdkName: w.SDKName, SdkVersion: w.SDKVersion,
		Status: enumspb.WORKER_STATUS_RUNNING, StartTime: w.started, HeartbeatTime: timestamppb.New(now),
		WorkflowTaskSlotsInfo:    w.slots("workflow", s.WorkflowTasks),
		ActivityTaskSlotsInfo:    w.slots("activity", s.Activities),
		LocalActivitySlotsInfo:   w.slots("local activity", s.LocalActivities),
		NexusTaskSlotsInfo:       w.slots("nexus", s.NexusTasks),
		WorkflowPollerInfo:       pollers(s.WorkflowPolls),
		WorkflowStickyPollerInfo: pollers(s.StickyPolls),
		ActivityPollerInfo:       pollers(s.ActivityPolls),
		NexusPollerInfo:          pollers(s.NexusPolls),
		TotalStickyCacheHit:      int32(s.CacheHits),
		TotalStickyCacheMiss:     int32(s.CacheMisses),
		CurrentStickyCacheSize:   int32(s.CacheSize),
		Plugins:                  w.Plugins,
	}
	if w.stopping {
		hb.Status = enumspb.WORKER_STATUS_SHUTTING_DOWN
	}
	if !w.previous.IsZero() {
		hb.ElapsedSinceLastHeartbeat = durationpb.New(now.Sub(w.previous))
	}
	w.previous = now
	if !w.envSent {
		hb.Environment = w.Environment
	}
	return hb
}

// slots reports one kind of task, nil for a kind the worker does not run.
func (w *Worker) slots(kind string, s *workerrt.TaskStatus) *workerpb.WorkerSlotsInfo {
	if s == nil {
		return nil
	}
	prev := w.counts[kind]
	w.counts[kind] = [2]int64{s.Processed, s.Failed}
	info := &workerpb.WorkerSlotsInfo{
		CurrentUsedSlots: int32(s.UsedSlots), SlotSupplierKind: s.SupplierKind,
		TotalProcessedTasks: int32(s.Processed), TotalFailedTasks: int32(s.Failed),
		LastIntervalProcessedTasks: int32(s.Processed - prev[0]), LastIntervalFailureTasks: int32(s.Failed - prev[1]),
	}
	if s.AvailableSlots >= 0 {
		info.CurrentAvailableSlots = int32(s.AvailableSlots)
	}
	return info
}

// pollers reports one kind of poll; one the worker does not make is
// reported empty, as go.temporal.io/sdk reports it.
func pollers(p *workerrt.PollStatus) *workerpb.WorkerPollerInfo {
	if p == nil {
		return &workerpb.WorkerPollerInfo{}
	}
	info := &workerpb.WorkerPollerInfo{CurrentPollers: int32(p.Open), TargetPollers: int32(p.Target), IsAutoscaling: p.Autoscaling}
	if !p.LastTask.IsZero() {
		info.LastSuccessfulPollTime = timestamppb.New(p.LastTask)
	}
	return info
}
