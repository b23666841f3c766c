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
// real worker and client over gRPC, against the embedded server.
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
	const want = "signed up: user-ada.lovelace\n"
	if out.String() != want {
		t.Errorf("the example printed\n%s\nwant\n%s", out.String(), want)
	}

	// Local activities run within the workflow task: the events come in
	// one order.
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/histories.json", historycheck.Exact, workflowID)
}
