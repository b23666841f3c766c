package compat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/workflow"
)

// The workflows of the typed API's replay tests (typed_test.go): each is
// written with this SDK's typed API (…Typed) and with go.temporal.io/sdk's
// untyped API (…Official), the same calls in the same order.

type typedOrder struct {
	ID    string
	Cents int
}

type typedReceipt struct {
	OrderID string
	Charged int
}

type typedPayment struct {
	Cents int
	By    string
}

func typedGreet(_ context.Context, name string) (string, error) { return "Hello, " + name + "!", nil }
func typedPing(context.Context) (string, error)                 { return "pong", nil }
func typedAdd(_ context.Context, a, b int) (int, error)         { return a + b, nil }
func typedJoin3(_ context.Context, a string, b int, c bool) (string, error) {
	return fmt.Sprint(a, b, c), nil
}
func typedRecord(context.Context, typedOrder) error       { return nil }
func typedTick(context.Context) error                     { return nil }
func typedNote2(context.Context, string, int) error       { return nil }
func typedNote3(context.Context, string, int, bool) error { return nil }
func typedCharge(_ context.Context, o typedOrder) (typedReceipt, error) {
	return typedReceipt{OrderID: o.ID, Charged: o.Cents}, nil
}

var typedActivityFuncs = []any{typedGreet, typedPing, typedAdd, typedJoin3, typedRecord, typedTick, typedNote2, typedNote3, typedCharge}

// Activities of every shape, then as local activities.

func typedActivitiesTyped(ctx workflow.Context, o typedOrder) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Minute})
	var log []any
	keep := func(v any, err error) error { log = append(log, v); return err }
	err := errors.Join(
		keep(typed.ExecuteActivity(ctx, typedGreet, "Ada").Get(ctx)),
		keep(typed.ExecuteActivity0(ctx, typedPing).Get(ctx)),
		keep(typed.ExecuteActivity2(ctx, typedAdd, 1, 2).Get(ctx)),
		keep(typed.ExecuteActivity3(ctx, typedJoin3, "a", 1, true).Get(ctx)),
		keep(typed.ExecuteActivity(ctx, typedCharge, o).Get(ctx)),
		keep(typed.ExecuteActivityNoResult(ctx, typedRecord, o).Get(ctx)),
		keep(typed.ExecuteActivityNoResult0(ctx, typedTick).Get(ctx)),
		keep(typed.ExecuteActivityNoResult2(ctx, typedNote2, "b", 2).Get(ctx)),
		keep(typed.ExecuteActivityNoResult3(ctx, typedNote3, "c", 3, false).Get(ctx)),
		keep(typed.ExecuteLocalActivity(ctx, typedGreet, "Bob").Get(ctx)),
		keep(typed.ExecuteLocalActivity0(ctx, typedPing).Get(ctx)),
		keep(typed.ExecuteLocalActivity2(ctx, typedAdd, 3, 4).Get(ctx)),
		keep(typed.ExecuteLocalActivity3(ctx, typedJoin3, "d", 4, true).Get(ctx)),
		keep(typed.ExecuteLocalActivityNoResult(ctx, typedRecord, o).Get(ctx)),
		keep(typed.ExecuteLocalActivityNoResult0(ctx, typedTick).Get(ctx)),
		keep(typed.ExecuteLocalActivityNoResult2(ctx, typedNote2, "e", 5).Get(ctx)),
		keep(typed.ExecuteLocalActivityNoResult3(ctx, typedNote3, "f", 6, false).Get(ctx)),
	)
	return fmt.Sprintln(log...), err
}

