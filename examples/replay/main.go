// Command replay runs the Onboarding workflow against a Temporal server
// and, with -record, writes the run's history as JSON for the replay test
// to check in:
//
//	temporal server start-dev &    # or TEMPORAL_ADDRESS=host:port
//	go run ./examples/replay -record examples/replay/testdata/onboarding.json
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "replay-example"

func main() {
	record := flag.String("record", "", "write the run's history to this JSON file")
	flag.Parse()
	// An empty address is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	if err := run(context.Background(), os.Getenv("TEMPORAL_ADDRESS"), *record, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		os.Exit(1)
	}
}

// run runs a worker and Onboarding on the server at hostPort, writes
// what it did to out, and with a recordPath, the run's history there.
func run(ctx context.Context, hostPort, recordPath string, out io.Writer) error {
	c, err := client.Dial(client.Options{HostPort: hostPort})
	if err != nil {
		return err
	}
	defer c.Close()

	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(Onboarding)
	w.RegisterActivity(SendEmail)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue},
		Onboarding, Customer{Name: "Ada", FollowUpAfter: 2 * time.Second})
	if err != nil {
		return err
	}
	if err := run.Get(ctx, nil); err != nil {
		return err
	}
	fmt.Fprintln(out, "onboarded Ada in workflow", run.GetID())
	if recordPath == "" {
		return nil
	}
	if err := recordHistory(ctx, c, run, recordPath); err != nil {
		return err
	}
	fmt.Fprintln(out, "history written to", recordPath)
	return nil
}

// recordHistory writes the run's history in the JSON that `temporal
// workflow show --output json` writes and the replayer reads.
func recordHistory(ctx context.Context, c client.Client, run client.WorkflowRun, path string) error {
	history := &historypb.History{}
	events := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for events.HasNext() {
		event, err := events.Next()
		if err != nil {
			return fmt.Errorf("reading the history of %s: %w", run.GetID(), err)
		}
		history.Events = append(history.Events, event)
	}
	data, err := protojson.Marshal(history)
	if err != nil {
		return err
	}
	// protojson varies its spacing on purpose; indent it the same way
	// every time so that a recorded file changes only where the history did.
	var indented bytes.Buffer
	if err := json.Indent(&indented, data, "", "  "); err != nil {
		return err
	}
	indented.WriteByte('\n')
	return os.WriteFile(path, indented.Bytes(), 0o644)
}
