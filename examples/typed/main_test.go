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
// typed calls reach it as the untyped ones do.
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
	const want = "hello: Hello, Temporal!\n" +
		"add {SKU:mug Cents:1200}: total 1200 cents\n" +
		"add {SKU: Cents:100}: rejected: item {SKU: Cents:100} needs a SKU and a price\n" +
		"add {SKU:tea Cents:850}: total 2050 cents\n" +
		"status: {Items:2 TotalCents:2050 Paid:false}\n" +
		"receipt: {OrderID:A-1001 ChargeID:ch_4242_2050 Cents:2050 Tracking:TRK-A-1001-2}\n"
	if out.String() != want {
		t.Errorf("the example printed\n%s\nwant\n%s", out.String(), want)
	}

	// The greeting runs one activity, with nothing from outside: its events
	// come in one order.
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/greeting.json", historycheck.Exact, greetingWorkflowID)

	// The order's updates and signal come from the client as it runs: how
	// they fall among its workflow tasks differs from run to run.
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/order.json", historycheck.OutcomeEvents, orderWorkflowID)
}
