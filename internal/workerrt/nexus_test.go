package workerrt

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/extstore"
	"github.com/durable-go/sdk/internal/logging"
)

// nexusTestService hands out its tasks, one per poll, then holds polls
// until they are canceled; it records the polls and the reports.
type nexusTestService struct {
	Service
	mu        sync.Mutex
	tasks     []*workflowservice.PollNexusTaskQueueResponse
	polls     []*workflowservice.PollNexusTaskQueueRequest
	completed []*workflowservice.RespondNexusTaskCompletedRequest
	failed    []*workflowservice.RespondNexusTaskFailedRequest
	shutdown  *workflowservice.ShutdownWorkerRequest
}

func (s *nexusTestService) PollNexusTaskQueue(ctx context.Context, req *workflowservice.PollNexusTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollNexusTaskQueueResponse, error) {
	s.mu.Lock()
	s.polls = append(s.polls, req)
	var task *workflowservice.PollNexusTaskQueueResponse
	if len(s.tasks) > 0 {
		task, s.tasks = s.tasks[0], s.tasks[1:]
	}
	s.mu.Unlock()
	if task != nil {
		return task, nil
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (s *nexusTestService) RespondNexusTaskCompleted(_ context.Context, req *workflowservice.RespondNexusTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondNexusTaskCompletedResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.completed = append(s.completed, req)
	return &workflowservice.RespondNexusTaskCompletedResponse{}, nil
}

func (s *nexusTestService) RespondNexusTaskFailed(_ context.Context, req *workflowservice.RespondNexusTaskFailedRequest, _ ...grpc.CallOption) (*workflowservice.RespondNexusTaskFailedResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = append(s.failed, req)
	return &workflowservice.RespondNexusTaskFailedResponse{}, nil
}

func (s *nexusTestService) ShutdownWorker(_ context.Context, req *workflowservice.ShutdownWorkerRequest, _ ...grpc.CallOption) (*workflowservice.ShutdownWorkerResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shutdown = req
	return &workflowservice.ShutdownWorkerResponse{}, nil
}

// scriptedNexus answers each task as its operation's name says:
// "complete", "fail", "timeout", or "block" (until release is closed).
type scriptedNexus struct {
	entered, release chan struct{}
	done             sync.WaitGroup
}

func (e *scriptedNexus) ExecuteNexusTask(task *workflowservice.PollNexusTaskQueueResponse) (*workflowservice.RespondNexusTaskCompletedRequest, *workflowservice.RespondNexusTaskFailedRequest, error) {
	defer e.done.Done()
	switch task.GetRequest().GetStartOperation().GetOperation() {
	case "fail":
		return nil, &workflowservice.RespondNexusTaskFailedRequest{TaskToken: task.GetTaskToken()}, nil
	case "timeout":
		return nil, nil, ErrNexusTaskTimeout
	case "block":
		close(e.entered)
		<-e.release
	}
	return &workflowservice.RespondNexusTaskCompletedRequest{TaskToken: task.GetTaskToken()}, nil, nil
}

// FailNexusTask reports the task failed with err's text.
func (e *scriptedNexus) FailNexusTask(task *workflowservice.PollNexusTaskQueueResponse, err error) (*workflowservice.RespondNexusTaskFailedRequest, error) {
	defer e.done.Done()
	return &workflowservice.RespondNexusTaskFailedRequest{TaskToken: task.GetTaskToken(), Failure: &failurepb.Failure{Message: err.Error()}}, nil
}

func nexusTask(token, operation string) *workflowservice.PollNexusTaskQueueResponse {
	return &workflowservice.PollNexusTaskQueueResponse{TaskToken: []byte(token), Request: &nexuspb.Request{
		Variant: &nexuspb.Request_StartOperation{StartOperation: &nexuspb.StartOperationRequest{Service: "svc", Operation: operation}},
	}}
}

// TestNexusTasksArePolledAndReported: each outcome of the executor is
// reported as it says (none for a timeout), the polls name the worker,
// the stopping worker tells the server it polled Nexus tasks, and Stop
// waits for the task still running.
func TestNexusTasksArePolledAndReported(t *testing.T) {
	svc := &nexusTestService{tasks: []*workflowservice.PollNexusTaskQueueResponse{
		nexusTask("t1", "complete"), nexusTask("t2", "fail"), nexusTask("t3", "timeout"), nexusTask("t4", "block"),
	}}
	exec := &scriptedNexus{entered: make(chan struct{}), release: make(chan struct{})}
	exec.done.Add(4)
	w, err := New(Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Identity: "me", WorkerInstanceKey: "key",
		Logger: logging.NewTextLogger(io.Discard, 0), Nexus: exec, NexusPollers: 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Start()
	<-exec.entered
	stopped := make(chan struct{})
	go func() {
		w.Stop()
		close(stopped)
	}()
	close(exec.release)
	<-stopped
	exec.done.Wait()

	svc.mu.Lock()
	defer svc.mu.Unlock()
	var completed, failed []string
	for _, r := range svc.completed {
		completed = append(completed, string(r.GetTaskToken()))
	}
	for _, r := range svc.failed {
		failed = append(failed, string(r.GetTaskToken()))
	}
	// Tasks run side by side, in any order. Stop returned after the
	// blocked task's report (t4).
	slices.Sort(completed)
	if got := strings.Join(completed, ","); got != "t1,t4" {
		t.Errorf("completed %s, want t1,t4", got)
	}
	if got := strings.Join(failed, ","); got != "t2" {
		t.Errorf("failed %s, want t2 (the timed-out t3 is not reported)", got)
	}
	poll := svc.polls[0]
	if poll.GetNamespace() != "ns" || poll.GetTaskQueue().GetName() != "tq" || poll.GetTaskQueue().GetKind() != enumspb.TASK_QUEUE_KIND_NORMAL ||
		poll.GetIdentity() != "me" || poll.GetWorkerInstanceKey() != "key" {
		t.Errorf("poll %v", poll)
	}
	if types := svc.shutdown.GetTaskQueueTypes(); len(types) != 1 || types[0] != enumspb.TASK_QUEUE_TYPE_NEXUS {
		t.Errorf("ShutdownWorker task queue types %v, want [NEXUS]", types)
	}
}

func TestNexusNeedsANexusService(t *testing.T) {
	_, err := New(Options{Service: &stopService{}, TaskQueue: "tq", Nexus: &scriptedNexus{}})
	if err == nil || !strings.Contains(err.Error(), "cannot poll Nexus tasks") {
		t.Errorf("error %v", err)
	}
}

// memoryDriver is an external storage driver over a map.
type memoryDriver struct {
	name   string
	mu     sync.Mutex
	stored map[string]*commonpb.Payload
}

func (d *memoryDriver) Name() string { return d.name }
func (d *memoryDriver) Type() string { return "memory" }

func (d *memoryDriver) Store(_ extstore.StorageDriverStoreContext, payloads []*commonpb.Payload) ([]extstore.StorageDriverClaim, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	claims := make([]extstore.StorageDriverClaim, len(payloads))
	for i, p := range payloads {
		key := fmt.Sprint(len(d.stored))
		d.stored[key] = p
		claims[i] = extstore.StorageDriverClaim{ClaimData: map[string]string{"key": key}}
	}
	return claims, nil
}

func (d *memoryDriver) Retrieve(_ extstore.StorageDriverRetrieveContext, claims []extstore.StorageDriverClaim) ([]*commonpb.Payload, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]*commonpb.Payload, len(claims))
	for i, c := range claims {
		out[i] = d.stored[c.ClaimData["key"]]
	}
	return out, nil
}

// TestANexusTaskWhoseInputCannotBeRetrievedFails: a Nexus task whose input
// is stored with a driver the worker does not have is not run: it is
// reported failed, saying why, and the poll goes on.
func TestANexusTaskWhoseInputCannotBeRetrievedFails(t *testing.T) {
	writer, err := extstore.New(extstore.ExternalStorage{Drivers: []extstore.StorageDriver{&memoryDriver{name: "elsewhere", stored: map[string]*commonpb.Payload{}}}, PayloadSizeThreshold: 1})
	if err != nil {
		t.Fatal(err)
	}
	reader, err := extstore.New(extstore.ExternalStorage{Drivers: []extstore.StorageDriver{&memoryDriver{name: "here", stored: map[string]*commonpb.Payload{}}}})
	if err != nil {
		t.Fatal(err)
	}
	task := nexusTask("t1", "complete")
	task.GetRequest().GetStartOperation().Payload = &commonpb.Payload{Data: []byte("a large input")}
	if err := writer.Store(extstore.WithTarget(context.Background(), extstore.StorageDriverWorkflowInfo{WorkflowID: "caller"}), task); err != nil {
		t.Fatal(err)
	}
	if !extstore.IsReference(task.GetRequest().GetStartOperation().GetPayload()) {
		t.Fatal("the input was not stored")
	}
	svc := &nexusTestService{tasks: []*workflowservice.PollNexusTaskQueueResponse{task}}
	exec := &scriptedNexus{}
	exec.done.Add(1)
	w, err := New(Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Identity: "me", Logger: logging.NewTextLogger(io.Discard, 0),
		Nexus: exec, NexusPollers: 1, Storage: reader})
	if err != nil {
		t.Fatal(err)
	}
	w.Start()
	exec.done.Wait()
	w.Stop()
	svc.mu.Lock()
	defer svc.mu.Unlock()
	if len(svc.completed) != 0 || len(svc.failed) != 1 {
		t.Fatalf("completed %d, failed %d; want the task failed, not run", len(svc.completed), len(svc.failed))
	}
	if msg := svc.failed[0].GetFailure().GetMessage(); !strings.Contains(msg, "retrieve Nexus operation input from external storage") || !strings.Contains(msg, "elsewhere") {
		t.Errorf("the failure says %q; want it to say the input could not be retrieved, and from which driver", msg)
	}
}
