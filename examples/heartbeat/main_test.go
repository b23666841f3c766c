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
// first attempt fails after item 25, and the retry resumes there from
// the heartbeat the server recorded. The server's clock skips the
// retry's one-second backoff. The history holds the events, in the
// order, it holds on a dev server.
func TestTheExampleRunsOnTheEmbeddedServer(t *testing.T) {
	defer func(d time.Duration) { itemDuration = d }(itemDuration)
	itemDuration = time.Millisecond
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{TimeSkipping: true})
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
	const want = "40 items done; attempt 2 resumed at item 25\n"
	if out.String() != want {
		t.Errorf("the example printed\n%s\nwant\n%s", out.String(), want)
	}

	// One activity, its retry invisible in the history: the events come in
	// one order.
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/histories.json", historycheck.Exact, workflowID)
}
