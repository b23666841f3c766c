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
// validator rejects the second and third requests.
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
	const want = "reserve 3: accepted, 2 left\n" +
		"reserve 0: rejected: reserve 0 seats: ask for at least one\n" +
		"reserve 9: rejected: reserve 9 seats: only 2 left\n" +
		"reserve 2: accepted, 0 left\n" +
		"sold out after 2 reservations\n"
	if out.String() != want {
		t.Errorf("the example printed\n%s\nwant\n%s", out.String(), want)
	}

	// The updates come from the client as the workflow runs: how they fall
	// among its workflow tasks differs from run to run, on any server.
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/histories.json", historycheck.OutcomeEvents, workflowID)
}
