package main

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/historycheck"
	"github.com/durable-go/sdk/temporaltest"
)

// TestTheExampleRunsOnTheEmbeddedServer runs the example as main does, a
// real worker and client over gRPC, against the embedded server, with
// shorter steps and wait: the workflow ends canceled, and its history
// holds the events it holds on a dev server.
func TestTheExampleRunsOnTheEmbeddedServer(t *testing.T) {
	defer func(step, wait time.Duration) { stepDuration, cancelAfter = step, wait }(stepDuration, cancelAfter)
	// The cancellation reaches DoWork in the answer to a heartbeat: the
	// first is sent after the first step, the next 0.8 x HeartbeatTimeout
	// (4 s) later. A step longer than the wait lets the first carry it.
	stepDuration, cancelAfter = 200*time.Millisecond, 100*time.Millisecond
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out strings.Builder
	hostPort := historycheck.Server(t, srv.HostPort())
	if err := run(ctx, hostPort, &out); err != nil {
		t.Fatal(err)
	}
	// The lines name the workflow's ID twice.
	want := regexp.MustCompile(`^canceling ([^\n]+)\n` +
		`the workflow cleaned up and ended canceled: workflow execution error \(type: Process, workflowID: ([^,]+), runID: [^)]+\): canceled\n$`)
	match := want.FindStringSubmatch(out.String())
	if match == nil || match[1] != match[2] {
		t.Errorf("the example printed\n%s\nwant it to match\n%s, with one workflow ID", out.String(), want)
	}

	// The cancellation comes from the client, at a time of its own: whether
	// it finds a workflow task running decides how many run.
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/histories.json", historycheck.OutcomeEvents, workflowID)
}
