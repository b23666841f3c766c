package compat

import (
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	official "go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/proto"

	ours "github.com/durable-go/sdk/workflow"
)

// An activity's and a timer's Summary go with their commands as user
// metadata, shown by the UI; both SDKs write the same bytes.

func SummariesWorkflowOurs(ctx ours.Context) (string, error) {
	actx := ours.WithActivityOptions(ctx, ours.ActivityOptions{StartToCloseTimeout: 10 * time.Second, Summary: "greet the caller"})
	var greeting string
	if err := ours.ExecuteActivity(actx, "Greet", "Temporal").Get(ctx, &greeting); err != nil {
		return "", err
	}
	if err := ours.NewTimerWithOptions(ctx, time.Millisecond, ours.TimerOptions{Summary: "a short wait"}).Get(ctx, nil); err != nil {
		return "", err
	}
	return greeting, nil
}

func SummariesWorkflowOfficial(ctx official.Context) (string, error) {
	actx := official.WithActivityOptions(ctx, official.ActivityOptions{StartToCloseTimeout: 10 * time.Second, Summary: "greet the caller"})
	var greeting string
	if err := official.ExecuteActivity(actx, "Greet", "Temporal").Get(ctx, &greeting); err != nil {
		return "", err
	}
	if err := official.NewTimerWithOptions(ctx, time.Millisecond, official.TimerOptions{Summary: "a short wait"}).Get(ctx, nil); err != nil {
		return "", err
	}
	return greeting, nil
}

func TestSummariesGoWithTheirCommandsAlikeOnBothSDKs(t *testing.T) {
	c, oc := dialBoth(t)
	oursQueue, officialQueue := startPortedWorkers(t, c, oc)
	mine := userMetadata(runTo(t, c, oursQueue, "SummariesWorkflow", nil, "Hello, Temporal!"))
	theirs := userMetadata(runTo(t, c, officialQueue, "SummariesWorkflow", nil, "Hello, Temporal!"))
	for _, kind := range []enumspb.EventType{enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, enumspb.EVENT_TYPE_TIMER_STARTED} {
		if theirs[kind].GetSummary() == nil {
			t.Fatalf("go.temporal.io/sdk wrote no summary on %s", kind)
		}
		if !proto.Equal(mine[kind], theirs[kind]) {
			t.Errorf("%s: user metadata %v, want go.temporal.io/sdk's %v", kind, mine[kind], theirs[kind])
		}
	}
}

// userMetadata is the user metadata of each kind of event in h (the last
// of a kind).
func userMetadata(h *historypb.History) map[enumspb.EventType]*sdkpb.UserMetadata {
	m := map[enumspb.EventType]*sdkpb.UserMetadata{}
	for _, e := range h.GetEvents() {
		m[e.GetEventType()] = e.GetUserMetadata()
	}
	return m
}
