package client_test

import (
	"context"
	"errors"
	"maps"
	"net"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/metricstest"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func metricsGreet(_ context.Context, name string) (string, error) { return "hello " + name, nil }

func metricsWorkflow(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var greeting string
	err := workflow.ExecuteActivity(ctx, metricsGreet, name).Get(ctx, &greeting)
	return greeting, err
}

// TestRequestMetricsOfAWorkflowRun runs a workflow with an activity and
// checks the request metrics of the client's and the worker's calls:
// official names, tags and counts.
func TestRequestMetricsOfAWorkflowRun(t *testing.T) {
	metrics := metricstest.NewHandler()
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), MetricsHandler: metrics})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	taskQueue := workflowID(t)
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(metricsWorkflow)
	w.RegisterActivity(metricsGreet)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	ctx := ctxFor(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflowID(t), TaskQueue: taskQueue}, metricsWorkflow, "metrics")
	if err != nil {
		t.Fatal(err)
	}
	var greeting string
	if err := run.Get(ctx, &greeting); err != nil || greeting != "hello metrics" {
		t.Fatalf("result %q, %v", greeting, err)
	}

	// The start: one call, with the root tags, the operation, the
	// namespace, and the workflow type and task queue, as
	// go.temporal.io/sdk tags it.
	starts := metrics.CounterSeries("temporal_request")
	var startSeries []metricstest.Series
	for _, s := range starts {
		if s.Tags["operation"] == "StartWorkflowExecution" {
			startSeries = append(startSeries, s)
		}
	}
	wantTags := map[string]string{
		"operation": "StartWorkflowExecution", "namespace": "default", "client_name": "temporal_go",
		"worker_type": "none", "workflow_type": "metricsWorkflow", "activity_type": "none", "task_queue": taskQueue,
	}
	if len(startSeries) != 1 || !maps.Equal(startSeries[0].Tags, wantTags) {
		t.Fatalf("temporal_request series of the start: %v, want one tagged %v", startSeries, wantTags)
	}
	start := map[string]string{"operation": "StartWorkflowExecution"}
	if n := metrics.CounterValue("temporal_request", start); n != 1 {
		t.Errorf("temporal_request of the start is %d, want 1", n)
	}
	if n := metrics.CounterValue("temporal_request_attempt", start); n != 1 {
		t.Errorf("temporal_request_attempt of the start is %d, want 1", n)
	}
	if d := metrics.TimerDurations("temporal_request_latency", start); len(d) != 1 || d[0] <= 0 {
		t.Errorf("temporal_request_latency of the start recorded %v, want one positive duration", d)
	}
	if n := metrics.CounterValue("temporal_request_failure", nil); n != 0 {
		t.Errorf("temporal_request_failure is %d for a run without failures", n)
	}
	// Dial checks the server first.
	if n := metrics.CounterValue("temporal_request", map[string]string{"operation": "GetSystemInfo"}); n < 1 {
		t.Errorf("temporal_request of GetSystemInfo is %d, want at least 1", n)
	}
	// The worker's completions are ordinary requests...
	if n := metrics.CounterValue("temporal_request", map[string]string{"operation": "RespondWorkflowTaskCompleted", "namespace": "default"}); n < 2 {
		t.Errorf("temporal_request of RespondWorkflowTaskCompleted is %d, want at least 2 (schedule the activity, complete)", n)
	}
	if n := metrics.CounterValue("temporal_request", map[string]string{"operation": "RespondActivityTaskCompleted"}); n != 1 {
		t.Errorf("temporal_request of RespondActivityTaskCompleted is %d, want 1", n)
	}
	// ...its polls, and Get's wait for the result, are long ones.
	for _, op := range []string{"PollWorkflowTaskQueue", "PollActivityTaskQueue", "GetWorkflowExecutionHistory"} {
		tags := map[string]string{"operation": op, "namespace": "default"}
		if n := metrics.CounterValue("temporal_long_request", tags); n < 1 {
			t.Errorf("temporal_long_request of %s is %d, want at least 1", op, n)
		}
		if n := metrics.CounterValue("temporal_request", tags); n != 0 {
			t.Errorf("temporal_request of %s is %d: long polls are counted apart", op, n)
		}
	}
	if d := metrics.TimerDurations("temporal_long_request_latency", map[string]string{"operation": "GetWorkflowExecutionHistory"}); len(d) < 1 {
		t.Errorf("no temporal_long_request_latency of GetWorkflowExecutionHistory")
	}
}

