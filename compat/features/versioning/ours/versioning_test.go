// Package versioning runs the versioning features of the cross-SDK
// features suite (github.com/temporalio/features, features/
// deployment_versioning and features/build_id_versioning; the feature
// files under this directory are theirs, with only the imports rewritten)
// on the dev server with this module's small harness. The source is in
// ours; official is generated from it with the SDK's import prefix
// rewritten (compat/features' TestFeaturesAreOneSource), so each feature
// runs on both SDKs: go test -race ./features/versioning/...
package versioning

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/compat/features/harness/ours"
	"github.com/durable-go/sdk/compat/features/versioning/ours/build_id_versioning/activity_and_child_on_correct_version"
	"github.com/durable-go/sdk/compat/features/versioning/ours/build_id_versioning/continues_as_new_on_correct_version"
	"github.com/durable-go/sdk/compat/features/versioning/ours/build_id_versioning/only_appropriate_worker_gets_task"
	"github.com/durable-go/sdk/compat/features/versioning/ours/build_id_versioning/unversioned_worker_gets_unversioned_task"
	"github.com/durable-go/sdk/compat/features/versioning/ours/build_id_versioning/unversioned_worker_no_task"
	"github.com/durable-go/sdk/compat/features/versioning/ours/build_id_versioning/versions_added_while_worker_polling"
	aa_clean_old_deployments "github.com/durable-go/sdk/compat/features/versioning/ours/deployment_versioning/aa_clean_old_deployments"
	"github.com/durable-go/sdk/compat/features/versioning/ours/deployment_versioning/routing_auto_upgrade"
	"github.com/durable-go/sdk/compat/features/versioning/ours/deployment_versioning/routing_pinned"
	"github.com/durable-go/sdk/compat/features/versioning/ours/deployment_versioning/routing_with_override"
	"github.com/durable-go/sdk/compat/features/versioning/ours/deployment_versioning/routing_with_ramp"
	"github.com/durable-go/sdk/internal/testharness"
)

func TestMain(m *testing.M) {
	// The build-ID features run only where this is set (upstream they are
	// off by default as they fail on servers from 1.25 on); the dev server
	// turns those APIs on, so here they must run.
	os.Setenv("ENABLE_VERSIONING_TESTS", "true")
	testharness.Main(m)
}

func TestDeploymentVersioningAACleanOldDeployments(t *testing.T) {
	runFeature(t, aa_clean_old_deployments.Feature)
}

func TestDeploymentVersioningRoutingAutoUpgrade(t *testing.T) {
	runFeature(t, routing_auto_upgrade.Feature)
}

func TestDeploymentVersioningRoutingPinned(t *testing.T) {
	runFeature(t, routing_pinned.Feature)
}

func TestDeploymentVersioningRoutingWithOverride(t *testing.T) {
	runFeature(t, routing_with_override.Feature)
}

func TestDeploymentVersioningRoutingWithRamp(t *testing.T) {
	runFeature(t, routing_with_ramp.Feature)
}

func TestBuildIDVersioningActivityAndChildOnCorrectVersion(t *testing.T) {
	runFeature(t, activity_on_same_version.Feature)
}

func TestBuildIDVersioningContinuesAsNewOnCorrectVersion(t *testing.T) {
	runFeature(t, continues_as_new_on_correct_version.Feature)
}

func TestBuildIDVersioningOnlyAppropriateWorkerGetsTask(t *testing.T) {
	runFeature(t, only_appropriate_worker_gets_task.Feature)
}

func TestBuildIDVersioningUnversionedWorkerGetsUnversionedTask(t *testing.T) {
	runFeature(t, unversioned_worker_gets_unversioned_task.Feature)
}

func TestBuildIDVersioningUnversionedWorkerNoTask(t *testing.T) {
	runFeature(t, unversioned_worker_no_task.Feature)
}

func TestBuildIDVersioningVersionsAddedWhilePollingWorker(t *testing.T) {
	runFeature(t, versions_added_while_worker_polling.Feature)
}

