package typed_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/workflow"
)

var OrderPaid = typed.NewSignal[Payment]("order-paid")

// awaitsPayment is the child: it waits for its order to be paid.
func awaitsPayment(ctx workflow.Context, order Order) (Receipt, error) {
	payment, _ := typed.GetSignalChannel(ctx, OrderPaid).Receive(ctx)
	return Receipt{OrderID: order.ID, Charged: payment.Cents}, nil
}

func child0(workflow.Context) (string, error) { return "zero", nil }
func child2(_ workflow.Context, a string, b int) (string, error) {
	return fmt.Sprint(a, "/", b), nil
}
func child3(_ workflow.Context, a string, b int, c bool) (string, error) {
	return fmt.Sprint(a, "/", b, "/", c), nil
}
func childDone(workflow.Context, string) error             { return nil }
func childDone0(workflow.Context) error                    { return nil }
func childDone2(workflow.Context, string, int) error       { return nil }
func childDone3(workflow.Context, string, int, bool) error { return nil }

func registerChildren(env *testsuite.TestWorkflowEnvironment) {
	for _, fn := range []any{awaitsPayment, child0, child2, child3, childDone, childDone0, childDone2, childDone3} {
		env.RegisterWorkflow(fn)
	}
}

// childrenTyped starts a child of every shape, one at a time, and signals
// two of them, with the typed API.
func childrenTyped(ctx workflow.Context, order Order) (string, error) {
	var log []any
	first := typed.ExecuteChildWorkflow(ctx, awaitsPayment, order)
	if _, err := first.GetChildWorkflowExecution().Get(ctx); err != nil {
		return "", err
	}
	if _, err := typed.SignalChildWorkflow(ctx, first, OrderPaid, Payment{Cents: order.Cents, By: "card"}).Get(ctx); err != nil {
		return "", err
	}
	receipt, err := first.Get(ctx)
	if err != nil {
		return "", err
	}
	log = append(log, receipt)

	second := typed.ExecuteChildWorkflow(ctx, awaitsPayment, Order{ID: "o-2", Cents: 5})
	execution, err := second.GetChildWorkflowExecution().Get(ctx)
	if err != nil {
		return "", err
	}
	if _, err := typed.SignalExternalWorkflow(ctx, execution.ID, "", OrderPaid, Payment{Cents: 7, By: "cash"}).Get(ctx); err != nil {
		return "", err
	}
	if receipt, err = second.Get(ctx); err != nil {
		return "", err
	}
	log = append(log, receipt)

	for _, f := range []func() (any, error){
		func() (any, error) { return typed.ExecuteChildWorkflow0(ctx, child0).Get(ctx) },
		func() (any, error) { return typed.ExecuteChildWorkflow2(ctx, child2, "x", 2).Get(ctx) },
		func() (any, error) { return typed.ExecuteChildWorkflow3(ctx, child3, "y", 3, true).Get(ctx) },
		func() (any, error) { return typed.ExecuteChildWorkflowNoResult(ctx, childDone, "z").Get(ctx) },
		func() (any, error) { return typed.ExecuteChildWorkflowNoResult0(ctx, childDone0).Get(ctx) },
		func() (any, error) { return typed.ExecuteChildWorkflowNoResult2(ctx, childDone2, "w", 4).Get(ctx) },
		func() (any, error) {
			return typed.ExecuteChildWorkflowNoResult3(ctx, childDone3, "v", 5, false).Get(ctx)
		},
	} {
		v, err := f()
		if err != nil {
			return "", err
		}
		log = append(log, v)
	}
	return fmt.Sprintln(log...), nil
}

// childrenUntyped is childrenTyped with the untyped API.
func childrenUntyped(ctx workflow.Context, order Order) (string, error) {
	var log []any
	first := workflow.ExecuteChildWorkflow(ctx, awaitsPayment, order)
	if err := first.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return "", err
	}
	if err := first.SignalChildWorkflow(ctx, "order-paid", Payment{Cents: order.Cents, By: "card"}).Get(ctx, nil); err != nil {
		return "", err
	}
	var receipt Receipt
	if err := first.Get(ctx, &receipt); err != nil {
		return "", err
	}
	log = append(log, receipt)

	second := workflow.ExecuteChildWorkflow(ctx, awaitsPayment, Order{ID: "o-2", Cents: 5})
	var execution workflow.Execution
	if err := second.GetChildWorkflowExecution().Get(ctx, &execution); err != nil {
		return "", err
	}
	if err := workflow.SignalExternalWorkflow(ctx, execution.ID, "", "order-paid", Payment{Cents: 7, By: "cash"}).Get(ctx, nil); err != nil {
		return "", err
	}
	if err := second.Get(ctx, &receipt); err != nil {
		return "", err
	}
	log = append(log, receipt)

	for _, f := range []func() (any, error){
		func() (any, error) {
			var s string
			err := workflow.ExecuteChildWorkflow(ctx, child0).Get(ctx, &s)
			return s, err
		},
		func() (any, error) {
			var s string
			err := workflow.ExecuteChildWorkflow(ctx, child2, "x", 2).Get(ctx, &s)
			return s, err
		},
		func() (any, error) {
			var s string
			err := workflow.ExecuteChildWorkflow(ctx, child3, "y", 3, true).Get(ctx, &s)
			return s, err
		},
		func() (any, error) {
			return typed.None{}, workflow.ExecuteChildWorkflow(ctx, childDone, "z").Get(ctx, nil)
		},
		func() (any, error) { return typed.None{}, workflow.ExecuteChildWorkflow(ctx, childDone0).Get(ctx, nil) },
		func() (any, error) {
			return typed.None{}, workflow.ExecuteChildWorkflow(ctx, childDone2, "w", 4).Get(ctx, nil)
		},
		func() (any, error) {
			return typed.None{}, workflow.ExecuteChildWorkflow(ctx, childDone3, "v", 5, false).Get(ctx, nil)
		},
	} {
		v, err := f()
		if err != nil {
			return "", err
		}
		log = append(log, v)
	}
	return fmt.Sprintln(log...), nil
}

func TestChildWorkflowsWriteTheSameHistoryTypedAndUntyped(t *testing.T) {
	order := Order{ID: "o-1", Customer: "Ada", Cents: 1200}
	typedRun := runAs(t, "Children", childrenTyped, registerChildren, order)
	untypedRun := runAs(t, "Children", childrenUntyped, registerChildren, order)
	requireSameHistory(t, typedRun, untypedRun)
	var got string
	if err := typedRun.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}
	if want := "{o-1 1200} {o-2 7} zero x/2 y/3/true {} {} {} {}\n"; got != want {
		t.Errorf("typed children gave %q, want %q", got, want)
	}
	types := eventTypes(historyOf(t, typedRun))
	if n := strings.Count(types, "StartChildWorkflowExecutionInitiated"); n != 9 {
		t.Errorf("%d children started, want 9: %s", n, types)
	}
	if n := strings.Count(types, "SignalExternalWorkflowExecutionInitiated"); n != 2 {
		t.Errorf("%d signals sent, want 2: %s", n, types)
	}
}