// TestRequestFailureMetrics signals a workflow that does not exist: the
// failure is counted with its status code, unless the client turns the
// code tag off.
func TestRequestFailureMetrics(t *testing.T) {
	for _, disableCodes := range []bool{false, true} {
		metrics := metricstest.NewHandler()
		c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), MetricsHandler: metrics, DisableErrorCodeMetricTags: disableCodes})
		if err != nil {
			t.Fatal(err)
		}
		err = c.SignalWorkflow(ctxFor(t), workflowID(t), "", "nobody-listens", nil)
		c.Close()
		var notFound *serviceerror.NotFound
		if !errors.As(err, &notFound) {
			t.Fatalf("signal to a missing workflow: %v, want NotFound", err)
		}
		signal := map[string]string{"operation": "SignalWorkflowExecution", "namespace": "default"}
		if n := metrics.CounterValue("temporal_request", signal); n != 1 {
			t.Errorf("temporal_request of the signal is %d, want 1", n)
		}
		failures := metrics.CounterSeries("temporal_request_failure")
		if len(failures) != 1 || failures[0].Tags["operation"] != "SignalWorkflowExecution" {
			t.Fatalf("temporal_request_failure series %v, want the signal's", failures)
		}
		code, tagged := failures[0].Tags["status_code"]
		switch {
		case disableCodes && tagged:
			t.Errorf("DisableErrorCodeMetricTags: the failure is still tagged status_code=%s", code)
		case !disableCodes && code != "NOT_FOUND":
			t.Errorf("failure tagged status_code=%q, want NOT_FOUND", code)
		}
		if n := metrics.CounterValue("temporal_request_failure", signal); n != 1 {
			t.Errorf("temporal_request_failure of the signal is %d, want 1", n)
		}
	}
}

// throttlingServer answers Dial's checks, and rejects the first signal
// with RESOURCE_EXHAUSTED, which the client retries.
type throttlingServer struct {
	workflowservice.UnimplementedWorkflowServiceServer
	signals atomic.Int32
}

func (s *throttlingServer) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	return &workflowservice.GetSystemInfoResponse{}, nil
}

func (s *throttlingServer) DescribeNamespace(context.Context, *workflowservice.DescribeNamespaceRequest) (*workflowservice.DescribeNamespaceResponse, error) {
	return &workflowservice.DescribeNamespaceResponse{}, nil
}

func (s *throttlingServer) SignalWorkflowExecution(context.Context, *workflowservice.SignalWorkflowExecutionRequest) (*workflowservice.SignalWorkflowExecutionResponse, error) {
	if s.signals.Add(1) == 1 {
		// A gRPC server sends what GRPCStatus gives; serviceerrors have
		// their status through ToStatus.
		return nil, serviceerror.ToStatus(serviceerror.NewResourceExhausted(enumspb.RESOURCE_EXHAUSTED_CAUSE_RPS_LIMIT, "slow down")).Err()
	}
	return &workflowservice.SignalWorkflowExecutionResponse{}, nil
}

func startThrottlingServer(t testing.TB) string {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	workflowservice.RegisterWorkflowServiceServer(srv, &throttlingServer{})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

// TestRetriedRequestMetrics: a call retried after RESOURCE_EXHAUSTED is
// one request without failure, and two attempts of which one failed,
// with the server's cause.
func TestRetriedRequestMetrics(t *testing.T) {
	metrics := metricstest.NewHandler()
	c, err := client.Dial(client.Options{HostPort: startThrottlingServer(t), MetricsHandler: metrics})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.SignalWorkflow(ctxFor(t), "wf", "", "sig", nil); err != nil {
		t.Fatal(err)
	}
	signal := map[string]string{"operation": "SignalWorkflowExecution"}
	checks := []struct {
		name string
		tags map[string]string
		want int64
	}{
		{"temporal_request", signal, 1},
		{"temporal_request_failure", signal, 0},
		{"temporal_request_attempt", signal, 2},
		{"temporal_request_failure_attempt", map[string]string{"operation": "SignalWorkflowExecution", "status_code": "RESOURCE_EXHAUSTED"}, 1},
		{"temporal_request_resource_exhausted_attempt", map[string]string{"operation": "SignalWorkflowExecution", "cause": "RpsLimit"}, 1},
		{"temporal_request_resource_exhausted", nil, 0},
	}
	for _, c := range checks {
		if got := metrics.CounterValue(c.name, c.tags); got != c.want {
			t.Errorf("%s%v = %d, want %d (series %v)", c.name, c.tags, got, c.want, metrics.CounterSeries(c.name))
		}
	}
	if got := len(metrics.TimerDurations("temporal_request_latency_attempt", signal)); got != 2 {
		t.Errorf("temporal_request_latency_attempt has %d durations, want 2", got)
	}
}

// BenchmarkRequestMetrics times a signal over loopback without a metrics
// handler, with the no-op handler, and with a recording one. Without a
// handler (or with the no-op one) no metrics code runs at all: the first
// two cost the same, time and allocations.
func BenchmarkRequestMetrics(b *testing.B) {
	addr := startThrottlingServer(b)
	handlers := []struct {
		name    string
		handler client.MetricsHandler
	}{
		{"unset", nil},
		{"nop", client.MetricsNopHandler},
		{"recording", metricstest.NewHandler()},
	}
	for _, h := range handlers {
		b.Run(h.name, func(b *testing.B) {
			c, err := client.Dial(client.Options{HostPort: addr, MetricsHandler: h.handler})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			ctx := context.Background()
			// The first signal is throttled; get it out of the way.
			_ = c.SignalWorkflow(ctx, "wf", "", "sig", nil)
			b.ReportAllocs()
			for b.Loop() {
				if err := c.SignalWorkflow(ctx, "wf", "", "sig", nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
