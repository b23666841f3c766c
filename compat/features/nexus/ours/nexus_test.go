// Package nexus runs the Nexus features of the cross-SDK features suite
// (github.com/temporalio/features, features/nexus; the feature files
// under this directory are theirs, with only the imports rewritten) on
// the dev server with this module's small harness (harness.RunTest),
// which gives each feature a Nexus endpoint targeting its namespace and
// task queue, as the suite's runner does. The source is in ours; official
// is generated from it with the SDK's import prefix rewritten
// (compat/features' TestFeaturesAreOneSource), so each feature runs on
// both SDKs: go test -race ./features/nexus/...
package nexus

import (
	"context"
	"testing"
	"time"

	"github.com/durable-go/sdk/compat/features/harness/ours"
	"github.com/durable-go/sdk/compat/features/nexus/ours/sync_success"
	"github.com/durable-go/sdk/internal/testharness"
)

func TestMain(m *testing.M) { testharness.Main(m) }

func TestNexusSyncSuccess(t *testing.T) {
	runFeature(t, sync_success.Feature)
}

// runFeature runs the feature with harness.RunTest, in parallel with the
// others.
func runFeature(t *testing.T, feature harness.Feature) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	harness.RunTest(ctx, t, feature)
}
