// Command schedule manages a schedule with client.ScheduleClient: it
// creates one that starts TeamReport every day at 09:00 UTC, describes it,
// triggers it once now, waits for the triggered workflow's report, and
// deletes the schedule. It uses the Temporal server at -address
// (TEMPORAL_ADDRESS by default; empty: localhost:7233, where `temporal
// server start-dev` listens) or, with -embedded, or with neither an
// address nor the temporal CLI on PATH, the embedded server (package
// temporaltest), in the process.
//
//	temporal server start-dev &    # or TEMPORAL_ADDRESS=host:port
//	go run ./examples/schedule
//	go run ./examples/schedule -embedded
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "schedule-example"

func main() {
	address := flag.String("address", os.Getenv("TEMPORAL_ADDRESS"), "host:port of a running Temporal server; empty: localhost:7233")
	embedded := flag.Bool("embedded", false, "run the embedded server in the process instead of using a server (the default when -address is empty and the temporal CLI is not on PATH)")
	flag.Parse()
	if !*embedded && *address == "" {
		_, err := exec.LookPath("temporal")
		*embedded = err != nil
	}
	if err := run(context.Background(), *address, *embedded); err != nil {
		fmt.Fprintln(os.Stderr, "schedule:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, address string, embedded bool) error {
	// An empty HostPort is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	options := client.Options{HostPort: address}
	if embedded {
		server, err := temporaltest.NewServer(temporaltest.ServerOptions{})
		if err != nil {
			return err
		}
		defer server.Stop()
		options = server.ClientOptions()
		fmt.Println("embedded server running at", server.HostPort(), "(in memory; for a real server: -address or TEMPORAL_ADDRESS)")
	}
	c, err := client.Dial(options)
	if err != nil {
		return err
	}
	defer c.Close()

	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(TeamReport)
	w.RegisterActivity(CountOpenTickets)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	schedule, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID: "daily-team-report",
		Spec: client.ScheduleSpec{
			Calendars: []client.ScheduleCalendarSpec{{Hour: []client.ScheduleRange{{Start: 9}}}},
		},
		Action: &client.ScheduleWorkflowAction{
			// Each run's workflow ID is this prefix and the scheduled time.
			ID:        "team-report",
			Workflow:  TeamReport,
			Args:      []any{"platform"},
			TaskQueue: taskQueue,
		},
	})
	if err != nil {
		return err
	}
	// A schedule outlives the program that made it: delete it on the way
	// out, as this is an example.
	defer func() {
		if err := schedule.Delete(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "schedule: deleting the schedule:", err)
		}
	}()

	description, err := schedule.Describe(ctx)
	if err != nil {
		return err
	}
	next := description.Info.NextActionTimes
	fmt.Println("created", schedule.GetID(), "- next runs:", next[:min(3, len(next))])

	if err := schedule.Trigger(ctx, client.ScheduleTriggerOptions{}); err != nil {
		return err
	}
	started, err := waitForAction(ctx, schedule)
	if err != nil {
		return err
	}
	var report string
	if err := c.GetWorkflow(ctx, started.WorkflowID, started.FirstExecutionRunID).Get(ctx, &report); err != nil {
		return err
	}
	fmt.Printf("triggered %s: %s\n", started.WorkflowID, report)
	return nil
}

// waitForAction waits until the schedule has taken an action and returns
// the workflow that action started: Trigger returns before the server
// acts.
func waitForAction(ctx context.Context, schedule client.ScheduleHandle) (*client.ScheduleWorkflowExecution, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		description, err := schedule.Describe(ctx)
		if err != nil {
			return nil, err
		}
		if actions := description.Info.RecentActions; len(actions) > 0 {
			return actions[len(actions)-1].StartWorkflowResult, nil
		}
		select {
		case <-ctx.Done():
			return nil, errors.New("the schedule took no action within 30s of being triggered")
		case <-time.After(200 * time.Millisecond):
		}
	}
}
