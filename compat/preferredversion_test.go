package compat

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// PreferredVersionsOurs and PreferredVersionsOfficial are one source:
// three GetVersion calls whose first versions the worker's
// PreferredVersionProvider chooses.
func PreferredVersionsOurs(ctx workflow.Context) (string, error) {
	a := workflow.GetVersion(ctx, "keep-old", workflow.DefaultVersion, 2)
	b := workflow.GetVersion(ctx, "clamped", workflow.DefaultVersion, 2)
	c := workflow.GetVersion(ctx, "no-preference", 1, 3)
	return fmt.Sprint(a, b, c), workflow.Sleep(ctx, time.Millisecond)
}

func PreferredVersionsOfficial(ctx officialworkflow.Context) (string, error) {
	a := officialworkflow.GetVersion(ctx, "keep-old", officialworkflow.DefaultVersion, 2)
	b := officialworkflow.GetVersion(ctx, "clamped", officialworkflow.DefaultVersion, 2)
	c := officialworkflow.GetVersion(ctx, "no-preference", 1, 3)
	return fmt.Sprint(a, b, c), officialworkflow.Sleep(ctx, time.Millisecond)
}

// TestPreferredVersionsAreRecordedAlikeOnBothSDKs runs the workflow on a
// worker of each SDK, both given the same PreferredVersionProvider: the
// results and the version markers (and change-version upserts) are the
// same, and each SDK's replayer replays the other's history.
func TestPreferredVersionsAreRecordedAlikeOnBothSDKs(t *testing.T) {
	c, oc := dialBoth(t)
	choose := func(changeID string) (version int, clamp, ok bool) {
		switch changeID {
		case "keep-old":
			return -1, false, true
		case "clamped":
			return 7, true, true
		}
		return 0, false, false
	}
	stamp := time.Now().UnixNano()
	oursQueue, officialQueue := fmt.Sprintf("preferred-ours-%d", stamp), fmt.Sprintf("preferred-official-%d", stamp)
	w := worker.New(c, oursQueue, worker.Options{PreferredVersionProvider: func(in worker.PreferredVersionProviderInput) *worker.VersionPreference {
		if v, clamp, ok := choose(in.ChangeID); ok {
			return &worker.VersionPreference{Version: workflow.Version(v), ClampToSupportedRange: clamp}
		}
		return nil
	}})
	w.RegisterWorkflowWithOptions(PreferredVersionsOurs, workflow.RegisterOptions{Name: "PreferredVersions"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ow := officialworker.New(oc, officialQueue, officialworker.Options{PreferredVersionProvider: func(in officialworker.PreferredVersionProviderInput) *officialworker.VersionPreference {
		if v, clamp, ok := choose(in.ChangeID); ok {
			return &officialworker.VersionPreference{Version: officialworkflow.Version(v), ClampToSupportedRange: clamp}
		}
		return nil
	}})
	ow.RegisterWorkflowWithOptions(PreferredVersionsOfficial, officialworkflow.RegisterOptions{Name: "PreferredVersions"})
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	ours := runTo(t, c, oursQueue, "PreferredVersions", nil, "-1 2 3")
	official := runTo(t, c, officialQueue, "PreferredVersions", nil, "-1 2 3")
	if o, of := versionRecords(t, ours), versionRecords(t, official); len(o) != len(of) || len(o) == 0 {
		t.Errorf("ours recorded %d version events, the official SDK %d", len(o), len(of))
	} else {
		for i := range o {
			if !proto.Equal(o[i], of[i]) {
				t.Errorf("version event %d differs:\n ours:     %v\n official: %v", i, o[i], of[i])
			}
		}
	}
	oursReplayer := worker.NewWorkflowReplayer()
	oursReplayer.RegisterWorkflowWithOptions(PreferredVersionsOurs, workflow.RegisterOptions{Name: "PreferredVersions"})
	officialReplayer := officialworker.NewWorkflowReplayer()
	officialReplayer.RegisterWorkflowWithOptions(PreferredVersionsOfficial, officialworkflow.RegisterOptions{Name: "PreferredVersions"})
	if err := oursReplayer.ReplayWorkflowHistory(nil, official); err != nil {
		t.Errorf("this SDK's replayer fails on the official SDK's history: %v", err)
	}
	if err := officialReplayer.ReplayWorkflowHistory(quiet{}, ours); err != nil {
		t.Errorf("the official replayer fails on this SDK's history: %v", err)
	}
}

// versionRecords are the attributes of the version markers and search
// attribute upserts of h, in order. An upsert's change versions after the
// first (the new one) are sorted: go.temporal.io/sdk lists them in map
// order.
func versionRecords(t *testing.T, h *historypb.History) []proto.Message {
	t.Helper()
	var out []proto.Message
	for _, ev := range h.GetEvents() {
		if a := ev.GetMarkerRecordedEventAttributes(); a != nil {
			out = append(out, &historypb.MarkerRecordedEventAttributes{MarkerName: a.GetMarkerName(), Details: a.GetDetails()})
		}
		if a := ev.GetUpsertWorkflowSearchAttributesEventAttributes(); a != nil {
			sa := proto.Clone(a.GetSearchAttributes()).(*commonpb.SearchAttributes)
			if p := sa.GetIndexedFields()["TemporalChangeVersion"]; p != nil {
				var versions []string
				if err := json.Unmarshal(p.GetData(), &versions); err != nil {
					t.Fatal(err)
				}
				if len(versions) > 1 {
					slices.Sort(versions[1:])
				}
				p.Data, _ = json.Marshal(versions)
			}
			out = append(out, &historypb.UpsertWorkflowSearchAttributesEventAttributes{SearchAttributes: sa})
		}
	}
	return out
}
