package worker_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/operatorservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporalnexus"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// createEndpoint creates a Nexus endpoint named name that sends its
// operations to taskQueue, and deletes it when the test ends.
func createEndpoint(t *testing.T, c client.Client, name, taskQueue string) {
	t.Helper()
	resp, err := c.OperatorService().CreateNexusEndpoint(testCtx(t), &operatorservice.CreateNexusEndpointRequest{Spec: &nexuspb.EndpointSpec{
		Name: name,
		Target: &nexuspb.EndpointTarget{Variant: &nexuspb.EndpointTarget_Worker_{Worker: &nexuspb.EndpointTarget_Worker{
			Namespace: testharness.Namespace(t), TaskQueue: taskQueue}}},
	}})
	if err != nil {
		t.Fatalf("creating the Nexus endpoint %q: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = c.OperatorService().DeleteNexusEndpoint(ctx, &operatorservice.DeleteNexusEndpointRequest{
			Id: resp.GetEndpoint().GetId(), Version: resp.GetEndpoint().GetVersion()})
	})
}

// NexusCallingWorkflow calls operation of the service "worker-nexus"
// behind endpoint with input and returns its result.
func NexusCallingWorkflow(ctx workflow.Context, endpoint, operation, input string) (string, error) {
	c := workflow.NewNexusClient(endpoint, "worker-nexus")
	var out string
	err := c.ExecuteOperation(ctx, operation, input, workflow.NexusOperationOptions{ScheduleToCloseTimeout: time.Minute}).Get(ctx, &out)
	return out, err
}

// NexusBackingWorkflow backs the workflow-run operation.
func NexusBackingWorkflow(_ workflow.Context, input string) (string, error) {
	return "ran: " + input, nil
}

// TestNexusHandlerWorker registers a Nexus service with a worker, calls
// its operations from a workflow on another worker, and stops the
// handler's worker while an operation runs: the worker runs a
// synchronous operation, a workflow-run operation (whose workflow it
// runs too), survives a handler's panic (the task fails, the server
// retries it), records the Nexus task metrics, and its Stop waits for the
// operation in flight, whose result reaches the caller.
func TestNexusHandlerWorker(t *testing.T) {
	c, metrics := dialWithMetrics(t)
	entered, release := make(chan struct{}), make(chan struct{})
	var panicked, slowFinished atomic.Bool
	svc := nexus.NewService("worker-nexus")
	svc.MustRegister(
		nexus.NewSyncOperation("echo", func(ctx context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			return "echo: " + in + " on " + temporalnexus.GetOperationInfo(ctx).TaskQueue, nil
		}),
		nexus.NewSyncOperation("panics-once", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			if panicked.CompareAndSwap(false, true) {
				panic("the handler's bug")
			}
			return "survived: " + in, nil
		}),
		nexus.NewSyncOperation("slow", func(_ context.Context, in string, _ nexus.StartOperationOptions) (string, error) {
			close(entered)
			<-release
			slowFinished.Store(true)
			return "slow: " + in, nil
		}),
		temporalnexus.NewWorkflowRunOperation("run", NexusBackingWorkflow,
			func(_ context.Context, in string, o nexus.StartOperationOptions) (client.StartWorkflowOptions, error) {
				return client.StartWorkflowOptions{ID: "nexus-backing-" + o.RequestID}, nil
			}),
	)
	handlerQueue := unique(t, "handler")
	hw := worker.New(c, handlerQueue, worker.Options{WorkerStopTimeout: time.Minute})
	hw.RegisterNexusService(svc)
	hw.RegisterWorkflow(NexusBackingWorkflow)
	if err := hw.Start(); err != nil {
		t.Fatal(err)
	}
	endpoint := unique(t, "endpoint")
	createEndpoint(t, c, endpoint, handlerQueue)
	callerQueue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(NexusCallingWorkflow) })

	call := func(operation, input string) (client.WorkflowRun, error) {
		return c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: unique(t, operation), TaskQueue: callerQueue},
			NexusCallingWorkflow, endpoint, operation, input)
	}
	for _, tc := range []struct{ operation, input, want string }{
		{"echo", "a", "echo: a on " + handlerQueue},
		{"run", "b", "ran: b"},
		{"panics-once", "c", "survived: c"},
	} {
		run, err := call(tc.operation, tc.input)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := run.Get(testCtx(t), &got); err != nil || got != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.operation, got, err, tc.want)
		}
	}
	if !panicked.Load() {
		t.Error("the panicking operation never ran")
	}
	ops := map[string]string{"task_queue": handlerQueue, "nexus_service": "worker-nexus", "nexus_operation": "echo"}
	if len(metrics.TimerDurations("temporal_nexus_task_execution_latency", ops)) == 0 || len(metrics.TimerDurations("temporal_nexus_task_endtoend_latency", ops)) == 0 {
		t.Error("no temporal_nexus_task_execution_latency or temporal_nexus_task_endtoend_latency for the echo operation")
	}
	nexusWorker := map[string]string{"task_queue": handlerQueue, "worker_type": "NexusWorker"}
	if n := metrics.CounterValue("temporal_worker_start", nexusWorker); n != 1 {
		t.Errorf("temporal_worker_start{NexusWorker} = %d, want 1", n)
	}
	if n := metrics.CounterValue("temporal_poller_start", nexusWorker); n != 2 {
		t.Errorf("temporal_poller_start{NexusWorker} = %d, want 2 (the default pollers)", n)
	}
	if _, ok := metrics.GaugeValue("temporal_worker_task_slots_available", nexusWorker); !ok {
		t.Error("no temporal_worker_task_slots_available for the Nexus worker")
	}
	panics := map[string]string{"nexus_operation": "panics-once", "failure_reason": "handler_error_INTERNAL"}
	if n := metrics.CounterValue("temporal_nexus_task_execution_failed", panics); n != 1 {
		t.Errorf("temporal_nexus_task_execution_failed{handler_error_INTERNAL} for the panic = %d, want 1", n)
	}

	// Stop waits for the operation in flight.
	run, err := call("slow", "d")
	if err != nil {
		t.Fatal(err)
	}
	<-entered
	stopped := make(chan bool)
	go func() {
		hw.Stop()
		stopped <- slowFinished.Load()
	}()
	// Give a Stop that would not wait the time to return first.
	time.Sleep(200 * time.Millisecond)
	close(release)
	if finished := <-stopped; !finished {
		t.Error("Stop returned before the Nexus operation in flight finished")
	}
	var got string
	if err := run.Get(testCtx(t), &got); err != nil || got != "slow: d" {
		t.Errorf("the operation in flight at Stop: got %q, %v; want its result", got, err)
	}
}

