package registry

import (
	"context"
	"strings"
	"testing"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/wfctx"
)

func dynamicWorkflow(wfctx.Context, converter.EncodedValues) (string, error) { return "", nil }
func dynamicActivity(context.Context, converter.EncodedValues) error         { return nil }
func namedWorkflow(wfctx.Context) error                                      { return nil }

func TestDynamicFunctionsStandInForUnregisteredTypes(t *testing.T) {
	r := New()
	if err := r.RegisterWorkflow(namedWorkflow, "", false); err != nil {
		t.Fatal(err)
	}
	if r.HasActivities() {
		t.Fatal("nothing runs activities yet")
	}
	if err := r.RegisterDynamicWorkflow(dynamicWorkflow); err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterDynamicActivity(dynamicActivity); err != nil {
		t.Fatal(err)
	}
	if !r.HasActivities() || !r.HasWorkflows() {
		t.Fatal("a dynamic function runs tasks")
	}
	named, err := r.Workflow("namedWorkflow")
	if err != nil || named.Dynamic {
		t.Fatalf("a type registered by name wins: %+v %v", named, err)
	}
	other, err := r.Workflow("Anything")
	if err != nil || !other.Dynamic || other.Name != "Anything" {
		t.Fatalf("an unregistered type runs the dynamic workflow under its own name: %+v %v", other, err)
	}
	act, err := r.Activity("Whatever")
	if err != nil || !act.Dynamic {
		t.Fatalf("dynamic activity: %+v %v", act, err)
	}
	if r.IsRegistered("workflow", "Anything") || !r.IsRegistered("workflow", "namedWorkflow") {
		t.Fatal("IsRegistered counts registrations by name only")
	}
	args, err := other.DecodeArgs(converter.GetDefaultDataConverter(), nil, "workflow")
	if err != nil || len(args) != 1 {
		t.Fatalf("a dynamic function takes its arguments as one EncodedValues: %v %v", args, err)
	}
	if _, ok := args[0].Interface().(converter.EncodedValues); !ok {
		t.Fatalf("want converter.EncodedValues, got %T", args[0].Interface())
	}
	if err := r.RegisterDynamicWorkflow(dynamicWorkflow); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Fatalf("a second dynamic workflow: %v", err)
	}
}

func TestDynamicFunctionsMustTakeEncodedValues(t *testing.T) {
	r := New()
	for _, c := range []struct {
		fn   any
		want string
	}{
		{namedWorkflow, "(workflow.Context, converter.EncodedValues)"},
		{func(wfctx.Context, string) error { return nil }, "(workflow.Context, converter.EncodedValues)"},
		{func(context.Context, converter.EncodedValues) error { return nil }, "workflow.Context"},
	} {
		if err := r.RegisterDynamicWorkflow(c.fn); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("dynamic workflow %T: error %v, want it to mention %q", c.fn, err, c.want)
		}
	}
	for _, c := range []struct {
		fn   any
		want string
	}{
		{func(context.Context) error { return nil }, "(context.Context, converter.EncodedValues)"},
		{func(string, converter.EncodedValues) error { return nil }, "context.Context"},
		{"not a function", "want a function"},
	} {
		if err := r.RegisterDynamicActivity(c.fn); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("dynamic activity %T: error %v, want it to mention %q", c.fn, err, c.want)
		}
	}
}
