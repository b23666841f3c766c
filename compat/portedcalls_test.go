package compat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

// TestPortedCallsWriteTheSameHistoryOnBothSDKs runs workflows whose calls
// go.temporal.io/sdk lets through (a negative timer, activities given
// arguments that do not fit them) on a worker of each SDK, and checks that
// both end the same way and write the same history: the same events in the
// same order, the same activity inputs, and the SDK's name and version in
// the same workflow task completions (the first only, with the sticky
// cache; without it, as each SDK reports them after a replay).
func TestPortedCallsWriteTheSameHistoryOnBothSDKs(t *testing.T) {
	c, oc := dialBoth(t)
	for _, cache := range []int{10000, 0} {
		t.Run(fmt.Sprintf("sticky cache %d", cache), func(t *testing.T) {
			worker.SetStickyWorkflowCacheSize(cache)
			officialworker.SetStickyWorkflowCacheSize(cache)
			defer worker.SetStickyWorkflowCacheSize(10000)
			defer officialworker.SetStickyWorkflowCacheSize(10000)
			oursQueue, officialQueue := startPortedWorkers(t, c, oc)
			for _, r := range []struct {
				name string
				args []any
				want string
			}{
				{"NegativeTimersWorkflow", nil, "slept: <nil>, timer: true <nil>, await: false <nil>, Hello, Temporal!"},
				{"MismatchedArgsWorkflow", nil, "Hello, Temporal! | Hello, ! | decoding failed: true"},
				{"SequentialActivitiesWorkflow", []any{4}, ""},
			} {
				t.Run(r.name, func(t *testing.T) {
					ours := runTo(t, c, oursQueue, r.name, r.args, r.want)
					official := runTo(t, c, officialQueue, r.name, r.args, r.want)
					if o, of := historyShape(ours), historyShape(official); o != of {
						t.Errorf("the histories differ:\n ours:     %s\n official: %s", o, of)
					}
					if o, of := activityInputs(ours), activityInputs(official); !slices.EqualFunc(o, of, func(a, b *historypb.ActivityTaskScheduledEventAttributes) bool {
						return proto.Equal(a.GetInput(), b.GetInput())
					}) {
						t.Errorf("the activities were scheduled with other inputs:\n ours:     %v\n official: %v", o, of)
					}
				})
			}
		})
	}
}

// startPortedWorkers starts a worker of each SDK on a task queue of its own.
func startPortedWorkers(t *testing.T, c client.Client, oc officialclient.Client) (oursQueue, officialQueue string) {
	t.Helper()
	oursQueue = fmt.Sprintf("ported-ours-%d", time.Now().UnixNano())
	w := worker.New(c, oursQueue, worker.Options{})
	registerOurs(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	officialQueue = fmt.Sprintf("ported-official-%d", time.Now().UnixNano())
	ow := officialworker.New(oc, officialQueue, officialworker.Options{})
	registerOfficial(ow)
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ow.Stop)
	return oursQueue, officialQueue
}

// runTo runs a workflow on taskQueue, checks its result (when want is
// set), and returns its history.
func runTo(t *testing.T, c client.Client, taskQueue, workflowType string, args []any, want string) *historypb.History {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := fmt.Sprintf("%s-%s-%d", taskQueue, workflowType, time.Now().UnixNano())
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue}, workflowType, args...)
	if err != nil {
		t.Fatal(err)
	}
	var got any
	if err := run.Get(ctx, &got); err != nil {
		t.Fatalf("%s on %s: %v", workflowType, taskQueue, err)
	}
	if want != "" && got != want {
		t.Errorf("%s on %s returned %q, want %q", workflowType, taskQueue, got, want)
	}
	return fullHistory(t, c, id)
}

// historyShape is the history's event types in order, each workflow task
// completion marked with the SDK name and version it reports (+name,
// +version) and its SDK flags.
func historyShape(h *historypb.History) string {
	var shape []string
	for _, ev := range h.GetEvents() {
		s := strings.TrimPrefix(ev.GetEventType().String(), "EVENT_TYPE_")
		if md := ev.GetWorkflowTaskCompletedEventAttributes().GetSdkMetadata(); md != nil {
			if md.GetSdkName() != "" {
				s += "+name"
			}
			if md.GetSdkVersion() != "" {
				s += "+version"
			}
			if len(md.GetLangUsedFlags()) > 0 {
				s += fmt.Sprint(md.GetLangUsedFlags())
			}
		}
		shape = append(shape, s)
	}
	return strings.Join(shape, " ")
}

func activityInputs(h *historypb.History) []*historypb.ActivityTaskScheduledEventAttributes {
	var out []*historypb.ActivityTaskScheduledEventAttributes
	for _, ev := range h.GetEvents() {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			out = append(out, a)
		}
	}
	return out
}
