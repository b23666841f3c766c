package main

import (
	"context"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/workflow"
)

// Customer is whom Onboarding welcomes.
type Customer struct {
	Name string
	// FollowUpAfter is how long after the welcome the tips go out.
	FollowUpAfter time.Duration
}

// Onboarding welcomes a customer, waits, and sends tips. Its history from
// a real run is checked in (testdata/onboarding.json) and replayed by the
// tests: a change to this function that would break the runs in flight
// fails the replay in CI, before it reaches a worker.
func Onboarding(ctx workflow.Context, customer Customer) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	if err := workflow.ExecuteActivity(ctx, SendEmail, customer.Name, "welcome").Get(ctx, nil); err != nil {
		return err
	}
	if err := workflow.Sleep(ctx, customer.FollowUpAfter); err != nil {
		return err
	}
	return workflow.ExecuteActivity(ctx, SendEmail, customer.Name, "tips").Get(ctx, nil)
}

// SendEmail stands for a call to a mail service.
func SendEmail(ctx context.Context, to, template string) error {
	activity.GetLogger(ctx).Info("email sent", "to", to, "template", template)
	return nil
}
