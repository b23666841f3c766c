package worker_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The update fixtures (update*.json, recorded by go.temporal.io/sdk from
// AccountWorkflow) replayed against changed code: what must still replay,
// and what must be reported as non-determinism.

// accountVariant is AccountWorkflow with its handlers replaced by the
// given ones (nil: not set), made for the run's balance; the signal and
// the ending are the same.
func accountVariant(deposit, greet func(balance *int) any, depositOptions workflow.UpdateHandlerOptions) func(workflow.Context, int) (int, error) {
	return func(ctx workflow.Context, opening int) (int, error) {
		balance := opening
		if deposit != nil {
			if err := workflow.SetUpdateHandlerWithOptions(ctx, DepositUpdateName, deposit(&balance), depositOptions); err != nil {
				return 0, err
			}
		}
		if greet != nil {
			if err := workflow.SetUpdateHandler(ctx, GreetUpdateName, greet(&balance)); err != nil {
				return 0, err
			}
		}
		workflow.GetSignalChannel(ctx, CloseSignalName).Receive(ctx, nil)
		if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
			return 0, err
		}
		return balance, nil
	}
}

func deposit(balance *int) any {
	return func(ctx workflow.Context, amount int) (int, error) {
		*balance += amount
		return *balance, nil
	}
}

func depositAfterAnActivity(balance *int) any {
	return func(ctx workflow.Context, amount int) (int, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
		if err := workflow.ExecuteActivity(ctx, Greet, "audit").Get(ctx, nil); err != nil {
			return 0, err
		}
		*balance += amount
		return *balance, nil
	}
}

func greetWithoutTheActivity(*int) any {
	return func(ctx workflow.Context, name string) (string, error) {
		if err := workflow.Sleep(ctx, 100*time.Millisecond); err != nil {
			return "", err
		}
		return "Hello, " + name + "!", nil
	}
}

func greetWithoutTheTimer(*int) any {
	return func(ctx workflow.Context, name string) (string, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
		var greeting string
		err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting)
		return greeting, err
	}
}

// accountWithHandlersReversed is AccountWorkflow setting its handlers in
// the reverse order: updates that arrive before the handlers run in
// another order.
func accountWithHandlersReversed(ctx workflow.Context, opening int) (int, error) {
	balance := opening
	if err := workflow.SetUpdateHandler(ctx, GreetUpdateName, greetWithoutTheTimer(&balance)); err != nil {
		return 0, err
	}
	err := workflow.SetUpdateHandler(ctx, WithdrawUpdateName, func(ctx workflow.Context, amount int) (int, error) {
		balance -= amount
		return balance, nil
	})
	if err != nil {
		return 0, err
	}
	if err := workflow.SetUpdateHandler(ctx, DepositUpdateName, deposit(&balance)); err != nil {
		return 0, err
	}
	workflow.GetSignalChannel(ctx, CloseSignalName).Receive(ctx, nil)
	return balance, nil
}

func refuseAll(int) error { return errors.New("deposits are closed") }

// TestReplayOfUpdatesAgainstChangedCode checks which changes to update
// handlers the update fixtures tolerate: a validator is not run in replay
// (as in go.temporal.io/sdk, so that it may change between versions),
// while a handler that makes other commands, or is gone, is
// non-determinism.
func TestReplayOfUpdatesAgainstChangedCode(t *testing.T) {
	cases := []struct {
		name    string
		file    string
		wf      any
		want    int      // the workflow's result, when the replay succeeds
		wantErr []string // what the non-determinism error says
	}{
		{name: "validator now rejects everything", file: "updatevalue.json",
			wf: accountVariant(deposit, nil, workflow.UpdateHandlerOptions{Validator: refuseAll}), want: 15},
		{name: "validator now rejects everything, update before the first task", file: "updatebeforefirsttask.json",
			wf: accountVariant(deposit, nil, workflow.UpdateHandlerOptions{Validator: refuseAll}), want: 15},
		{name: "validator now rejects everything, update-with-start", file: "updatewithstart.json",
			wf: accountVariant(deposit, nil, workflow.UpdateHandlerOptions{Validator: refuseAll}), want: 101},
		{name: "handler now runs an activity", file: "updatevalue.json",
			wf:      accountVariant(depositAfterAnActivity, nil, workflow.UpdateHandlerOptions{}),
			wantErr: []string{"WorkflowExecutionUpdateCompleted", "ScheduleActivityTask"}},
		{name: "handler gone", file: "updatevalue.json",
			wf:      accountVariant(nil, greetWithoutTheTimer, workflow.UpdateHandlerOptions{}),
			wantErr: []string{"WorkflowExecutionUpdateAccepted"}},
		{name: "handler gone, update before the first task", file: "updatebeforefirsttask.json",
			wf:      accountVariant(nil, greetWithoutTheTimer, workflow.UpdateHandlerOptions{}),
			wantErr: []string{"WorkflowExecutionUpdateAccepted"}},
		{name: "handler's activity removed", file: "updateactivity.json",
			wf:      accountVariant(deposit, greetWithoutTheActivity, workflow.UpdateHandlerOptions{}),
			wantErr: []string{"ActivityTaskScheduled", "StartTimer"}},
		{name: "handlers set in another order, updates before the first task", file: "updatesbeforefirsttask.json",
			wf:      accountWithHandlersReversed,
			wantErr: []string{"event 5 WorkflowExecutionUpdateAccepted (update \"deposit-5\")", "ProtocolMessage (message \"greet-early/accept\")"}},
		{name: "handler's timer removed", file: "updateactivity.json",
			wf:      accountVariant(deposit, greetWithoutTheTimer, workflow.UpdateHandlerOptions{}),
			wantErr: []string{"TimerStarted"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(c.wf, workflow.RegisterOptions{Name: "AccountWorkflow"})
			res, err := r.ReplayWorkflowHistoryWithResult(nil, readHistory(t, c.file), worker.ReplayWorkflowHistoryOptions{})
			if c.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				var got int
				if err := res.GetWorkflowResult(&got); err != nil || got != c.want {
					t.Fatalf("result %d, %v; want %d", got, err, c.want)
				}
				return
			}
			var nde *worker.NonDeterminismError
			if !errors.As(err, &nde) {
				t.Fatalf("want a NonDeterminismError, got %T: %v", err, err)
			}
			t.Log(err)
			for _, w := range c.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q", w)
				}
			}
		})
	}
}
