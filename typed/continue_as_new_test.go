package typed_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/workflow"
)

// continueAsNewOptions are the options of the WithOptions forms.
var continueAsNewOptions = workflow.ContinueAsNewErrorOptions{
	BackoffStartInterval: 90 * time.Second,
	RetryPolicy:          &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
}

// continueTyped continues as new with the typed form that shape names,
// into the workflows of child_test.go, one of each shape.
func continueTyped(ctx workflow.Context, shape string) (string, error) {
	o := continueAsNewOptions
	order := Order{ID: "o-9", Cents: 9}
	switch shape {
	case "1":
		return "", typed.NewContinueAsNewError(ctx, awaitsPayment, order)
	case "0":
		return "", typed.NewContinueAsNewError0(ctx, child0)
	case "2":
		return "", typed.NewContinueAsNewError2(ctx, child2, "x", 2)
	case "3":
		return "", typed.NewContinueAsNewError3(ctx, child3, "y", 3, true)
	case "NoResult":
		return "", typed.NewContinueAsNewErrorNoResult(ctx, childDone, "z")
	case "NoResult0":
		return "", typed.NewContinueAsNewErrorNoResult0(ctx, childDone0)
	case "NoResult2":
		return "", typed.NewContinueAsNewErrorNoResult2(ctx, childDone2, "w", 4)
	case "NoResult3":
		return "", typed.NewContinueAsNewErrorNoResult3(ctx, childDone3, "v", 5, false)
	case "WithOptions1":
		return "", typed.NewContinueAsNewErrorWithOptions(ctx, o, awaitsPayment, order)
	case "WithOptions0":
		return "", typed.NewContinueAsNewErrorWithOptions0(ctx, o, child0)
	case "WithOptions2":
		return "", typed.NewContinueAsNewErrorWithOptions2(ctx, o, child2, "x", 2)
	case "WithOptions3":
		return "", typed.NewContinueAsNewErrorWithOptions3(ctx, o, child3, "y", 3, true)
	case "WithOptionsNoResult":
		return "", typed.NewContinueAsNewErrorWithOptionsNoResult(ctx, o, childDone, "z")
	case "WithOptionsNoResult0":
		return "", typed.NewContinueAsNewErrorWithOptionsNoResult0(ctx, o, childDone0)
	case "WithOptionsNoResult2":
		return "", typed.NewContinueAsNewErrorWithOptionsNoResult2(ctx, o, childDone2, "w", 4)
	case "WithOptionsNoResult3":
		return "", typed.NewContinueAsNewErrorWithOptionsNoResult3(ctx, o, childDone3, "v", 5, false)
	}
	return "", fmt.Errorf("no shape %q", shape)
}

// continueUntyped is continueTyped with the untyped calls.
func continueUntyped(ctx workflow.Context, shape string) (string, error) {
	order := Order{ID: "o-9", Cents: 9}
	calls := map[string]struct {
		fn   any
		args []any
	}{
		"1": {awaitsPayment, []any{order}}, "0": {child0, nil}, "2": {child2, []any{"x", 2}}, "3": {child3, []any{"y", 3, true}},
		"NoResult": {childDone, []any{"z"}}, "NoResult0": {childDone0, nil}, "NoResult2": {childDone2, []any{"w", 4}}, "NoResult3": {childDone3, []any{"v", 5, false}},
	}
	if c, ok := calls[shape]; ok {
		return "", workflow.NewContinueAsNewError(ctx, c.fn, c.args...)
	}
	if rest, ok := strings.CutPrefix(shape, "WithOptions"); ok {
		if c, ok := calls[rest]; ok {
			return "", workflow.NewContinueAsNewErrorWithOptions(ctx, continueAsNewOptions, c.fn, c.args...)
		}
	}
	return "", fmt.Errorf("no shape %q", shape)
}

// Each typed form continues as the workflow it names, with its arguments,
// and writes the history the untyped call writes.
func TestContinueAsNewWritesTheSameHistoryTypedAndUntyped(t *testing.T) {
	targets := map[string]string{"1": "awaitsPayment", "0": "child0", "2": "child2", "3": "child3",
		"NoResult": "childDone", "NoResult0": "childDone0", "NoResult2": "childDone2", "NoResult3": "childDone3"}
	for _, withOptions := range []string{"", "WithOptions"} {
		for key, target := range targets {
			shape := withOptions + key
			t.Run(shape, func(t *testing.T) {
				typedRun := runAs(t, "Continues", continueTyped, registerChildren, shape)
				untypedRun := runAs(t, "Continues", continueUntyped, registerChildren, shape)
				var can *workflow.ContinueAsNewError
				if err := typedRun.GetWorkflowError(); !errors.As(err, &can) {
					t.Fatalf("the typed form ended with %v, want a ContinueAsNewError", err)
				}
				if can.WorkflowType.Name != target {
					t.Errorf("continued as %s, want %s", can.WorkflowType.Name, target)
				}
				requireSameHistory(t, typedRun, untypedRun)
				events := historyOf(t, typedRun).GetEvents()
				continued := events[len(events)-1].GetWorkflowExecutionContinuedAsNewEventAttributes()
				if continued.GetWorkflowType().GetName() != target {
					t.Fatalf("the history's last event continues as %q, want %s: %v", continued.GetWorkflowType().GetName(), target, events[len(events)-1])
				}
				wantBackoff := time.Duration(0)
				if withOptions != "" {
					wantBackoff = continueAsNewOptions.BackoffStartInterval
				}
				if got := continued.GetBackoffStartInterval().AsDuration(); got != wantBackoff {
					t.Errorf("the new run starts after %v, want %v", got, wantBackoff)
				}
			})
		}
	}
}

// The new run gets the arguments as the workflow decodes them.
func TestContinueAsNewPassesTheArguments(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	registerChildren(env)
	env.ExecuteWorkflow(continueTyped, "3")
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("ended with %v, want a ContinueAsNewError", err)
	}
	var a string
	var b int
	var c bool
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &a, &b, &c); err != nil || a != "y" || b != 3 || !c {
		t.Errorf("the new run's input decodes to %q, %d, %v (%v); want y, 3, true", a, b, c, err)
	}
}