func typedActivitiesOfficial(ctx officialworkflow.Context, o typedOrder) (string, error) {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	ctx = officialworkflow.WithLocalActivityOptions(ctx, officialworkflow.LocalActivityOptions{StartToCloseTimeout: time.Minute})
	get := func(f officialworkflow.Future) error { return f.Get(ctx, nil) }
	return "", errors.Join(
		get(officialworkflow.ExecuteActivity(ctx, typedGreet, "Ada")),
		get(officialworkflow.ExecuteActivity(ctx, typedPing)),
		get(officialworkflow.ExecuteActivity(ctx, typedAdd, 1, 2)),
		get(officialworkflow.ExecuteActivity(ctx, typedJoin3, "a", 1, true)),
		get(officialworkflow.ExecuteActivity(ctx, typedCharge, o)),
		get(officialworkflow.ExecuteActivity(ctx, typedRecord, o)),
		get(officialworkflow.ExecuteActivity(ctx, typedTick)),
		get(officialworkflow.ExecuteActivity(ctx, typedNote2, "b", 2)),
		get(officialworkflow.ExecuteActivity(ctx, typedNote3, "c", 3, false)),
		get(officialworkflow.ExecuteLocalActivity(ctx, typedGreet, "Bob")),
		get(officialworkflow.ExecuteLocalActivity(ctx, typedPing)),
		get(officialworkflow.ExecuteLocalActivity(ctx, typedAdd, 3, 4)),
		get(officialworkflow.ExecuteLocalActivity(ctx, typedJoin3, "d", 4, true)),
		get(officialworkflow.ExecuteLocalActivity(ctx, typedRecord, o)),
		get(officialworkflow.ExecuteLocalActivity(ctx, typedTick)),
		get(officialworkflow.ExecuteLocalActivity(ctx, typedNote2, "e", 5)),
		get(officialworkflow.ExecuteLocalActivity(ctx, typedNote3, "f", 6, false)),
	)
}

// typedActivitiesReordered is typedActivitiesOfficial with two calls
// swapped: the replay tests' control, which must not replay.
func typedActivitiesReordered(ctx officialworkflow.Context, o typedOrder) (string, error) {
	ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	if err := officialworkflow.ExecuteActivity(ctx, typedPing).Get(ctx, nil); err != nil {
		return "", err
	}
	return "", officialworkflow.ExecuteActivity(ctx, typedGreet, "Ada").Get(ctx, nil)
}

// Children of every shape, signaled by the parent.

var typedOrderPaid = typed.NewSignal[typedPayment]("order-paid")

func typedAwaitsPayment(ctx workflow.Context, o typedOrder) (typedReceipt, error) {
	p, _ := typed.GetSignalChannel(ctx, typedOrderPaid).Receive(ctx)
	return typedReceipt{OrderID: o.ID, Charged: p.Cents}, nil
}
func typedChild0(workflow.Context) (string, error)                    { return "zero", nil }
func typedChild2(_ workflow.Context, a string, b int) (string, error) { return fmt.Sprint(a, b), nil }
func typedChild3(_ workflow.Context, a string, b int, c bool) (string, error) {
	return fmt.Sprint(a, b, c), nil
}
func typedChildDone(workflow.Context, string) error { return nil }
func typedChildDone0(workflow.Context) error        { return nil }

var typedChildFuncs = []any{typedAwaitsPayment, typedChild0, typedChild2, typedChild3, typedChildDone, typedChildDone0}

func typedChildrenTyped(ctx workflow.Context, o typedOrder) (string, error) {
	first := typed.ExecuteChildWorkflow(ctx, typedAwaitsPayment, o)
	if _, err := first.GetChildWorkflowExecution().Get(ctx); err != nil {
		return "", err
	}
	if _, err := typed.SignalChildWorkflow(ctx, first, typedOrderPaid, typedPayment{Cents: o.Cents, By: "card"}).Get(ctx); err != nil {
		return "", err
	}
	receipt, err := first.Get(ctx)
	if err != nil {
		return "", err
	}
	second := typed.ExecuteChildWorkflow(ctx, typedAwaitsPayment, typedOrder{ID: "o-2"})
	execution, err := second.GetChildWorkflowExecution().Get(ctx)
	if err != nil {
		return "", err
	}
	if _, err := typed.SignalExternalWorkflow(ctx, execution.ID, "", typedOrderPaid, typedPayment{Cents: 7}).Get(ctx); err != nil {
		return "", err
	}
	var log []any
	keep := func(v any, err error) error { log = append(log, v); return err }
	err = errors.Join(
		keep(second.Get(ctx)),
		keep(typed.ExecuteChildWorkflow0(ctx, typedChild0).Get(ctx)),
		keep(typed.ExecuteChildWorkflow2(ctx, typedChild2, "x", 2).Get(ctx)),
		keep(typed.ExecuteChildWorkflow3(ctx, typedChild3, "y", 3, true).Get(ctx)),
		keep(typed.ExecuteChildWorkflowNoResult(ctx, typedChildDone, "z").Get(ctx)),
		keep(typed.ExecuteChildWorkflowNoResult0(ctx, typedChildDone0).Get(ctx)),
	)
	return fmt.Sprintln(receipt, log), err
}

