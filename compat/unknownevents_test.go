package compat

import (
	"context"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/proto"

	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// withUnknownEvent is h with an event of a type neither SDK knows, as a
// newer server may write, inserted before its last event (renumbered
// after it).
func withUnknownEvent(h *historypb.History, workerMayIgnore bool) *historypb.History {
	h = proto.Clone(h).(*historypb.History)
	last := h.Events[len(h.Events)-1]
	unknown := &historypb.HistoryEvent{EventId: last.GetEventId(), EventTime: last.GetEventTime(),
		EventType: enumspb.EventType(9999), WorkerMayIgnore: workerMayIgnore}
	last.EventId++
	h.Events = append(h.Events[:len(h.Events)-1], unknown, last)
	return h
}

// TestBothSDKsSkipUnknownEventsThatWorkersMayIgnore replays, on both SDKs'
// replayers, a history with an event of a type neither knows (issue 32
// item 1): marked worker_may_ignore, both skip it; unmarked, both fail.
func TestBothSDKsSkipUnknownEventsThatWorkersMayIgnore(t *testing.T) {
	c, _ := dialBoth(t)
	tq := fmt.Sprintf("unknown-events-%d", time.Now().UnixNano())
	w := worker.New(c, tq, worker.Options{})
	registerOurs(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: tq}, "ActivitiesWorkflow", "Temporal")
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	h := fullHistory(t, c, id)

	ours := worker.NewWorkflowReplayer()
	official := officialworker.NewWorkflowReplayer()
	for _, p := range workflowPairs {
		ours.RegisterWorkflowWithOptions(p.ours, workflow.RegisterOptions{Name: p.name})
		official.RegisterWorkflowWithOptions(p.official, officialworkflow.RegisterOptions{Name: p.name})
	}
	for _, mayIgnore := range []bool{true, false} {
		marked := withUnknownEvent(h, mayIgnore)
		ourErr := ours.ReplayWorkflowHistory(quiet{}, marked)
		officialErr := official.ReplayWorkflowHistory(quiet{}, marked)
		if mayIgnore && (ourErr != nil || officialErr != nil) {
			t.Errorf("an unknown event marked worker_may_ignore: ours %v, official %v; both must skip it", ourErr, officialErr)
		}
		if !mayIgnore && (ourErr == nil || officialErr == nil) {
			t.Errorf("an unknown event without worker_may_ignore: ours %v, official %v; both must fail", ourErr, officialErr)
		}
	}
}
