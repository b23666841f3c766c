// Package versioning runs the versioning features of the cross-SDK
// features suite (github.com/temporalio/features, features/
// deployment_versioning and features/build_id_versioning; the feature
// files under this directory are theirs, with only the imports rewritten)
// on the dev server with this module's small harness (harness.RunTest).
// The source is in ours; official is generated from it with the SDK's
// import prefix rewritten (compat/features' TestFeaturesAreOneSource), so
// each feature runs on both SDKs: go test -race ./features/versioning/...
package versioning

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

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

// deploymentSlots lets one deployment feature of this package run at a
// time (the other SDK's package may run one beside it): each keeps the
// server's deployment workflows busy, and with more at once on a loaded
// machine the features' own 10s waits for the routing to propagate run
// out (with two per package, RoutingPinned's ran out once in a CI run on
// 2 cores, on the official SDK).
var deploymentSlots = make(chan struct{}, 1)

// runFeature runs the feature with harness.RunTest, in parallel with the
// others, unless it fails on server 1.32.
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
	harness.RunTest(ctx, t, feature)
}
