package compat

// The workflows of TestEventGroupsWriteTheSameHistoryOnBothSDKs: one
// source, spelled once for each SDK (TestEventGroupsWorkflowsAreOneSource
// checks that the two spellings differ only in the SDK they name).

import (
	"fmt"
	"time"

	ours "github.com/durable-go/sdk/workflow"
	official "go.temporal.io/sdk/workflow"
)

// EventGroupsWorkflowOurs makes a command of each kind that carries event
// groups, in two rounds: the first answers an update (its handler's timer
// is in the update's group) and continues as new in a group of its own.
func EventGroupsWorkflowOurs(ctx ours.Context, round int) (string, error) {
	// The official worker visits the payloads of a task's commands in
	// parallel, and a group's label payload is shared by the commands of
	// one call (a timer and its cancel, a version marker and its upsert),
	// which its race detector reports: those calls get a group without a
	// label.
	order := ours.NewEventGroup("order")
	audit := ours.NewEventGroupWithOptions("audit", ours.EventGroupOptions{Label: "checked"})
	// "order" again, with a label: the context's group of that ID wins.
	own := []ours.EventGroup{audit, ours.NewEventGroupWithOptions("order", ours.EventGroupOptions{Label: "dropped"})}
	plain := []ours.EventGroup{ours.NewEventGroup("plain")}
	napped := false
	if err := ours.SetUpdateHandler(ctx, "nap", func(ctx ours.Context) error {
		err := ours.Sleep(ctx, time.Millisecond)
		napped = true
		return err
	}); err != nil {
		return "", err
	}
	if round == 0 {
		if err := ours.Await(ctx, func() bool { return napped }); err != nil {
			return "", err
		}
	}
	ctx = ours.WithEventGroups(ctx, order)
	ctx = ours.WithActivityOptions(ctx, ours.ActivityOptions{StartToCloseTimeout: time.Minute, EventGroups: own})
	ctx = ours.WithLocalActivityOptions(ctx, ours.LocalActivityOptions{StartToCloseTimeout: time.Minute, EventGroups: own})
	var greeting, shout string
	if err := ours.ExecuteActivity(ctx, Greet, "groups").Get(ctx, &greeting); err != nil {
		return "", err
	}
	if err := ours.ExecuteLocalActivity(ctx, Shout, greeting).Get(ctx, &shout); err != nil {
		return "", err
	}
	if round > 0 {
		return shout, ours.Sleep(ctx, time.Millisecond)
	}
	timerCtx, cancel := ours.WithCancel(ctx)
	timer := ours.NewTimerWithOptions(timerCtx, time.Hour, ours.TimerOptions{EventGroups: plain})
	cancel()
	timerErr := timer.Get(ctx, nil)
	var n, m int
	if err := ours.SideEffectWithOptions(ctx, ours.SideEffectOptions{EventGroups: own}, func(ours.Context) any { return 7 }).Get(&n); err != nil {
		return "", err
	}
	if err := ours.MutableSideEffectWithOptions(ctx, "m", ours.MutableSideEffectOptions{EventGroups: own},
		func(ours.Context) any { return 3 }, func(a, b any) bool { return a == b }).Get(&m); err != nil {
		return "", err
	}
	v := ours.GetVersionWithOptions(ctx, "grouped-change", ours.DefaultVersion, 1, ours.GetVersionOptions{EventGroups: plain})
	if err := ours.UpsertMemoWithOptions(ctx, map[string]any{"step": "grouped"}, ours.UpsertMemoOptions{EventGroups: own}); err != nil {
		return "", err
	}
	childID := ours.GetInfo(ctx).TaskQueueName + "-child"
	child := ours.ExecuteChildWorkflow(ours.WithChildOptions(ctx, ours.ChildWorkflowOptions{WorkflowID: childID, EventGroups: own}), "EventGroupsChildWorkflow")
	if err := child.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	if err := child.SignalChildWorkflowWithOptions(ctx, "ping", "child", ours.SignalChildWorkflowOptions{EventGroups: own}).Get(ctx, nil); err != nil {
		return "", err
	}
	if err := ours.SignalExternalWorkflowWithOptions(ctx, childID, "", "ping", "external", ours.SignalExternalWorkflowOptions{EventGroups: own}).Get(ctx, nil); err != nil {
		return "", err
	}
	if err := ours.RequestCancelExternalWorkflowWithOptions(ctx, childID, "", ours.CancelExternalWorkflowOptions{EventGroups: own}).Get(ctx, nil); err != nil {
		return "", err
	}
	childErr := child.Get(ctx, nil)
	if timerErr == nil || childErr == nil || n != 7 || m != 3 || v != 1 {
		return "", fmt.Errorf("timer %v, child %v, side effects %d %d, version %d", timerErr, childErr, n, m, v)
	}
	next := ours.NewEventGroup("next round")
	return "", ours.NewContinueAsNewErrorWithOptions(ctx, ours.ContinueAsNewErrorOptions{EventGroups: []ours.EventGroup{next}}, "EventGroupsWorkflow", round+1)
}

