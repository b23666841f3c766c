package registry

import (
	"context"
	"strings"
	"testing"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/wfctx"
)

func Greet(ctx wfctx.Context, name string, times int) (string, error) { return "", nil }
func NoResult(ctx wfctx.Context) error                                { return nil }
func Charge(ctx context.Context, cents int) (string, error)           { return "", nil }

type Billing struct{}

func (b *Billing) Refund(ctx context.Context, id string) error { return nil }
func (b *Billing) Audit() error                                { return nil }
func (b *Billing) Helper() int                                 { return 0 }

func TestFunctionName(t *testing.T) {
	var b *Billing
	for fn, want := range map[string]any{"Greet": Greet, "Charge": Charge, "Refund": b.Refund, "ByName": "ByName"} {
		if got := FunctionName(want); got != fn {
			t.Errorf("FunctionName = %q, want %q", got, fn)
		}
	}
}

func TestRegisterAndLookUp(t *testing.T) {
	r := New()
	if err := r.RegisterWorkflow(Greet, "", false); err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterWorkflow(NoResult, "custom", false); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Workflow("custom"); err != nil {
		t.Fatal(err)
	}
	err := r.RegisterWorkflow(Greet, "", false)
	if err == nil || !strings.Contains(err.Error(), `workflow type "Greet" is already registered`) {
		t.Fatalf("duplicate registration: %v", err)
	}
	if err := r.RegisterWorkflow(Greet, "", true); err != nil {
		t.Fatalf("replacing with the check disabled: %v", err)
	}
	_, err = r.Workflow("Missing")
	if err == nil || !strings.Contains(err.Error(), `workflow type "Missing" is not registered with this worker (registered: Greet, custom)`) {
		t.Fatalf("unregistered type: %v", err)
	}
}

func TestRegisterRejectsBadSignatures(t *testing.T) {
	r := New()
	cases := []struct {
		fn   any
		act  bool
		want string
	}{
		{func(ctx context.Context) error { return nil }, false, "first parameter must be workflow.Context"},
		{func(ctx wfctx.Context) {}, false, "it must return (result, error) or error"},
		{func(ctx wfctx.Context) (string, string) { return "", "" }, false, "last result must be error"},
		{func(ctx wfctx.Context) error { return nil }, true, "takes context.Context, not workflow.Context"},
		{42, true, "want a function or a struct"},
	}
	for _, c := range cases {
		var err error
		if c.act {
			err = r.RegisterActivity(c.fn, "", false, false)
		} else {
			err = r.RegisterWorkflow(c.fn, "", false)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%T: got %v, want %q", c.fn, err, c.want)
		}
	}
}

func TestRegisterStructActivities(t *testing.T) {
	r := New()
	err := r.RegisterActivity(&Billing{}, "", false, false)
	if err == nil || !strings.Contains(err.Error(), "Helper") {
		t.Fatalf("an invalid method must be named: %v", err)
	}
	r = New()
	if err := r.RegisterActivity(&Billing{}, "billing.", false, true); err != nil {
		t.Fatal(err)
	}
	if got := r.ActivityNames(); strings.Join(got, ",") != "billing.Audit,billing.Refund" {
		t.Fatalf("activities %v", got)
	}
	f, _ := r.Activity("billing.Refund")
	if !f.HasContext || len(f.Params()) != 1 {
		t.Fatalf("Refund: context %v params %v", f.HasContext, f.Params())
	}
}

func TestDecodeArgs(t *testing.T) {
	r := New()
	_ = r.RegisterWorkflow(Greet, "", false)
	f, _ := r.Workflow("Greet")
	dc := converter.GetDefaultDataConverter()
	in, err := EncodeArgs(dc, []any{"ann", 3})
	if err != nil {
		t.Fatal(err)
	}
	vals, err := f.DecodeArgs(dc, in, "workflow")
	if err != nil || vals[0].String() != "ann" || vals[1].Int() != 3 {
		t.Fatalf("decoded %v, %v", vals, err)
	}
	// Lenient about the count, as go.temporal.io/sdk: missing arguments
	// are zero, extra ones dropped.
	short, _ := EncodeArgs(dc, []any{"ann"})
	if vals, err := f.DecodeArgs(dc, short, "workflow"); err != nil || vals[0].String() != "ann" || vals[1].Int() != 0 {
		t.Fatalf("a missing argument must be zero: %v, %v", vals, err)
	}
	long, _ := EncodeArgs(dc, []any{"ann", 3, "extra"})
	if vals, err := f.DecodeArgs(dc, long, "workflow"); err != nil || len(vals) != 2 || vals[1].Int() != 3 {
		t.Fatalf("an extra argument must be dropped: %v, %v", vals, err)
	}
	wrong, _ := EncodeArgs(dc, []any{"ann", "three"})
	if _, err := f.DecodeArgs(dc, wrong, "workflow"); err == nil || !strings.Contains(err.Error(), `argument 2 (int)`) {
		t.Fatalf("type mismatch: %v", err)
	}
}

