package main

import (
	"context"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// SignUp registers a user. Its steps are short and need no queue of their
// own, so they run as local activities: in the worker that runs the
// workflow, in the same workflow task, with only their result recorded
// in history (as a marker). That saves the two round trips to the server
// a regular activity costs; the price is that a local activity longer
// than the workflow task timeout (10 s by default) needs several tasks and
// heartbeats nothing.
func SignUp(ctx workflow.Context, email string) (string, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 5 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
	})
	var normalized string
	if err := workflow.ExecuteLocalActivity(ctx, NormalizeEmail, email).Get(ctx, &normalized); err != nil {
		return "", err
	}
	var userID string
	if err := workflow.ExecuteLocalActivity(ctx, CreateUser, normalized).Get(ctx, &userID); err != nil {
		return "", err
	}
	return userID, nil
}

// NormalizeEmail checks an address and returns it in lower case. A bad
// address fails without retries: another attempt would not fix it.
func NormalizeEmail(ctx context.Context, email string) (string, error) {
	address, err := mail.ParseAddress(email)
	if err != nil {
		return "", temporal.NewNonRetryableApplicationError(fmt.Sprintf("sign up %q: %v", email, err), "InvalidEmail", nil)
	}
	return strings.ToLower(address.Address), nil
}

// CreateUser stands for a quick call to a user database.
func CreateUser(ctx context.Context, email string) (string, error) {
	return "user-" + strings.SplitN(email, "@", 2)[0], nil
}
