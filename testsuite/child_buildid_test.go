//lint:file-ignore SA1019 build-ID versioning is deprecated, but go.temporal.io/sdk still sets inherit_build_id on every child, and so must this SDK.

package testsuite_test

import (
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// ShipVia starts Shipping on taskQueue (the parent's when empty) with
// intent.
func ShipVia(ctx workflow.Context, taskQueue string, intent temporal.VersioningIntent) error {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{TaskQueue: taskQueue, VersioningIntent: intent})
	return workflow.ExecuteChildWorkflow(ctx, Shipping, "o").Get(ctx, nil)
}

// The StartChildWorkflowExecution command asks the server to run the child
// on the parent's build ID as go.temporal.io/sdk does: by default when the
// child stays on the parent's task queue, and as the intent says otherwise.
func TestChildInheritsTheBuildIDAsTheOfficialSDKSays(t *testing.T) {
	cases := []struct {
		name      string
		taskQueue string
		intent    temporal.VersioningIntent
		want      bool
	}{
		{"parent's queue, no intent", "", temporal.VersioningIntentUnspecified, true},
		{"parent's queue named, no intent", "default-test-taskqueue", temporal.VersioningIntentUnspecified, true},
		{"other queue, no intent", "elsewhere", temporal.VersioningIntentUnspecified, false},
		{"parent's queue, assignment rules", "", temporal.VersioningIntentUseAssignmentRules, false},
		{"parent's queue, default", "", temporal.VersioningIntentDefault, false},
		{"other queue, inherit", "elsewhere", temporal.VersioningIntentInheritBuildID, true},
		{"other queue, compatible", "elsewhere", temporal.VersioningIntentCompatible, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			env.OnWorkflow(Shipping, mock.Anything, "o").Return("shipped", nil)
			env.ExecuteWorkflow(ShipVia, c.taskQueue, c.intent)
			require.NoError(t, env.GetWorkflowError())
			h, err := env.GetHistory()
			require.NoError(t, err)
			var initiated int
			for _, ev := range h.GetEvents() {
				if a := ev.GetStartChildWorkflowExecutionInitiatedEventAttributes(); a != nil {
					initiated++
					require.Equal(t, c.want, a.GetInheritBuildId(), "inherit_build_id of a child on %q", a.GetTaskQueue().GetName())
				}
			}
			require.Equal(t, 1, initiated)
		})
	}
}