func typedChildrenOfficial(ctx officialworkflow.Context, o typedOrder) (string, error) {
	first := officialworkflow.ExecuteChildWorkflow(ctx, "typedAwaitsPayment", o)
	if err := first.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	if err := first.SignalChildWorkflow(ctx, "order-paid", typedPayment{Cents: o.Cents, By: "card"}).Get(ctx, nil); err != nil {
		return "", err
	}
	if err := first.Get(ctx, nil); err != nil {
		return "", err
	}
	second := officialworkflow.ExecuteChildWorkflow(ctx, "typedAwaitsPayment", typedOrder{ID: "o-2"})
	var execution officialworkflow.Execution
	if err := second.GetChildWorkflowExecution().Get(ctx, &execution); err != nil {
		return "", err
	}
	if err := officialworkflow.SignalExternalWorkflow(ctx, execution.ID, "", "order-paid", typedPayment{Cents: 7}).Get(ctx, nil); err != nil {
		return "", err
	}
	get := func(f officialworkflow.Future) error { return f.Get(ctx, nil) }
	return "", errors.Join(
		get(second),
		get(officialworkflow.ExecuteChildWorkflow(ctx, "typedChild0")),
		get(officialworkflow.ExecuteChildWorkflow(ctx, "typedChild2", "x", 2)),
		get(officialworkflow.ExecuteChildWorkflow(ctx, "typedChild3", "y", 3, true)),
		get(officialworkflow.ExecuteChildWorkflow(ctx, "typedChildDone", "z")),
		get(officialworkflow.ExecuteChildWorkflow(ctx, "typedChildDone0")),
	)
}

// Signals, a selector, a typed channel between coroutines, Go, side
// effects.

var typedCancel = typed.NewSignal[typed.None]("cancel-order")

func typedSignalsTyped(ctx workflow.Context) (string, error) {
	paid := typed.GetSignalChannel(ctx, typedOrderPaid)
	canceled := typed.GetSignalChannel(ctx, typedCancel)
	var log []string
	p, _ := paid.Receive(ctx)
	log = append(log, fmt.Sprint(p))
	if _, ok, _ := paid.ReceiveWithTimeout(ctx, time.Minute); ok {
		return "", errors.New("a second payment")
	}
	selector := workflow.NewSelector(ctx)
	typed.AddReceive(selector, canceled, func(ch typed.ReceiveChannel[typed.None], _ bool) {
		ch.ReceiveAsync()
		log = append(log, "canceled")
	})
	selector.Select(ctx)
	token, err := typed.SideEffect(ctx, func(workflow.Context) string { return "token" })
	if err != nil {
		return "", err
	}
	limit, err := typed.MutableSideEffect(ctx, "limit", func(workflow.Context) int { return 10 }, func(a, b int) bool { return a == b })
	if err != nil {
		return "", err
	}
	ch := typed.NewBufferedChannel[int](ctx, 1)
	done := typed.Go(ctx, func(ctx workflow.Context) (int, error) {
		ch.Send(ctx, limit)
		return 1, workflow.Sleep(ctx, time.Minute)
	})
	v, _ := ch.Receive(ctx)
	n, err := done.Get(ctx)
	log = append(log, token, fmt.Sprint(v, n))
	return strings.Join(log, " "), err
}

func typedSignalsOfficial(ctx officialworkflow.Context) (string, error) {
	paid := officialworkflow.GetSignalChannel(ctx, "order-paid")
	canceled := officialworkflow.GetSignalChannel(ctx, "cancel-order")
	var p typedPayment
	paid.Receive(ctx, &p)
	if ok, _ := paid.ReceiveWithTimeout(ctx, time.Minute, &p); ok {
		return "", errors.New("a second payment")
	}
	selector := officialworkflow.NewSelector(ctx)
	selector.AddReceive(canceled, func(ch officialworkflow.ReceiveChannel, _ bool) { ch.ReceiveAsync(nil) })
	selector.Select(ctx)
	var token string
	if err := officialworkflow.SideEffect(ctx, func(officialworkflow.Context) any { return "token" }).Get(&token); err != nil {
		return "", err
	}
	var limit int
	if err := officialworkflow.MutableSideEffect(ctx, "limit", func(officialworkflow.Context) any { return 10 },
		func(a, b any) bool { return a.(int) == b.(int) }).Get(&limit); err != nil {
		return "", err
	}
	ch := officialworkflow.NewBufferedChannel(ctx, 1)
	done, settable := officialworkflow.NewFuture(ctx)
	officialworkflow.Go(ctx, func(ctx officialworkflow.Context) {
		ch.Send(ctx, limit)
		settable.Set(1, officialworkflow.Sleep(ctx, time.Minute))
	})
	ch.Receive(ctx, nil)
	return "", done.Get(ctx, nil)
}

