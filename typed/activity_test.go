package typed_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/workflow"
)

// collect appends a future's value to out, or returns its error.
func collect[R any](ctx workflow.Context, f typed.Future[R], out *[]any) error {
	v, err := f.Get(ctx)
	if err != nil {
		return err
	}
	*out = append(*out, v)
	return nil
}

// activitiesTyped calls an activity of every shape, then the same as
// local activities, then one that fails, with the typed API.
func activitiesTyped(ctx workflow.Context, order Order) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	ctx = workflow.WithLocalActivityOptions(ctx, localActivityOptions)
	var acts *Activities
	var got []any
	for _, err := range []error{
		collect(ctx, typed.ExecuteActivity(ctx, greet, order.Customer), &got),
		collect(ctx, typed.ExecuteActivity0(ctx, ping), &got),
		collect(ctx, typed.ExecuteActivity2(ctx, add, 2, 3), &got),
		collect(ctx, typed.ExecuteActivity3(ctx, join3, "a", 1, true), &got),
		collect(ctx, typed.ExecuteActivity(ctx, acts.Charge, order), &got),
		collect(ctx, typed.ExecuteActivityNoResult(ctx, record, order), &got),
		collect(ctx, typed.ExecuteActivityNoResult0(ctx, tick), &got),
		collect(ctx, typed.ExecuteActivityNoResult2(ctx, note2, "b", 2), &got),
		collect(ctx, typed.ExecuteActivityNoResult3(ctx, note3, "c", 3, false), &got),
		collect(ctx, typed.ExecuteLocalActivity(ctx, greet, order.Customer), &got),
		collect(ctx, typed.ExecuteLocalActivity0(ctx, ping), &got),
		collect(ctx, typed.ExecuteLocalActivity2(ctx, add, 4, 5), &got),
		collect(ctx, typed.ExecuteLocalActivity3(ctx, join3, "d", 4, true), &got),
		collect(ctx, typed.ExecuteLocalActivity(ctx, acts.Charge, order), &got),
		collect(ctx, typed.ExecuteLocalActivityNoResult(ctx, record, order), &got),
		collect(ctx, typed.ExecuteLocalActivityNoResult0(ctx, tick), &got),
		collect(ctx, typed.ExecuteLocalActivityNoResult2(ctx, note2, "e", 5), &got),
		collect(ctx, typed.ExecuteLocalActivityNoResult3(ctx, note3, "f", 6, false), &got),
	} {
		if err != nil {
			return "", err
		}
	}
	noRetries := workflow.WithRetryPolicy(ctx, temporal.RetryPolicy{MaximumAttempts: 1})
	_, err := typed.ExecuteActivity(noRetries, refuse, "out of stock").Get(ctx)
	var activityErr *temporal.ActivityError
	if !errors.As(err, &activityErr) {
		return "", fmt.Errorf("want an ActivityError, got %v", err)
	}
	return fmt.Sprintln(got...) + "/ " + err.Error(), nil
}

// activitiesUntyped is activitiesTyped with the untyped API.
func activitiesUntyped(ctx workflow.Context, order Order) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	ctx = workflow.WithLocalActivityOptions(ctx, localActivityOptions)
	var acts *Activities
	var got []any
	get := func(f workflow.Future, valuePtr any) error {
		if err := f.Get(ctx, valuePtr); err != nil {
			return err
		}
		if valuePtr == nil {
			got = append(got, typed.None{})
		} else {
			got = append(got, deref(valuePtr))
		}
		return nil
	}
	var s1, s2, s3, s4, s5, s6 string
	var n1, n2 int
	var r1, r2 Receipt
	for _, err := range []error{
		get(workflow.ExecuteActivity(ctx, greet, order.Customer), &s1),
		get(workflow.ExecuteActivity(ctx, ping), &s2),
		get(workflow.ExecuteActivity(ctx, add, 2, 3), &n1),
		get(workflow.ExecuteActivity(ctx, join3, "a", 1, true), &s3),
		get(workflow.ExecuteActivity(ctx, acts.Charge, order), &r1),
		get(workflow.ExecuteActivity(ctx, record, order), nil),
		get(workflow.ExecuteActivity(ctx, tick), nil),
		get(workflow.ExecuteActivity(ctx, note2, "b", 2), nil),
		get(workflow.ExecuteActivity(ctx, note3, "c", 3, false), nil),
		get(workflow.ExecuteLocalActivity(ctx, greet, order.Customer), &s4),
		get(workflow.ExecuteLocalActivity(ctx, ping), &s5),
		get(workflow.ExecuteLocalActivity(ctx, add, 4, 5), &n2),
		get(workflow.ExecuteLocalActivity(ctx, join3, "d", 4, true), &s6),
		get(workflow.ExecuteLocalActivity(ctx, acts.Charge, order), &r2),
		get(workflow.ExecuteLocalActivity(ctx, record, order), nil),
		get(workflow.ExecuteLocalActivity(ctx, tick), nil),
		get(workflow.ExecuteLocalActivity(ctx, note2, "e", 5), nil),
		get(workflow.ExecuteLocalActivity(ctx, note3, "f", 6, false), nil),
	} {
		if err != nil {
			return "", err
		}
	}
	noRetries := workflow.WithRetryPolicy(ctx, temporal.RetryPolicy{MaximumAttempts: 1})
	var n int
	err := workflow.ExecuteActivity(noRetries, refuse, "out of stock").Get(ctx, &n)
	var activityErr *temporal.ActivityError
	if !errors.As(err, &activityErr) {
		return "", fmt.Errorf("want an ActivityError, got %v", err)
	}
	return fmt.Sprintln(got...) + "/ " + err.Error(), nil
}

