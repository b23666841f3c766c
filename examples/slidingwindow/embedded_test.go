package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/historycheck"
	"github.com/durable-go/sdk/temporaltest"
)

// TestOnTheEmbeddedServer runs what main runs, process's worker and
// workflow over 30 records, with a real client over gRPC against the
// embedded server, whose clock skips the children's sleeps: every record
// is counted once, across the parent's continues-as-new, and the
// histories hold the events they hold on a dev server.
func TestOnTheEmbeddedServer(t *testing.T) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{TimeSkipping: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	c, err := client.Dial(client.Options{HostPort: historycheck.Server(t, srv.HostPort())})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	total, err := process(ctx, c, "sliding-window-embedded", 30)
	if err != nil || total != 30 {
		t.Fatalf("total %d, %v; want 30", total, err)
	}

	// The parent's histories are not compared: a child it started is
	// abandoned when its run continues as new, and whether the child's
	// completion comes before that, and is recorded in that run, depends
	// on timing, on any server. A child waits on its timer, then signals
	// the parent, alone: its events come in one order.
	const parent = "sliding-window-embedded-batch"
	var children []string
	for record := range 30 {
		children = append(children, fmt.Sprintf("%s/record-%d", parent, record))
	}
	historycheck.Check(t, c, "testdata/children.json", historycheck.Exact, children...)
}
