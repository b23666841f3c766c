package main

// The workflow of the update fixtures (update*.json). Like workflows.go,
// this file is recorded code: with the import prefix go.temporal.io/sdk
// rewritten to github.com/durable-go/sdk it must compile against this SDK
// and replay the fixtures, so it uses only the API the two share. Keep it
// deterministic; changing it invalidates the update fixtures: re-record them.

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// The updates and the signal of AccountWorkflow.
const (
	// DepositUpdateName adds a positive amount to the balance and returns
	// the new balance; its validator rejects other amounts.
	DepositUpdateName = "deposit"
	// WithdrawUpdateName takes an amount from the balance and returns the
	// new balance, or fails with an application error of type
	// InsufficientFunds (details: the balance) when the balance is short.
	WithdrawUpdateName = "withdraw"
	// GreetUpdateName runs the Greet activity, then sleeps 100ms, and
	// returns the greeting.
	GreetUpdateName = "greet"
	// CloseSignalName makes AccountWorkflow return its balance once no
	// update handler runs.
	CloseSignalName = "close"
)

// AccountWorkflow keeps a balance, starting at opening, that updates
// change, and returns it when signaled to close.
func AccountWorkflow(ctx workflow.Context, opening int) (int, error) {
	balance := opening
	err := workflow.SetUpdateHandlerWithOptions(ctx, DepositUpdateName, func(ctx workflow.Context, amount int) (int, error) {
		balance += amount
		return balance, nil
	}, workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, amount int) error {
		if amount <= 0 {
			return fmt.Errorf("cannot deposit %d: amounts must be positive", amount)
		}
		return nil
	}})
	if err != nil {
		return 0, err
	}
	err = workflow.SetUpdateHandler(ctx, WithdrawUpdateName, func(ctx workflow.Context, amount int) (int, error) {
		if amount > balance {
			return 0, temporal.NewApplicationError(fmt.Sprintf("cannot withdraw %d from %d", amount, balance), "InsufficientFunds", balance)
		}
		balance -= amount
		return balance, nil
	})
	if err != nil {
		return 0, err
	}
	err = workflow.SetUpdateHandler(ctx, GreetUpdateName, func(ctx workflow.Context, name string) (string, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
		var greeting string
		if err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
			return "", err
		}
		if err := workflow.Sleep(ctx, 100*time.Millisecond); err != nil {
			return "", err
		}
		return greeting, nil
	})
	if err != nil {
		return 0, err
	}
	workflow.GetSignalChannel(ctx, CloseSignalName).Receive(ctx, nil)
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return 0, err
	}
	return balance, nil
}
