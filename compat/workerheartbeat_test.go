package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	workerpb "go.temporal.io/api/worker/v1"
	"go.temporal.io/api/workflowservice/v1"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// A worker of each SDK with heartbeats every second, after one workflow
// with one activity ran on it: what the server then knows of it
// (ListWorkers), while it runs and after it stopped. Values that differ
// by nature (names, keys, times) are compared by whether they are set.

func HeartbeatWorkflowOurs(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var out string
	err := workflow.ExecuteActivity(ctx, HeartbeatActivity).Get(ctx, &out)
	return out, err
}

func HeartbeatWorkflowOfficial(ctx officialworkflow.Context) (string, error) {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var out string
	err := officialworkflow.ExecuteActivity(ctx, HeartbeatActivity).Get(ctx, &out)
	return out, err
}

func HeartbeatActivity(context.Context) (string, error) { return "done", nil }

// describeHeartbeat is what a heartbeat shows that both SDKs should show
// alike.
func describeHeartbeat(hb *workerpb.WorkerHeartbeat) string {
	slots := func(s *workerpb.WorkerSlotsInfo) string {
		if s == nil {
			return "none"
		}
		return fmt.Sprintf("{kind %s, used %d, processed %d, failed %d}", s.GetSlotSupplierKind(), s.GetCurrentUsedSlots(), s.GetTotalProcessedTasks(), s.GetTotalFailedTasks())
	}
	polls := func(p *workerpb.WorkerPollerInfo) string {
		if p == nil {
			return "none"
		}
		return fmt.Sprintf("{autoscaling %v, polled %v}", p.GetIsAutoscaling(), p.GetLastSuccessfulPollTime() != nil)
	}
	h := hb.GetHostInfo()
	return fmt.Sprintf("status %v; set: identity %v, host %v, pid %v, grouping key %v, sdk %v/%v, start %v, heartbeat time %v; deployment %v; "+
		"workflow %s, activity %s, local activity %s, nexus %s; polls: workflow %s, sticky %s, activity %s, nexus %s; plugins %d",
		hb.GetStatus(), hb.GetWorkerIdentity() != "", h.GetHostName() != "", h.GetProcessId() != "", h.GetWorkerGroupingKey() != "",
		hb.GetSdkName() != "", hb.GetSdkVersion() != "", hb.GetStartTime() != nil, hb.GetHeartbeatTime() != nil, hb.GetDeploymentVersion() != nil,
		slots(hb.GetWorkflowTaskSlotsInfo()), slots(hb.GetActivityTaskSlotsInfo()), slots(hb.GetLocalActivitySlotsInfo()), slots(hb.GetNexusTaskSlotsInfo()),
		polls(hb.GetWorkflowPollerInfo()), polls(hb.GetWorkflowStickyPollerInfo()), polls(hb.GetActivityPollerInfo()), polls(hb.GetNexusPollerInfo()),
		len(hb.GetPlugins()))
}

// workerSeen waits until the server knows a worker of taskQueue for which
// ready holds, and returns its last heartbeat.
func workerSeen(t *testing.T, svc workflowservice.WorkflowServiceClient, namespace, taskQueue string, ready func(*workerpb.WorkerHeartbeat) bool) *workerpb.WorkerHeartbeat {
	t.Helper()
	var last *workerpb.WorkerHeartbeat
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		resp, err := svc.ListWorkers(context.Background(), &workflowservice.ListWorkersRequest{Namespace: namespace, Query: fmt.Sprintf("TaskQueue = '%s'", taskQueue)})
		if err != nil {
			t.Fatalf("ListWorkers: %v", err)
		}
		//lint:ignore SA1019 the full heartbeat is only in the deprecated field.
		for _, info := range resp.GetWorkersInfo() {
			if last = info.GetWorkerHeartbeat(); ready(last) {
				return last
			}
		}
	}
	t.Fatalf("the server never showed a worker of %s as wanted; last heartbeat: %v", taskQueue, last)
	return nil
}

func TestWorkerHeartbeatsAreTheSameOnBothSDKs(t *testing.T) {
	hp, ns := testharness.HostPort(t), testharness.Namespace(t)
	ran := func(hb *workerpb.WorkerHeartbeat) bool {
		return hb.GetWorkflowTaskSlotsInfo().GetTotalProcessedTasks() >= 2 && hb.GetActivityTaskSlotsInfo().GetTotalProcessedTasks() >= 1
	}
	stopped := func(hb *workerpb.WorkerHeartbeat) bool {
		return hb.GetStatus() != 0 && hb.GetStatus().String() != "Running"
	}
	type seen struct{ running, stopped string }
	run := map[string]func(tq string) seen{
		"official": func(tq string) seen {
			c, err := officialclient.Dial(officialclient.Options{HostPort: hp, Namespace: ns, Logger: quiet{}, WorkerHeartbeatInterval: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			w := officialworker.New(c, tq, officialworker.Options{})
			w.RegisterWorkflowWithOptions(HeartbeatWorkflowOfficial, officialworkflow.RegisterOptions{Name: "HeartbeatWorkflow"})
			w.RegisterActivity(HeartbeatActivity)
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			r, err := c.ExecuteWorkflow(context.Background(), officialclient.StartWorkflowOptions{TaskQueue: tq}, "HeartbeatWorkflow")
			if err != nil || r.Get(context.Background(), nil) != nil {
				t.Fatalf("the workflow: %v", err)
			}
			var s seen
			s.running = describeHeartbeat(workerSeen(t, c.WorkflowService(), ns, tq, ran))
			w.Stop()
			s.stopped = describeHeartbeat(workerSeen(t, c.WorkflowService(), ns, tq, stopped))
			return s
		},
		"ours": func(tq string) seen {
			c, err := client.Dial(client.Options{HostPort: hp, Namespace: ns, Logger: quiet{}, WorkerHeartbeatInterval: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			w := worker.New(c, tq, worker.Options{})
			w.RegisterWorkflowWithOptions(HeartbeatWorkflowOurs, workflow.RegisterOptions{Name: "HeartbeatWorkflow"})
			w.RegisterActivity(HeartbeatActivity)
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			r, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: tq}, "HeartbeatWorkflow")
			if err != nil || r.Get(context.Background(), nil) != nil {
				t.Fatalf("the workflow: %v", err)
			}
			var s seen
			s.running = describeHeartbeat(workerSeen(t, c.WorkflowService(), ns, tq, ran))
			w.Stop()
			s.stopped = describeHeartbeat(workerSeen(t, c.WorkflowService(), ns, tq, stopped))
			return s
		},
	}
	stamp := time.Now().UnixNano()
	official := run["official"](fmt.Sprintf("heartbeats-official-%d", stamp))
	ours := run["ours"](fmt.Sprintf("heartbeats-ours-%d", stamp))
	if ours.running != official.running {
		t.Errorf("a running worker:\n ours:     %s\n official: %s", ours.running, official.running)
	}
	if ours.stopped != official.stopped {
		t.Errorf("a stopped worker:\n ours:     %s\n official: %s", ours.stopped, official.stopped)
	}
	t.Logf("running: %s\nstopped: %s", official.running, official.stopped)
}
