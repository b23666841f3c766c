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
// real worker and client over gRPC, against the embedded server, whose
// clock skips the children's one-second sleeps. The parent's and the
// children's histories hold the events they hold on a dev server.
func TestTheExampleRunsOnTheEmbeddedServer(t *testing.T) {
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
	const want = "shipped: [TRK-BOOKS TRK-LAMP TRK-KETTLE]\n"
	if out.String() != want {
		t.Errorf("the example printed\n%s\nwant\n%s", out.String(), want)
	}

	// The children run at once: their outcomes reach the parent in any
	// order, between its workflow tasks or during them.
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/order.json", historycheck.OutcomeEvents, "order-1042")

	// Each child waits on its own timer alone: its events come in one order.
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/parcels.json", historycheck.Exact, "order-1042-parcel-0", "order-1042-parcel-1", "order-1042-parcel-2")
}
