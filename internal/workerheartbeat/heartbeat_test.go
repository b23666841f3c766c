package workerheartbeat

import (
	"context"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	workerpb "go.temporal.io/api/worker/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/workerrt"
)

func TestAHeartbeatCountsTheIntervalSinceThePreviousOne(t *testing.T) {
	st := workerrt.Status{WorkflowTasks: &workerrt.TaskStatus{UsedSlots: 1, AvailableSlots: 9, SupplierKind: "Fixed", Processed: 5, Failed: 1},
		ActivityPolls: &workerrt.PollStatus{Open: 2, Target: 2, LastTask: time.Now()}, CacheHits: 3, CacheMisses: 1, CacheSize: 4}
	w := &Worker{InstanceKey: "k", TaskQueue: "tq", SDKName: "sdk", Status: func() workerrt.Status { return st },
		Environment: &workerpb.EnvironmentInfo{}}
	first := w.Heartbeat()
	if got := first.GetWorkflowTaskSlotsInfo(); got.GetLastIntervalProcessedTasks() != 5 || got.GetCurrentAvailableSlots() != 9 || got.GetTotalFailedTasks() != 1 {
		t.Errorf("first heartbeat's workflow slots %v", got)
	}
	if first.GetActivityTaskSlotsInfo() != nil || first.GetElapsedSinceLastHeartbeat() != nil || first.GetEnvironment() == nil {
		t.Errorf("first heartbeat: activity slots %v (none run), elapsed %v (no previous), environment %v (sent until accepted)",
			first.GetActivityTaskSlotsInfo(), first.GetElapsedSinceLastHeartbeat(), first.GetEnvironment())
	}
	if p := first.GetActivityPollerInfo(); p.GetCurrentPollers() != 2 || p.GetLastSuccessfulPollTime() == nil {
		t.Errorf("activity polls %v", p)
	}
	if p := first.GetNexusPollerInfo(); p == nil || p.GetCurrentPollers() != 0 {
		t.Errorf("nexus polls %v, want an empty report", p)
	}
	w.accepted()
	st.WorkflowTasks.Processed = 8
	w.Stopping()
	second := w.Heartbeat()
	if got := second.GetWorkflowTaskSlotsInfo().GetLastIntervalProcessedTasks(); got != 3 {
		t.Errorf("second heartbeat's interval count %d, want 3", got)
	}
	if second.GetElapsedSinceLastHeartbeat() == nil || second.GetEnvironment() != nil || second.GetStatus() != enumspb.WORKER_STATUS_SHUTTING_DOWN {
		t.Errorf("second heartbeat: elapsed %v, environment %v (sent once accepted), status %v", second.GetElapsedSinceLastHeartbeat(), second.GetEnvironment(), second.GetStatus())
	}
	if second.GetHostInfo().GetHostName() == "" || second.GetHostInfo().GetProcessId() == "" || second.GetStartTime() == nil {
		t.Errorf("host %v, start %v", second.GetHostInfo(), second.GetStartTime())
	}
}

func TestHostingEnvironmentsAreReadFromTheVariablesTheyDocument(t *testing.T) {
	vars := map[string]string{"KUBERNETES_SERVICE_HOST": "10.0.0.1", "FUNCTIONS_EXTENSION_VERSION": " ~4 ", "K_SERVICE": ""}
	lookup := func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
	envs := hostingEnvironments(lookup, true)
	var got []string
	for _, e := range envs {
		got = append(got, e.GetType().String()+":"+e.GetVersion())
	}
	want := []string{"EnvironmentInfoHostingEnvironmentHostingEnvironmentTypeDocker:", "EnvironmentInfoHostingEnvironmentHostingEnvironmentTypeK8S:", "EnvironmentInfoHostingEnvironmentHostingEnvironmentTypeAzureFunctions:~4"}
	if len(got) != len(want) {
		t.Fatalf("environments %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("environments %v, want %v", got, want)
		}
	}
	if env := Environment(); env.GetRuntimes()[0].GetVersion() == "" || env.GetPlatform() == nil {
		t.Errorf("environment %v: want the Go runtime and the platform", env)
	}
}

type recordingService struct {
	mu    sync.Mutex
	calls []*workflowservice.RecordWorkerHeartbeatRequest
	err   error
}

func (r *recordingService) RecordWorkerHeartbeat(_ context.Context, in *workflowservice.RecordWorkerHeartbeatRequest, _ ...grpc.CallOption) (*workflowservice.RecordWorkerHeartbeatResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, in)
	return &workflowservice.RecordWorkerHeartbeatResponse{}, r.err
}

func (r *recordingService) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

func TestASenderSendsItsWorkersTogetherAndStopsWithTheLast(t *testing.T) {
	svc := &recordingService{}
	s := &Sender{Service: svc, Namespace: "ns", GroupingKey: "g", Interval: 20 * time.Millisecond, Logger: logging.NewDefaultLogger()}
	status := func() workerrt.Status { return workerrt.Status{} }
	a, b := &Worker{InstanceKey: "a", Status: status}, &Worker{InstanceKey: "b", Status: status}
	s.Add(a)
	s.Add(b)
	for svc.count() < 3 {
		time.Sleep(5 * time.Millisecond)
	}
	s.Remove(a)
	s.Remove(b)
	n := svc.count()
	time.Sleep(60 * time.Millisecond)
	if svc.count() != n {
		t.Errorf("%d requests after the last worker left, want none", svc.count()-n)
	}
	svc.mu.Lock()
	last := svc.calls[len(svc.calls)-1]
	svc.mu.Unlock()
	if last.GetResourceId() != "worker:g" || last.GetNamespace() != "ns" || len(last.GetWorkerHeartbeat()) == 0 {
		t.Errorf("request %v", last)
	}
}

func TestAServerWithoutHeartbeatsStopsTheSender(t *testing.T) {
	svc := &recordingService{err: status.Error(codes.Unimplemented, "no")}
	s := &Sender{Service: svc, Interval: 10 * time.Millisecond, Logger: logging.NewDefaultLogger()}
	s.Add(&Worker{InstanceKey: "a", Status: func() workerrt.Status { return workerrt.Status{} }})
	time.Sleep(60 * time.Millisecond)
	if n := svc.count(); n != 1 {
		t.Errorf("%d requests to a server that answered Unimplemented, want 1", n)
	}
	s.Add(&Worker{InstanceKey: "b", Status: func() workerrt.Status { return workerrt.Status{} }})
	time.Sleep(30 * time.Millisecond)
	if n := svc.count(); n != 1 {
		t.Errorf("a worker added later sent %d more requests", n-1)
	}
}
