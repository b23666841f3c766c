package main

import (
	"context"
	"fmt"
	"time"

	"github.com/durable-go/sdk/workflow"
)

// TeamReport is the workflow the schedule starts: it counts a team's open
// tickets and reports them.
func TeamReport(ctx workflow.Context, team string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var open int
	if err := workflow.ExecuteActivity(ctx, CountOpenTickets, team).Get(ctx, &open); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s has %d open tickets", team, open), nil
}

// CountOpenTickets stands for a call to a ticket tracker.
func CountOpenTickets(ctx context.Context, team string) (int, error) {
	return len(team), nil
}
