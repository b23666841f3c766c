package compat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	officialclient "go.temporal.io/sdk/client"
	officialworker "go.temporal.io/sdk/worker"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
)

// startEmbedded starts an embedded server (temporaltest), stopped at the
// test's end.
func startEmbedded(t *testing.T) *temporaltest.Server {
	t.Helper()
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

// TestTheOfficialSDKRunsWorkflowsOnTheEmbeddedServer runs go.temporal.io/sdk's
// own client and worker against the embedded server: the workflows of
// runs (activities, timers, signals, continue-as-new, children, ...) give
// the results they give on a dev server. The server is a Temporal
// endpoint, not a protocol private to this SDK.
func TestTheOfficialSDKRunsWorkflowsOnTheEmbeddedServer(t *testing.T) {
	srv := startEmbedded(t)
	oc, err := officialclient.Dial(officialclient.Options{HostPort: srv.HostPort(), Namespace: srv.Namespace(), Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()
	tq := "official-on-embedded"
	ow := officialworker.New(oc, tq, officialworker.Options{})
	registerOfficial(ow)
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i, r := range runs {
		id := fmt.Sprintf("official-%s-%d", r.name, i)
		run, err := oc.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: id, TaskQueue: tq}, r.name, r.args...)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range r.signals {
			if err := oc.SignalWorkflow(ctx, id, "", SignalsSignalName, s); err != nil {
				t.Fatal(err)
			}
		}
		var got any
		if err := run.Get(ctx, &got); err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		if r.want != nil && !sameJSON(t, got, r.want) {
			t.Errorf("%s returned %v on the embedded server, want %v", r.name, got, r.want)
		}
	}
}

// interleavedByTiming are the runs of runs whose own histories, on any
// server, depend on when signals and their children's starts and
// cancellations arrive relative to their workflow tasks (in one task's
// buffer or another's): the embedded server, in-process, delivers them
// sooner than a dev server. Their workflow task events aside, they must
// hold the same events, in any order.
var interleavedByTiming = map[string]bool{
	"SignalsWorkflow":             true,
	"ChildCancelWorkflow":         true,
	"ParentClosePoliciesWorkflow": true,
	"CancelTogetherWorkflow":      true,
}

// childrenLeftToTiming are the runs whose children's histories are
// timing's alone: whether a child ran a task before its parent's close
// terminated or canceled it.
var childrenLeftToTiming = map[string]bool{"ParentClosePoliciesWorkflow": true}

// TestEmbeddedHistoriesMatchTheDevServer runs the workflows of runs on
// this SDK's worker on the dev server and on the embedded server: each
// run's history must have the same events, event type for event type
// (in any order for interleavedByTiming), and so must its children's,
// their workflow task events aside and in any order (a child's first
// workflow task races with what its parent sends it).
func TestEmbeddedHistoriesMatchTheDevServer(t *testing.T) {
	dev, _ := dialBoth(t)
	srv := startEmbedded(t)
	embedded, err := client.Dial(srv.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer embedded.Close()
	tq := fmt.Sprintf("embedded-fidelity-%d", time.Now().UnixNano())
	for _, c := range []client.Client{dev, embedded} {
		w := worker.New(c, tq, worker.Options{})
		registerOurs(w)
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
	}
	devIDs, embeddedIDs := execute(t, dev, tq), execute(t, embedded, tq)
	for i, r := range runs {
		onDev := withChildren(t, dev, r.name, fullHistory(t, dev, devIDs[i]))
		onEmbedded := withChildren(t, embedded, r.name, fullHistory(t, embedded, embeddedIDs[i]))
		if len(onDev) != len(onEmbedded) {
			t.Errorf("%s: %d runs with children on the dev server, %d on the embedded server", r.name, len(onDev), len(onEmbedded))
			continue
		}
		for j := range onDev {
			want, got := eventTypes(onDev[j].GetEvents()), eventTypes(onEmbedded[j].GetEvents())
			switch {
			case j > 0 && childrenLeftToTiming[r.name]:
				continue
			case j > 0 || interleavedByTiming[r.name]:
				want, got = sortedNonTaskEventTypes(onDev[j].GetEvents()), sortedNonTaskEventTypes(onEmbedded[j].GetEvents())
			}
			if want != got {
				t.Errorf("%s: the histories differ:\n dev server: %s\n embedded:   %s", onDev[j].name, want, got)
			}
		}
	}
}

// sortedNonTaskEventTypes lists a history's event types in sorted order,
// without its workflow task events.
func sortedNonTaskEventTypes(events []*historypb.HistoryEvent) string {
	var names []string
	for _, ev := range events {
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			continue
		}
		names = append(names, ev.GetEventType().String())
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