// EventGroupsChildWorkflowOurs takes two signals, then waits to be canceled.
func EventGroupsChildWorkflowOurs(ctx ours.Context) error {
	ch := ours.GetSignalChannel(ctx, "ping")
	var s string
	ch.Receive(ctx, &s)
	ch.Receive(ctx, &s)
	return ours.Await(ctx, func() bool { return false })
}

// EventGroupsWorkflowOfficial makes a command of each kind that carries event
// groups, in two rounds: the first answers an update (its handler's timer
// is in the update's group) and continues as new in a group of its own.
func EventGroupsWorkflowOfficial(ctx official.Context, round int) (string, error) {
	// The official worker visits the payloads of a task's commands in
	// parallel, and a group's label payload is shared by the commands of
	// one call (a timer and its cancel, a version marker and its upsert),
	// which its race detector reports: those calls get a group without a
	// label.
	order := official.NewEventGroup("order")
	audit := official.NewEventGroupWithOptions("audit", official.EventGroupOptions{Label: "checked"})
	// "order" again, with a label: the context's group of that ID wins.
	own := []official.EventGroup{audit, official.NewEventGroupWithOptions("order", official.EventGroupOptions{Label: "dropped"})}
	plain := []official.EventGroup{official.NewEventGroup("plain")}
	napped := false
	if err := official.SetUpdateHandler(ctx, "nap", func(ctx official.Context) error {
		err := official.Sleep(ctx, time.Millisecond)
		napped = true
		return err
	}); err != nil {
		return "", err
	}
	if round == 0 {
		if err := official.Await(ctx, func() bool { return napped }); err != nil {
			return "", err
		}
	}
	ctx = official.WithEventGroups(ctx, order)
	ctx = official.WithActivityOptions(ctx, official.ActivityOptions{StartToCloseTimeout: time.Minute, EventGroups: own})
	ctx = official.WithLocalActivityOptions(ctx, official.LocalActivityOptions{StartToCloseTimeout: time.Minute, EventGroups: own})
	var greeting, shout string
	if err := official.ExecuteActivity(ctx, Greet, "groups").Get(ctx, &greeting); err != nil {
		return "", err
	}
	if err := official.ExecuteLocalActivity(ctx, Shout, greeting).Get(ctx, &shout); err != nil {
		return "", err
	}
	if round > 0 {
		return shout, official.Sleep(ctx, time.Millisecond)
	}
	timerCtx, cancel := official.WithCancel(ctx)
	timer := official.NewTimerWithOptions(timerCtx, time.Hour, official.TimerOptions{EventGroups: plain})
	cancel()
	timerErr := timer.Get(ctx, nil)
	var n, m int
	if err := official.SideEffectWithOptions(ctx, official.SideEffectOptions{EventGroups: own}, func(official.Context) any { return 7 }).Get(&n); err != nil {
		return "", err
	}
	if err := official.MutableSideEffectWithOptions(ctx, "m", official.MutableSideEffectOptions{EventGroups: own},
		func(official.Context) any { return 3 }, func(a, b any) bool { return a == b }).Get(&m); err != nil {
		return "", err
	}
	v := official.GetVersionWithOptions(ctx, "grouped-change", official.DefaultVersion, 1, official.GetVersionOptions{EventGroups: plain})
	if err := official.UpsertMemoWithOptions(ctx, map[string]any{"step": "grouped"}, official.UpsertMemoOptions{EventGroups: own}); err != nil {
		return "", err
	}
	childID := official.GetInfo(ctx).TaskQueueName + "-child"
	child := official.ExecuteChildWorkflow(official.WithChildOptions(ctx, official.ChildWorkflowOptions{WorkflowID: childID, EventGroups: own}), "EventGroupsChildWorkflow")
	if err := child.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	if err := child.SignalChildWorkflowWithOptions(ctx, "ping", "child", official.SignalChildWorkflowOptions{EventGroups: own}).Get(ctx, nil); err != nil {
		return "", err
	}
	if err := official.SignalExternalWorkflowWithOptions(ctx, childID, "", "ping", "external", official.SignalExternalWorkflowOptions{EventGroups: own}).Get(ctx, nil); err != nil {
		return "", err
	}
	if err := official.RequestCancelExternalWorkflowWithOptions(ctx, childID, "", official.CancelExternalWorkflowOptions{EventGroups: own}).Get(ctx, nil); err != nil {
		return "", err
	}
	childErr := child.Get(ctx, nil)
	if timerErr == nil || childErr == nil || n != 7 || m != 3 || v != 1 {
		return "", fmt.Errorf("timer %v, child %v, side effects %d %d, version %d", timerErr, childErr, n, m, v)
	}
	next := official.NewEventGroup("next round")
	return "", official.NewContinueAsNewErrorWithOptions(ctx, official.ContinueAsNewErrorOptions{EventGroups: []official.EventGroup{next}}, "EventGroupsWorkflow", round+1)
}

// EventGroupsChildWorkflowOfficial takes two signals, then waits to be canceled.
func EventGroupsChildWorkflowOfficial(ctx official.Context) error {
	ch := official.GetSignalChannel(ctx, "ping")
	var s string
	ch.Receive(ctx, &s)
	ch.Receive(ctx, &s)
	return official.Await(ctx, func() bool { return false })
}
