package main

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	updatepb "go.temporal.io/api/update/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
)

// updateFixtures are the fixtures of AccountWorkflow (update_workflows.go),
// each driven by updates sent with the official client.
func updateFixtures() []fixture {
	return []fixture{
		{name: "updatevalue", workflow: AccountWorkflow, args: []any{10}, want: 15,
			drive: sendUpdates(updateCall{id: "deposit-5", name: DepositUpdateName, arg: 5, want: 15}),
			check: updateEvents(false, "deposit-5")},
		{name: "updateerror", workflow: AccountWorkflow, args: []any{10}, want: 10,
			drive: sendUpdates(updateCall{id: "withdraw-25", name: WithdrawUpdateName, arg: 25,
				wantErr: "cannot withdraw 25 from 10", wantType: "InsufficientFunds"}),
			check: updateEvents(false, "withdraw-25")},
		{name: "updaterejected", workflow: AccountWorkflow, args: []any{10}, want: 10,
			drive: sendUpdates(updateCall{id: "deposit-minus-5", name: DepositUpdateName, arg: -5,
				wantErr: "cannot deposit -5: amounts must be positive"}),
			check: updateEvents(false)},
		{name: "updateactivity", workflow: AccountWorkflow, args: []any{0}, want: 0,
			drive: sendUpdates(updateCall{id: "greet", name: GreetUpdateName, arg: "Temporal", want: "Hello, Temporal!"}),
			check: updateEvents(false, "greet")},
		{name: "updatewithstart", workflow: AccountWorkflow, args: []any{100}, want: 101,
			drive: updateWithStart(updateCall{id: "deposit-1", name: DepositUpdateName, arg: 1, want: 101}),
			check: updateEvents(true, "deposit-1")},
		{name: "updatebeforefirsttask", workflow: AccountWorkflow, args: []any{10}, want: 15,
			drive: updateBeforeFirstTask(updateCall{id: "deposit-5", name: DepositUpdateName, arg: 5, want: 15}),
			check: updateEvents(true, "deposit-5")},
		{name: "updatesbeforefirsttask", workflow: AccountWorkflow, args: []any{10}, want: 12,
			drive: updateBeforeFirstTask(
				updateCall{id: "withdraw-3", name: WithdrawUpdateName, arg: 3, want: 12},
				updateCall{id: "greet-early", name: GreetUpdateName, arg: "Early", want: "Hello, Early!"},
				updateCall{id: "deposit-5", name: DepositUpdateName, arg: 5, want: 15}),
			check: updateEvents(true, "deposit-5", "withdraw-3", "greet-early")},
	}
}

// updateCall is an update a fixture sends, and the outcome it must have.
type updateCall struct {
	id, name string
	arg      any
	// want is the result; wantErr, when set, the start of the error's
	// message instead, and wantType its application error type.
	want              any
	wantErr, wantType string
}

// send sends the update to the workflow, waits for its outcome and
// checks it.
func (u updateCall) send(ctx context.Context, c client.Client, workflowID string) error {
	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   workflowID,
		UpdateID:     u.id,
		UpdateName:   u.name,
		Args:         []any{u.arg},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return fmt.Errorf("update %s: %w", u.id, err)
	}
	return u.check(ctx, handle)
}

// check waits for the update's outcome and compares it with the one
// wanted.
func (u updateCall) check(ctx context.Context, handle client.WorkflowUpdateHandle) error {
	if u.wantErr != "" {
		err := handle.Get(ctx, nil)
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || !strings.HasPrefix(appErr.Error(), u.wantErr) || appErr.Type() != u.wantType {
			return fmt.Errorf("update %s: got error %v, want an application error %q of type %q", u.id, err, u.wantErr, u.wantType)
		}
		return nil
	}
	got := reflect.New(reflect.TypeOf(u.want))
	if err := handle.Get(ctx, got.Interface()); err != nil {
		return fmt.Errorf("update %s: %w", u.id, err)
	}
	if !reflect.DeepEqual(got.Elem().Interface(), u.want) {
		return fmt.Errorf("update %s returned %v, want %v", u.id, got.Elem().Interface(), u.want)
	}
	return nil
}

// sendUpdates starts the fixture's workflow, waits until its first
// workflow task completed (so that the updates find it running and
// blocked, not starting: see updateBeforeFirstTask), sends it the updates
// one after the other, each once the previous one completed, and signals it
// to close.
func sendUpdates(calls ...updateCall) driver {
	return func(ctx context.Context, c client.Client, opts client.StartWorkflowOptions, f fixture) (client.WorkflowRun, error) {
		run, err := c.ExecuteWorkflow(ctx, opts, f.workflow, f.args...)
		if err != nil {
			return nil, fmt.Errorf("start: %w", err)
		}
		if err := awaitFirstWorkflowTask(ctx, c, opts.ID, run.GetRunID()); err != nil {
			return nil, err
		}
		for _, u := range calls {
			if err := u.send(ctx, c, opts.ID); err != nil {
				return nil, err
			}
		}
		return run, c.SignalWorkflow(ctx, opts.ID, "", CloseSignalName, nil)
	}
}