// Updates (one with a validator, one without a result) and queries.

var (
	typedAddItem   = typed.NewUpdate[string, int]("add-item")
	typedClear     = typed.NewUpdate[string, typed.None]("clear-cart")
	typedItemCount = typed.NewQuery0[int]("item-count")
	typedCheckout  = typed.NewSignal[typed.None]("checkout")
)

func typedCartTyped(ctx workflow.Context) ([]string, error) {
	var items []string
	if err := typed.SetQueryHandler0(ctx, typedItemCount, func() (int, error) { return len(items), nil }); err != nil {
		return nil, err
	}
	err := typed.SetUpdateHandlerWithOptions(ctx, typedAddItem, func(ctx workflow.Context, item string) (int, error) {
		items = append(items, item)
		return len(items), nil
	}, typed.UpdateHandlerOptions[string]{Validator: func(ctx workflow.Context, item string) error {
		if item == "" {
			return errors.New("an item needs a name")
		}
		return nil
	}})
	if err != nil {
		return nil, err
	}
	err = typed.SetUpdateHandler(ctx, typedClear, func(ctx workflow.Context, _ string) (typed.None, error) {
		items = nil
		return typed.None{}, workflow.Sleep(ctx, time.Second)
	})
	if err != nil {
		return nil, err
	}
	typed.GetSignalChannel(ctx, typedCheckout).Receive(ctx)
	return items, nil
}

func typedCartOfficial(ctx officialworkflow.Context) ([]string, error) {
	var items []string
	if err := officialworkflow.SetQueryHandler(ctx, "item-count", func() (int, error) { return len(items), nil }); err != nil {
		return nil, err
	}
	err := officialworkflow.SetUpdateHandlerWithOptions(ctx, "add-item", func(ctx officialworkflow.Context, item string) (int, error) {
		items = append(items, item)
		return len(items), nil
	}, officialworkflow.UpdateHandlerOptions{Validator: func(ctx officialworkflow.Context, item string) error {
		if item == "" {
			return errors.New("an item needs a name")
		}
		return nil
	}})
	if err != nil {
		return nil, err
	}
	err = officialworkflow.SetUpdateHandler(ctx, "clear-cart", func(ctx officialworkflow.Context, _ string) error {
		items = nil
		return officialworkflow.Sleep(ctx, time.Second)
	})
	if err != nil {
		return nil, err
	}
	officialworkflow.GetSignalChannel(ctx, "checkout").Receive(ctx, nil)
	return items, nil
}

// Children mocked with typedtest.OnWorkflow, then continue-as-new. The
// next run ends at once (the test environment may start it before the
// test ends).

func typedContinueTyped(ctx workflow.Context, o typedOrder) (string, error) {
	if strings.HasSuffix(o.ID, "-next") {
		return "done", nil
	}
	receipt, err := typed.ExecuteChildWorkflow(ctx, typedAwaitsPayment, o).Get(ctx)
	if err != nil {
		return "", err
	}
	if _, err := typed.ExecuteChildWorkflow2(ctx, typedChild2, "x", receipt.Charged).Get(ctx); err != nil {
		return "", err
	}
	return "", typed.NewContinueAsNewError(ctx, typedContinueTyped, typedOrder{ID: o.ID + "-next", Cents: receipt.Charged})
}

func typedContinueOfficial(ctx officialworkflow.Context, o typedOrder) (string, error) {
	if strings.HasSuffix(o.ID, "-next") {
		return "done", nil
	}
	var receipt typedReceipt
	if err := officialworkflow.ExecuteChildWorkflow(ctx, "typedAwaitsPayment", o).Get(ctx, &receipt); err != nil {
		return "", err
	}
	if err := officialworkflow.ExecuteChildWorkflow(ctx, "typedChild2", "x", receipt.Charged).Get(ctx, nil); err != nil {
		return "", err
	}
	return "", officialworkflow.NewContinueAsNewError(ctx, typedContinueOfficial, typedOrder{ID: o.ID + "-next", Cents: receipt.Charged})
}