// failOnServer132 names the features that fail on server 1.32 with both
// SDKs, and why; they run only with FEATURES_RUN_FAILING=1. The first two
// start a second worker with build ID 2.0 before 2.0 is in the task queue's
// version sets and expect it to get the tasks sent to the new default at
// once; server 1.32 routes them there only to polls begun after the sets
// changed, so a worker polling since before waits until its poll expires
// (matching.longPollExpirationInterval, a minute). Upstream gates all
// build-ID features behind ENABLE_VERSIONING_TESTS as they fail on servers
// from 1.25 on. (With that interval at 300ms the first passes on both SDKs
// and the second fails about 1 run in 6 on each, but the deployment
// features and unversioned_worker_gets_unversioned_task then time out now
// and then, on both SDKs.)
var failOnServer132 = map[string]string{
	"TestBuildIDVersioningActivityAndChildOnCorrectVersion": "the activity and child with VersioningIntentDefault time out unstarted (ScheduleToStart), or the first activity runs on 2.0",
	"TestBuildIDVersioningContinuesAsNewOnCorrectVersion":   "the run continued as new with VersioningIntentDefault is not picked up by the 2.0 worker (its runningOn query times out), or lands on the wrong build ID",
	// Both SDKs fail it the same way now and then: in 60 runs with the
	// official SDK 4 failed, in 37 with this one 3 (FEATURES_RUN_FAILING=1
	// go test -race -count=60 -run <this test> ./features/versioning/official/).
	// The first task, added before the version sets, was not matched at
	// once; taken from the backlog after the sets changed, it is sent to
	// the new default set, which no worker of the feature polls.
	"TestBuildIDVersioningUnversionedWorkerGetsUnversionedTask": "now and then the unversioned workflow's first task, scheduled just before the version sets are added, is never given to the unversioned worker (the workflow times out after a minute with its task unstarted)",
}

var runs atomic.Int64

// deploymentSlots lets two deployment features run at a time: each keeps
// the server's deployment workflows busy, and with more at once on a
// loaded machine the features' own 10s waits for the routing to
// propagate run out.
var deploymentSlots = make(chan struct{}, 2)

// runFeature runs the feature in a namespace of its own, on a task queue
// of its own: the deployment features start the same workflow ID and keep
// their deployment name in a package variable, so runs in parallel and
// repeated runs (-count) would otherwise meet. A feature that skips itself
// fails the test: the dev server supports all of them.
func runFeature(t *testing.T, feature harness.Feature) {
	t.Parallel()
	if reason, ok := failOnServer132[t.Name()]; ok && os.Getenv("FEATURES_RUN_FAILING") != "1" {
		t.Skipf("fails on server 1.32 with both SDKs: %s (FEATURES_RUN_FAILING=1 runs it)", reason)
	}
	if strings.HasPrefix(t.Name(), "TestDeploymentVersioning") {
		deploymentSlots <- struct{}{}
		defer func() { <-deploymentSlots }()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	hostPort := testharness.HostPort(t)
	name := fmt.Sprintf("%s-%d-%d", strings.TrimPrefix(t.Name(), "Test"), time.Now().UnixNano(), runs.Add(1))
	namespace := newNamespace(ctx, t, hostPort, name)
	runner, err := harness.NewRunner(harness.RunnerConfig{ServerHostPort: hostPort, Namespace: namespace, TaskQueue: name}, feature)
	if err != nil {
		t.Fatal(err)
	}
	if err := runner.Run(ctx); err != nil {
		var skipped *harness.SkipError
		if errors.As(err, &skipped) {
			t.Fatalf("the feature skipped itself on the dev server, which supports it: %v", err)
		}
		logHistories(t, hostPort, namespace)
		t.Fatalf("feature failed: %v", err)
	}
}

// logHistories logs the history of every workflow in the namespace, for
// a failed feature.
func logHistories(t *testing.T, hostPort, namespace string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.Dial(client.Options{HostPort: hostPort, Namespace: namespace})
	if err != nil {
		t.Logf("no histories: %v", err)
		return
	}
	defer c.Close()
	resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: namespace})
	if err != nil {
		t.Logf("no histories: %v", err)
		return
	}
	for _, info := range resp.Executions {
		t.Logf("history of %s (run %s, %s, %s):", info.Type.GetName(), info.Execution.RunId, info.Execution.WorkflowId, info.Status)
		iter := c.GetWorkflowHistory(ctx, info.Execution.WorkflowId, info.Execution.RunId, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for iter.HasNext() {
			event, err := iter.Next()
			if err != nil {
				t.Logf("  %v", err)
				break
			}
			t.Logf("  %d %s %v", event.EventId, event.EventType, event.Attributes)
		}
	}
}

// newNamespace registers a namespace and waits until a client can use it.
func newNamespace(ctx context.Context, t *testing.T, hostPort, name string) string {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: hostPort})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace:                        name,
		WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour),
	}); err != nil {
		t.Fatalf("registering namespace %s: %v", name, err)
	}
	nc, err := client.NewNamespaceClient(client.Options{HostPort: hostPort})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	for {
		if _, err = nc.Describe(ctx, name); err == nil {
			return name
		}
		select {
		case <-ctx.Done():
			t.Fatalf("namespace %s not usable: %v", name, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
