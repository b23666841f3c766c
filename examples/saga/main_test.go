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
// real worker and client over gRPC, against the embedded server: the
// first trip is booked; the second fails at the flight, with the
// activity's non-retryable error.
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
	// The error names the run's IDs, which differ every time.
	want := regexp.MustCompile(`^Ada's trip to Lisbon is booked\n` +
		`Grace's trip to Atlantis was not booked, and was undone: workflow execution error \(type: BookTrip, workflowID: [^,]+, runID: [^)]+\): ` +
		`activity error \(type: ReserveFlight, [^)]+\): reserve flight: no airline flies to Atlantis \(type: NoSuchRoute, retryable: false\)\n$`)
	if !want.MatchString(out.String()) {
		t.Errorf("the example printed\n%s\nwant it to match\n%s", out.String(), want)
	}

	// One activity at a time, and nothing from outside: the events come in
	// one order.
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/histories.json", historycheck.Exact, tripWorkflowID("Ada"), tripWorkflowID("Grace"))
}
