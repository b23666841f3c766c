//lint:file-ignore SA1019 the deprecated build-ID and deployment fields are compared too: both SDKs still send them.

package compat

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	officialactivity "go.temporal.io/sdk/activity"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// versionRequests keeps, for each kind of request a worker sends, what
// the first of them said of the worker's version.
type versionRequests struct {
	mu    sync.Mutex
	first map[string]proto.Message
}

func (v *versionRequests) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if kind, fields := versionFields(req); fields != nil {
		v.mu.Lock()
		if _, seen := v.first[kind]; !seen {
			v.first[kind] = fields
		}
		v.mu.Unlock()
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

// versionFields are the fields of a worker's request that carry its
// version, in a request of the same type; nil for a request that carries
// none.
func versionFields(req any) (string, proto.Message) {
	switch r := req.(type) {
	case *workflowservice.PollWorkflowTaskQueueRequest:
		return "PollWorkflowTaskQueue " + r.GetTaskQueue().GetKind().String(), &workflowservice.PollWorkflowTaskQueueRequest{
			BinaryChecksum: r.GetBinaryChecksum(), WorkerVersionCapabilities: r.GetWorkerVersionCapabilities(), DeploymentOptions: r.GetDeploymentOptions()}
	case *workflowservice.PollActivityTaskQueueRequest:
		return "PollActivityTaskQueue", &workflowservice.PollActivityTaskQueueRequest{
			WorkerVersionCapabilities: r.GetWorkerVersionCapabilities(), DeploymentOptions: r.GetDeploymentOptions()}
	case *workflowservice.RespondWorkflowTaskCompletedRequest:
		return "RespondWorkflowTaskCompleted", &workflowservice.RespondWorkflowTaskCompletedRequest{
			BinaryChecksum: r.GetBinaryChecksum(), WorkerVersionStamp: r.GetWorkerVersionStamp(), Deployment: r.GetDeployment(),
			DeploymentOptions: r.GetDeploymentOptions(), VersioningBehavior: r.GetVersioningBehavior()}
	case *workflowservice.RespondActivityTaskCompletedRequest:
		return "RespondActivityTaskCompleted", &workflowservice.RespondActivityTaskCompletedRequest{
			WorkerVersion: r.GetWorkerVersion(), Deployment: r.GetDeployment(), DeploymentOptions: r.GetDeploymentOptions()}
	}
	return "", nil
}

func versionedWireWorkflowOurs(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	if err := workflow.ExecuteActivity(ctx, "VersionedWireActivity").Get(ctx, nil); err != nil {
		return err
	}
	return workflow.Sleep(ctx, time.Millisecond) // a next task, from the sticky queue
}

func versionedWireWorkflowOfficial(ctx officialworkflow.Context) error {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	if err := officialworkflow.ExecuteActivity(ctx, "VersionedWireActivity").Get(ctx, nil); err != nil {
		return err
	}
	return officialworkflow.Sleep(ctx, time.Millisecond)
}

func versionedWireActivity(context.Context) error { return nil }

// Both SDKs' workers tell the server the same of their version, request
// by request (workflow polls of the normal and the sticky queue, activity
// polls, workflow and activity task completions), on the dev server: a
// plain worker, one that names a deployment version unversioned, and a
// versioned one.
func TestWorkersOfBothSDKsSendTheSameVersionFields(t *testing.T) {
	hp := testharness.HostPort(t)
	for _, tc := range []struct {
		name       string
		versioned  bool
		hasVersion bool
	}{{"plain", false, false}, {"version unversioned", false, true}, {"versioned", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			name := fmt.Sprintf("versionwire-%d", time.Now().UnixNano())
			deployment, oursQueue, officialQueue := name+"-deployment", name+"-ours", name+"-official"
			ours := &versionRequests{first: map[string]proto.Message{}}
			theirs := &versionRequests{first: map[string]proto.Message{}}
			c, err := client.Dial(client.Options{HostPort: hp, ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(ours.intercept)}}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			oc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{}, ConnectionOptions: officialclient.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(theirs.intercept)}}})
			if err != nil {
				t.Fatal(err)
			}
			defer oc.Close()

			var oursOpts worker.Options
			var officialOpts officialworker.Options
			if tc.hasVersion {
				oursOpts.DeploymentOptions = worker.DeploymentOptions{UseVersioning: tc.versioned, Version: worker.WorkerDeploymentVersion{DeploymentName: deployment, BuildID: "v1"}}
				officialOpts.DeploymentOptions = officialworker.DeploymentOptions{UseVersioning: tc.versioned, Version: officialworker.WorkerDeploymentVersion{DeploymentName: deployment, BuildID: "v1"}}
			}
			w := worker.New(c, oursQueue, oursOpts)
			w.RegisterWorkflowWithOptions(versionedWireWorkflowOurs, workflow.RegisterOptions{Name: "VersionedWire", VersioningBehavior: workflow.VersioningBehaviorPinned})
			w.RegisterActivityWithOptions(versionedWireActivity, activity.RegisterOptions{Name: "VersionedWireActivity"})
			ow := officialworker.New(oc, officialQueue, officialOpts)
			ow.RegisterWorkflowWithOptions(versionedWireWorkflowOfficial, officialworkflow.RegisterOptions{Name: "VersionedWire", VersioningBehavior: officialworkflow.VersioningBehaviorPinned})
			ow.RegisterActivityWithOptions(versionedWireActivity, officialactivity.RegisterOptions{Name: "VersionedWireActivity"})
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			if err := ow.Start(); err != nil {
				t.Fatal(err)
			}
			defer ow.Stop()
			if tc.versioned {
				ops := rolloutOps{t: t, c: c, deployment: deployment, taskQueue: oursQueue}
				ops.eventually("set current version v1", func(ctx context.Context) error {
					_, err := c.WorkflowService().SetWorkerDeploymentCurrentVersion(ctx, &workflowservice.SetWorkerDeploymentCurrentVersionRequest{
						Namespace: "default", DeploymentName: deployment, BuildId: "v1", Identity: "versionwire-test"})
					return err
				})
				ops.waitRouting("v1", "", 0)
				ops.taskQueue = officialQueue
				ops.waitRouting("v1", "", 0)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for _, queue := range []string{oursQueue, officialQueue} {
				run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: name + "-" + queue, TaskQueue: queue}, "VersionedWire")
				if err != nil {
					t.Fatal(err)
				}
				if err := run.Get(ctx, nil); err != nil {
					t.Fatal(err)
				}
			}

			ours.mu.Lock()
			theirs.mu.Lock()
			defer ours.mu.Unlock()
			defer theirs.mu.Unlock()
			var kinds []string
			for kind := range theirs.first {
				kinds = append(kinds, kind)
			}
			sort.Strings(kinds)
			if len(kinds) != 5 {
				t.Errorf("the official worker sent %d kinds of request that carry its version (%q), want 5: the test no longer covers them all", len(kinds), kinds)
			}
			for _, kind := range kinds {
				if got, want := ours.first[kind], theirs.first[kind]; !proto.Equal(got, want) {
					t.Errorf("%s: this SDK's worker sent {%v}, the official worker {%v}", kind, got, want)
				}
			}
		})
	}
}
