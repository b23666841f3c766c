package updates

// The workflow of the update fixtures (testdata/histories/update*.json),
// written once against each SDK (generated from
// tools/recordhistories/update_workflows.go by renaming the workflow;
// regenerate with go test -run TestAccountWorkflowsAreTheRecordedCode
// -update .), so that histories written by one SDK can be replayed by the
// other and workers of both can share a task queue.

import (
	"fmt"
	"time"

	ourstemporal "github.com/durable-go/sdk/temporal"
	ours "github.com/durable-go/sdk/workflow"
	officialtemporal "go.temporal.io/sdk/temporal"
	official "go.temporal.io/sdk/workflow"
)

// The updates and the signal of AccountWorkflowOfficial.
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
	// CloseSignalName makes AccountWorkflowOfficial return its balance once no
	// update handler runs.
	CloseSignalName = "close"
)

// AccountWorkflowOfficial keeps a balance, starting at opening, that updates
// change, and returns it when signaled to close.
func AccountWorkflowOfficial(ctx official.Context, opening int) (int, error) {
	balance := opening
	err := official.SetUpdateHandlerWithOptions(ctx, DepositUpdateName, func(ctx official.Context, amount int) (int, error) {
		balance += amount
		return balance, nil
	}, official.UpdateHandlerOptions{Validator: func(ctx official.Context, amount int) error {
		if amount <= 0 {
			return fmt.Errorf("cannot deposit %d: amounts must be positive", amount)
		}
		return nil
	}})
	if err != nil {
		return 0, err
	}
	err = official.SetUpdateHandler(ctx, WithdrawUpdateName, func(ctx official.Context, amount int) (int, error) {
		if amount > balance {
			return 0, officialtemporal.NewApplicationError(fmt.Sprintf("cannot withdraw %d from %d", amount, balance), "InsufficientFunds", balance)
		}
		balance -= amount
		return balance, nil
	})
	if err != nil {
		return 0, err
	}
	err = official.SetUpdateHandler(ctx, GreetUpdateName, func(ctx official.Context, name string) (string, error) {
		ctx = official.WithActivityOptions(ctx, official.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
		var greeting string
		if err := official.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
			return "", err
		}
		if err := official.Sleep(ctx, 100*time.Millisecond); err != nil {
			return "", err
		}
		return greeting, nil
	})
	if err != nil {
		return 0, err
	}
	official.GetSignalChannel(ctx, CloseSignalName).Receive(ctx, nil)
	if err := official.Await(ctx, func() bool { return official.AllHandlersFinished(ctx) }); err != nil {
		return 0, err
	}
	return balance, nil
}

// AccountWorkflowOurs keeps a balance, starting at opening, that updates
// change, and returns it when signaled to close.
func AccountWorkflowOurs(ctx ours.Context, opening int) (int, error) {
	balance := opening
	err := ours.SetUpdateHandlerWithOptions(ctx, DepositUpdateName, func(ctx ours.Context, amount int) (int, error) {
		balance += amount
		return balance, nil
	}, ours.UpdateHandlerOptions{Validator: func(ctx ours.Context, amount int) error {
		if amount <= 0 {
			return fmt.Errorf("cannot deposit %d: amounts must be positive", amount)
		}
		return nil
	}})
	if err != nil {
		return 0, err
	}
	err = ours.SetUpdateHandler(ctx, WithdrawUpdateName, func(ctx ours.Context, amount int) (int, error) {
		if amount > balance {
			return 0, ourstemporal.NewApplicationError(fmt.Sprintf("cannot withdraw %d from %d", amount, balance), "InsufficientFunds", balance)
		}
		balance -= amount
		return balance, nil
	})
	if err != nil {
		return 0, err
	}
	err = ours.SetUpdateHandler(ctx, GreetUpdateName, func(ctx ours.Context, name string) (string, error) {
		ctx = ours.WithActivityOptions(ctx, ours.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
		var greeting string
		if err := ours.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
			return "", err
		}
		if err := ours.Sleep(ctx, 100*time.Millisecond); err != nil {
			return "", err
		}
		return greeting, nil
	})
	if err != nil {
		return 0, err
	}
	ours.GetSignalChannel(ctx, CloseSignalName).Receive(ctx, nil)
	if err := ours.Await(ctx, func() bool { return ours.AllHandlersFinished(ctx) }); err != nil {
		return 0, err
	}
	return balance, nil
}