func deref(p any) any {
	switch v := p.(type) {
	case *string:
		return *v
	case *int:
		return *v
	case *Receipt:
		return *v
	}
	panic(fmt.Sprintf("deref: %T", p))
}

func TestActivitiesWriteTheSameHistoryTypedAndUntyped(t *testing.T) {
	order := Order{ID: "o-1", Customer: "Ada", Cents: 1200}
	typedRun := runAs(t, "Activities", activitiesTyped, registerActivities, order)
	untypedRun := runAs(t, "Activities", activitiesUntyped, registerActivities, order)
	requireSameHistory(t, typedRun, untypedRun)

	var typedResult, untypedResult string
	if err := typedRun.GetWorkflowResult(&typedResult); err != nil {
		t.Fatal(err)
	}
	if err := untypedRun.GetWorkflowResult(&untypedResult); err != nil {
		t.Fatal(err)
	}
	const want = "Hello, Ada! pong 5 a1 true {o-1 1230} {} {} {} {} Hello, Ada! pong 9 d4 true {o-1 1230} {} {} {} {}\n"
	if !strings.HasPrefix(typedResult, want) || typedResult != untypedResult {
		t.Errorf("typed result %q, untyped %q; want both to start with %q", typedResult, untypedResult, want)
	}
	if !strings.Contains(typedResult, "refused: out of stock") {
		t.Errorf("the failing activity's error is missing from %q", typedResult)
	}
	h := historyOf(t, typedRun)
	if got := strings.Count(eventTypes(h), "ActivityTaskScheduled"); got != 10 {
		t.Errorf("%d activities scheduled, want 10: %s", got, eventTypes(h))
	}
	if got := strings.Count(eventTypes(h), "MarkerRecorded"); got != 9 {
		t.Errorf("%d local activity markers, want 9: %s", got, eventTypes(h))
	}
}

// A Future works in a Selector and in Await as an untyped one does. (The
// test environment runs activities in flight at the same time in any
// order, so the second future is a coroutine's that waits on a timer:
// the history does not depend on which activity the environment starts
// first.)
func futuresTyped(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	first := typed.ExecuteActivity(ctx, greet, "first")
	second := typed.Go(ctx, func(ctx workflow.Context) (int, error) {
		err := workflow.Sleep(ctx, time.Hour)
		return 42, err
	})
	var order []string
	selector := workflow.NewSelector(ctx)
	typed.AddFuture(selector, first, func(f typed.Future[string]) {
		v, _ := f.Get(ctx)
		order = append(order, v)
	})
	selector.AddFuture(second.Untyped(), func(workflow.Future) {
		v, _ := second.Get(ctx)
		order = append(order, fmt.Sprint(v))
	})
	selector.Select(ctx)
	selector.Select(ctx)
	third := typed.ExecuteActivity0(ctx, ping)
	if err := workflow.Await(ctx, third.IsReady); err != nil {
		return "", err
	}
	v, err := third.Get(ctx)
	if err != nil {
		return "", err
	}
	// A future of one's own, set from a coroutine, chained to another.
	fourth, set := typed.NewFuture[string](ctx)
	workflow.Go(ctx, func(workflow.Context) { set.SetValue("set") })
	fifth, chained := typed.NewFuture[string](ctx)
	chained.Chain(fourth)
	w, err := fifth.Get(ctx)
	return strings.Join(append(order, v, w), ","), err
}

func futuresUntyped(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	first := workflow.ExecuteActivity(ctx, greet, "first")
	second, settable := workflow.NewFuture(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		err := workflow.Sleep(ctx, time.Hour)
		settable.Set(42, err)
	})
	var order []string
	selector := workflow.NewSelector(ctx)
	selector.AddFuture(first, func(f workflow.Future) {
		var v string
		_ = f.Get(ctx, &v)
		order = append(order, v)
	})
	selector.AddFuture(second, func(f workflow.Future) {
		var v int
		_ = f.Get(ctx, &v)
		order = append(order, fmt.Sprint(v))
	})
	selector.Select(ctx)
	selector.Select(ctx)
	third := workflow.ExecuteActivity(ctx, ping)
	if err := workflow.Await(ctx, third.IsReady); err != nil {
		return "", err
	}
	var v string
	if err := third.Get(ctx, &v); err != nil {
		return "", err
	}
	fourth, set := workflow.NewFuture(ctx)
	workflow.Go(ctx, func(workflow.Context) { set.SetValue("set") })
	fifth, chained := workflow.NewFuture(ctx)
	chained.Chain(fourth)
	var w string
	err := fifth.Get(ctx, &w)
	return strings.Join(append(order, v, w), ","), err
}

func TestFuturesInSelectorsAndAwaitWriteTheSameHistory(t *testing.T) {
	typedRun := runAs(t, "Futures", futuresTyped, registerActivities)
	untypedRun := runAs(t, "Futures", futuresUntyped, registerActivities)
	requireSameHistory(t, typedRun, untypedRun)
	var got string
	if err := typedRun.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}
	if got != "Hello, first!,42,pong,set" {
		t.Errorf("typed futures gave %q, want the selector's two results in order, then the awaited one", got)
	}
}

var _ = testsuite.WorkflowTestSuite{}
