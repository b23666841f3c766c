package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// TestTheExampleRecordsAHistoryOnTheEmbeddedServer runs the program as
// `go run ./examples/replay -record FILE` does, a real worker and client
// over gRPC, against the embedded server, whose clock skips the
// follow-up's wait. The history it records replays as the one recorded
// on a dev server does (testdata/onboarding.json): today's code replays
// it, the unversioned change fails it; and it holds the same events.
func TestTheExampleRecordsAHistoryOnTheEmbeddedServer(t *testing.T) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{TimeSkipping: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	recorded := filepath.Join(t.TempDir(), "onboarding.json")
	var out strings.Builder
	if err := run(ctx, srv.HostPort(), recorded, &out); err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^onboarded Ada in workflow [^\n]+\nhistory written to ` + regexp.QuoteMeta(recorded) + `\n$`)
	if !want.MatchString(out.String()) {
		t.Errorf("the example printed\n%s\nwant it to match\n%s", out.String(), want)
	}

	replay := func(fn any) error {
		replayer := worker.NewWorkflowReplayer()
		replayer.RegisterWorkflowWithOptions(fn, workflow.RegisterOptions{Name: "Onboarding"})
		return replayer.ReplayWorkflowHistoryFromJSONFile(nil, recorded)
	}
	if err := replay(Onboarding); err != nil {
		t.Errorf("today's code does not replay the recorded history: %v", err)
	}
	var mismatch *worker.NonDeterminismError
	if err := replay(onboardingWithSurvey); !errors.As(err, &mismatch) {
		t.Errorf("the unversioned change replays with %v, want a NonDeterminismError", err)
	}

	onEmbedded, onDevServer := eventTypes(t, recorded), eventTypes(t, recordedHistory)
	if !slices.Equal(onEmbedded, onDevServer) {
		t.Errorf("the embedded server's history has the events\n%v\nthe dev server's\n%v", onEmbedded, onDevServer)
	}
}

// eventTypes reads a history written as `temporal workflow show --output
// json` writes it and returns its events' types, in order.
func eventTypes(t *testing.T, path string) []enumspb.EventType {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	history, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	var types []enumspb.EventType
	for _, event := range history.GetEvents() {
		types = append(types, event.GetEventType())
	}
	return types
}