func TestEncodeAndCheckArgs(t *testing.T) {
	_, err := EncodeArgs(converter.GetDefaultDataConverter(), []any{"ok", make(chan int)})
	if err == nil || !strings.Contains(err.Error(), "argument 2 (chan int) cannot be encoded") {
		t.Fatalf("unencodable argument: %v", err)
	}
	if err := CheckArgs(Charge, []any{10}, "activity"); err != nil {
		t.Fatal(err)
	}
	if err := CheckArgs(Charge, []any{"ten"}, "activity"); err == nil || !strings.Contains(err.Error(), `activity "Charge": argument 1 is string, but the parameter is int`) {
		t.Fatalf("wrong type: %v", err)
	}
	if err := CheckArgs(Greet, []any{"ann"}, "workflow"); err == nil || !strings.Contains(err.Error(), "takes 2 argument(s) (string, int), but 1 were given") {
		t.Fatalf("wrong count: %v", err)
	}
}

// As in go.temporal.io/sdk, a workflow call skips only a workflow.Context
// and an activity call only a context.Context: an activity started as a
// workflow, or a workflow as an activity, has one parameter too many.
func TestCheckArgsTellsActivitiesFromWorkflows(t *testing.T) {
	err := CheckArgs(Charge, []any{10}, "workflow")
	if err == nil || !strings.Contains(err.Error(), `workflow "Charge" takes 2 argument(s) (context.Context, int), but 1 were given (its first parameter is context.Context: is it an activity?`) {
		t.Errorf("an activity started as a workflow: %v", err)
	}
	err = CheckArgs(Charge, []any{10}, "child workflow")
	if err == nil || !strings.Contains(err.Error(), "is it an activity?") {
		t.Errorf("an activity started as a child workflow: %v", err)
	}
	err = CheckArgs(Greet, []any{"ann", 1}, "activity")
	if err == nil || !strings.Contains(err.Error(), "takes 3 argument(s)") || !strings.Contains(err.Error(), "is it a workflow?") {
		t.Errorf("a workflow run as an activity: %v", err)
	}
	err = CheckArgs(Greet, []any{"ann", 1}, "local activity")
	if err == nil || !strings.Contains(err.Error(), "is it a workflow?") {
		t.Errorf("a workflow run as a local activity: %v", err)
	}
}

// A function registered under a name of its own is scheduled by that name
// when workflow code passes the function, as in go.temporal.io/sdk; struct
// methods registered with a prefix are not aliased; DisableAliasing turns
// it off.
func TestAliases(t *testing.T) {
	r := New()
	if err := r.RegisterWorkflow(Greet, "greeting", false); err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterActivity(Charge, "charge-card", false, false); err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterActivity(&Billing{}, "billing.", false, true); err != nil {
		t.Fatal(err)
	}
	b := &Billing{}
	for _, c := range []struct{ got, want string }{
		{r.WorkflowTypeOf(Greet), "greeting"},
		{r.WorkflowTypeOf(NoResult), "NoResult"}, // not registered: its function name
		{r.WorkflowTypeOf("Greet"), "Greet"},     // a name is taken as it is
		{r.ActivityTypeOf(Charge), "charge-card"},
		{r.ActivityTypeOf(b.Refund), "Refund"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	off := New()
	off.DisableAliasing()
	if err := off.RegisterActivity(Charge, "charge-card", false, false); err != nil {
		t.Fatal(err)
	}
	if got := off.ActivityTypeOf(Charge); got != "Charge" {
		t.Errorf("without aliasing got %q, want the function name", got)
	}
}

// An activity is scheduled by its name as given, or by the name its
// function is registered under; anything else is refused, saying what to
// pass.
func TestActivityName(t *testing.T) {
	r := New()
	if err := r.RegisterActivity(Charge, "charge-card", false, false); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		activity any
		want     string
	}{{"Refund", "Refund"}, {Charge, "charge-card"}, {(&Billing{}).Refund, "Refund"}} {
		if got, err := r.ActivityName(c.activity); got != c.want || err != nil {
			t.Errorf("ActivityName(%v) = %q, %v; want %q", c.activity, got, err, c.want)
		}
	}
	for _, c := range []struct {
		activity any
		want     string
	}{
		{"", "the activity name is empty"},
		{nil, "the activity is nil; pass a function or an activity type name"},
		{42, "int is not an activity; pass a function or an activity type name"},
	} {
		if _, err := r.ActivityName(c.activity); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ActivityName(%#v) = %v, want an error saying %q", c.activity, err, c.want)
		}
	}
}
