package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/historycheck"
	"github.com/durable-go/sdk/temporaltest"
)

// TestTheExampleRunsOnTheEmbeddedServer runs the example as main does, a
// real worker and client over gRPC, against the embedded server: the
// ten signals, three to a run, take four runs, and Get follows them to
// the last one's result.
func TestTheExampleRunsOnTheEmbeddedServer(t *testing.T) {
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
	const want = "total 55 after 4 runs\n"
	if out.String() != want {
		t.Errorf("the example printed\n%s\nwant\n%s", out.String(), want)
	}

	// The signals come from the client as the runs go: how they fall
	// among the workflow tasks, and which run records each, differ from
	// one try to the next, on any server. Four runs take the ten, always.
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/histories.json", historycheck.OutcomeEvents, workflowID)
}