// TestNexusRegistrationErrors: a service without a name, one registered
// twice and one registered after the start panic, as in go.temporal.io/sdk.
func TestNexusRegistrationErrors(t *testing.T) {
	c := dial(t)
	w := worker.New(c, unique(t, "tq"), worker.Options{})
	op := nexus.NewSyncOperation("op", func(context.Context, string, nexus.StartOperationOptions) (string, error) { return "", nil })
	svc := nexus.NewService("svc")
	svc.MustRegister(op)
	mustPanic := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s did not panic", what)
			}
		}()
		f()
	}
	mustPanic("a service with no name", func() { w.RegisterNexusService(nexus.NewService("")) })
	w.RegisterNexusService(svc)
	mustPanic("a service registered twice", func() { w.RegisterNexusService(svc) })
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	other := nexus.NewService("other")
	other.MustRegister(op)
	mustPanic("a service registered after the start", func() { w.RegisterNexusService(other) })
}

// nexusPlugin sees Nexus registrations, and registers a service of its
// own as the worker starts.
type nexusPlugin struct {
	worker.PluginBase
	seen []string
}

func (*nexusPlugin) Name() string { return "nexus-watcher" }

func (p *nexusPlugin) ConfigureWorker(_ context.Context, o worker.PluginConfigureWorkerOptions) error {
	o.WorkerRegistryOptions.OnRegisterNexusService = func(s *nexus.Service) { p.seen = append(p.seen, s.Name) }
	return nil
}

func (p *nexusPlugin) StartWorker(ctx context.Context, o worker.PluginStartWorkerOptions, next func(context.Context, worker.PluginStartWorkerOptions) error) error {
	svc := nexus.NewService("from-plugin")
	svc.MustRegister(nexus.NewSyncOperation("op", func(context.Context, string, nexus.StartOperationOptions) (string, error) { return "", nil }))
	o.WorkerRegistry.RegisterNexusService(svc)
	return next(ctx, o)
}

// TestNexusRegistrationReachesPlugins: a plugin's OnRegisterNexusService
// sees the services registered with the worker, the worker's own and the
// one its StartWorker hook registers.
func TestNexusRegistrationReachesPlugins(t *testing.T) {
	p := &nexusPlugin{}
	w := worker.New(dial(t), unique(t, "tq"), worker.Options{Plugins: []worker.Plugin{p}})
	svc := nexus.NewService("own")
	svc.MustRegister(nexus.NewSyncOperation("op", func(context.Context, string, nexus.StartOperationOptions) (string, error) { return "", nil }))
	w.RegisterNexusService(svc)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	w.Stop()
	if got := strings.Join(p.seen, ","); got != "own,from-plugin" {
		t.Errorf("the plugin saw %q, want own,from-plugin", got)
	}
}