// updateWithStart starts the fixture's workflow with UpdateWithStartWorkflow,
// so that the update reaches the workflow with its first workflow task,
// and signals it to close once the update completed.
func updateWithStart(u updateCall) driver {
	return func(ctx context.Context, c client.Client, opts client.StartWorkflowOptions, f fixture) (client.WorkflowRun, error) {
		opts.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL
		start := c.NewWithStartWorkflowOperation(opts, f.workflow, f.args...)
		handle, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
			StartWorkflowOperation: start,
			UpdateOptions: client.UpdateWorkflowOptions{
				UpdateID:     u.id,
				UpdateName:   u.name,
				Args:         []any{u.arg},
				WaitForStage: client.WorkflowUpdateStageCompleted,
			},
		})
		if err != nil {
			return nil, fmt.Errorf("update-with-start %s: %w", u.id, err)
		}
		if err := u.check(ctx, handle); err != nil {
			return nil, err
		}
		run, err := start.Get(ctx)
		if err != nil {
			return nil, err
		}
		return run, c.SignalWorkflow(ctx, opts.ID, run.GetRunID(), CloseSignalName, nil)
	}
}

// updateBeforeFirstTask starts the fixture's workflow on a task queue no
// worker polls yet, sends the updates, each once the server admitted the
// one before, and only then starts a worker on that queue: the updates
// arrive with the workflow's first workflow task, in the order sent.
func updateBeforeFirstTask(calls ...updateCall) driver {
	return func(ctx context.Context, c client.Client, opts client.StartWorkflowOptions, f fixture) (client.WorkflowRun, error) {
		opts.TaskQueue = lateTaskQueue
		run, err := c.ExecuteWorkflow(ctx, opts, f.workflow, f.args...)
		if err != nil {
			return nil, fmt.Errorf("start: %w", err)
		}
		sent := make(chan error, len(calls))
		for _, u := range calls {
			go func() { sent <- u.send(ctx, c, opts.ID) }()
			if err := awaitAdmitted(ctx, c, opts.ID, run.GetRunID(), u.id); err != nil {
				return nil, err
			}
		}
		w := worker.New(c, lateTaskQueue, worker.Options{})
		w.RegisterWorkflow(AccountWorkflow)
		registerActivities(w)
		if err := w.Start(); err != nil {
			return nil, fmt.Errorf("start the worker of %s: %w", lateTaskQueue, err)
		}
		defer w.Stop()
		for range calls {
			if err := <-sent; err != nil {
				return nil, err
			}
		}
		if err := c.SignalWorkflow(ctx, opts.ID, run.GetRunID(), CloseSignalName, nil); err != nil {
			return nil, err
		}
		// Wait for the result here, while the worker of the queue runs.
		return run, run.Get(ctx, nil)
	}
}

// awaitAdmitted waits until the server admitted the update: until then it
// does not know the update's ID. (The server does not let the update call
// itself return at that stage.)
func awaitAdmitted(ctx context.Context, c client.Client, workflowID, runID, updateID string) error {
	for {
		resp, err := c.WorkflowService().PollWorkflowExecutionUpdate(ctx, &workflowservice.PollWorkflowExecutionUpdateRequest{
			Namespace: "default",
			UpdateRef: &updatepb.UpdateRef{
				WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID},
				UpdateId:          updateID,
			},
			WaitPolicy: &updatepb.WaitPolicy{LifecycleStage: enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED},
		})
		var notFound *serviceerror.NotFound
		switch {
		case errors.As(err, &notFound):
			time.Sleep(20 * time.Millisecond)
		case err != nil:
			return fmt.Errorf("poll update %s: %w", updateID, err)
		case resp.GetStage() != enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED:
			return fmt.Errorf("update %s reached stage %v before a worker polled, want admitted", updateID, resp.GetStage())
		default:
			return nil
		}
	}
}

// awaitFirstWorkflowTask waits until the run's history records a completed
// workflow task.
func awaitFirstWorkflowTask(ctx context.Context, c client.Client, workflowID, runID string) error {
	for {
		events, err := fetchHistory(ctx, c, workflowID, runID)
		if err != nil {
			return err
		}
		for _, ev := range events {
			if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lateTaskQueue is the task queue of the updatebeforefirsttask fixtures,
// polled only once their updates are admitted.
const lateTaskQueue = taskQueue + "-late"

// updateEvents wants the history to record the acceptance and completion
// of the updates of ids, in that order, and of no other update; with
// inFirstTask, the first acceptance is among the commands of the
// workflow's first workflow task.
func updateEvents(inFirstTask bool, ids ...string) func(context.Context, client.Client, []*historypb.HistoryEvent) error {
	return func(_ context.Context, _ client.Client, events []*historypb.HistoryEvent) error {
		var accepted, completed []string
		firstTaskCompleted := int64(0)
		for _, ev := range events {
			if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED && firstTaskCompleted == 0 {
				firstTaskCompleted = ev.GetEventId()
			}
			if a := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes(); a != nil {
				if inFirstTask && len(accepted) == 0 && ev.GetEventId() != firstTaskCompleted+1 {
					return fmt.Errorf("update %s accepted at event %d, not by the first workflow task (completed at event %d)",
						a.GetProtocolInstanceId(), ev.GetEventId(), firstTaskCompleted)
				}
				accepted = append(accepted, a.GetProtocolInstanceId())
			}
			if a := ev.GetWorkflowExecutionUpdateCompletedEventAttributes(); a != nil {
				completed = append(completed, a.GetMeta().GetUpdateId())
			}
			if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED ||
				ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED {
				return fmt.Errorf("history has event %d %v", ev.GetEventId(), ev.GetEventType())
			}
		}
		if !slices.Equal(accepted, ids) {
			return fmt.Errorf("history accepts updates %v, want %v", accepted, ids)
		}
		if !slices.Equal(completed, ids) {
			return fmt.Errorf("history completes updates %v, want %v", completed, ids)
		}
		return nil
	}
}
