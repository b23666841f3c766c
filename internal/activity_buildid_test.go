package internal

import (
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/policy"
)

// An activity keeps the workflow's build ID (build-ID versioning) on the
// workflow's own task queue unless its intent asks for the queue's
// default, as go.temporal.io/sdk sets UseWorkflowBuildId; elsewhere only
// the compatible intent keeps it. Found by the features suite's
// build_id_versioning/activity_and_child_on_correct_version (compat/features).
func TestActivityUseWorkflowBuildID(t *testing.T) {
	cases := []struct {
		name      string
		taskQueue string
		intent    policy.VersioningIntent
		want      bool
	}{
		{"own queue, no intent", "", policy.VersioningIntentUnspecified, true},
		{"own queue named, no intent", "tq", policy.VersioningIntentUnspecified, true},
		{"own queue, default", "", policy.VersioningIntentDefault, false},
		{"own queue, assignment rules", "", policy.VersioningIntentUseAssignmentRules, false},
		{"other queue, no intent", "other", policy.VersioningIntentUnspecified, false},
		{"other queue, compatible", "other", policy.VersioningIntentCompatible, true},
	}
	wf := func(ctx Context) error {
		for _, c := range cases {
			ExecuteActivity(WithActivityOptions(ctx, ActivityOptions{StartToCloseTimeout: time.Minute, TaskQueue: c.taskQueue, VersioningIntent: c.intent}), "Greet")
		}
		return Await(ctx, func() bool { return false })
	}
	run := newCodecTaskRun(t, wf, &matchingCodec{}, false, nil)
	res := run.mustTask()
	if len(res.Commands) != len(cases) {
		t.Fatalf("%d commands, want %d", len(res.Commands), len(cases))
	}
	for i, c := range cases {
		if got := res.Commands[i].GetScheduleActivityTaskCommandAttributes().GetUseWorkflowBuildId(); got != c.want {
			t.Errorf("%s: UseWorkflowBuildId %v, want %v", c.name, got, c.want)
		}
	}
}
