package typed_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Wrong calls do not compile. Each snippet below is a file with one wrong
// call, in a package whose other file (compileShared) declares what they
// use and makes the right calls; the test builds the package with go
// build and requires the compiler to report each snippet's error, on the
// snippet's marked line, and nothing else.

const compileShared = `package snippets

import (
	"context"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/workflow"
)

type Item struct{ SKU string }
type Payment struct{ Cents int }

func Greet(ctx context.Context, name string) (string, error) { return "Hello, " + name, nil }
func Add(ctx context.Context, a, b int) (int, error)        { return a + b, nil }
func Shipping(ctx workflow.Context, orderID int) (string, error) { return "", nil }

var (
	OrderPaid = typed.NewSignal[Payment]("order-paid")
	AddItem   = typed.NewUpdate[Item, int]("add-item")
	Status    = typed.NewQuery0[string]("status")
)

// The right calls, which compile.
func Right(ctx workflow.Context, c client.Client, env *testsuite.TestWorkflowEnvironment) {
	var greeting string
	greeting, _ = typed.ExecuteActivity(ctx, Greet, "Ada").Get(ctx)
	_, _ = typed.ExecuteActivity2(ctx, Add, 1, 2).Get(ctx)
	_, _ = typed.ExecuteChildWorkflow(ctx, Shipping, 42).Get(ctx)
	_ = typed.SignalWorkflow(context.Background(), c, "id", "", OrderPaid, Payment{Cents: 1})
	var payment Payment
	payment, _ = typed.GetSignalChannel(ctx, OrderPaid).Receive(ctx)
	_ = typed.SetUpdateHandler(ctx, AddItem, func(ctx workflow.Context, item Item) (int, error) { return 1, nil })
	_ = typed.SetQueryHandler0(ctx, Status, func() (string, error) { return "ok", nil })
	_, _ = typed.UpdateWorkflow(context.Background(), c, client.UpdateWorkflowOptions{}, AddItem, Item{SKU: "x"})
	typedtest.OnActivity(env, Greet, "Ada").Return("Hi", nil)
	typedtest.OnWorkflow(env, Shipping, 42).Return("T-1", nil)
	_ = typed.NewContinueAsNewError(ctx, Shipping, 42)
	_, _ = greeting, payment
}
`

// compileSnippets are the wrong calls: the line marked // ERROR must fail
// with an error that matches want.
var compileSnippets = []struct {
	name, body, want string
}{
	{"wrong_argument_type", `
func WrongArgument(ctx workflow.Context) {
	typed.ExecuteActivity(ctx, Greet, 42) // ERROR
}`, `cannot use 42 \(untyped int constant\) as string value in argument to typed.ExecuteActivity`},

	{"wrong_result_type", `
func WrongResult(ctx workflow.Context) {
	var n int
	n, _ = typed.ExecuteActivity(ctx, Greet, "Ada").Get(ctx) // ERROR
	_ = n
}`, `cannot use .* \(value of type string\) as int value in assignment`},

	{"wrong_number_of_arguments", `
func WrongArity(ctx workflow.Context) {
	typed.ExecuteActivity(ctx, Add, 1) // ERROR
}`, `type func\(ctx context.Context, a int, b int\) \(int, error\) of Add does not match func\(context.Context, A\) \(R, error\)`},

	{"workflow_called_as_activity", `
func WorkflowAsActivity(ctx workflow.Context) {
	typed.ExecuteActivity(ctx, Shipping, 42) // ERROR
}`, `Context, orderID int\) \(string, error\) of Shipping does not match func\(context.Context, A\) \(R, error\)`},

	{"wrong_child_argument", `
func WrongChildArgument(ctx workflow.Context) {
	typed.ExecuteChildWorkflow(ctx, Shipping, "order-42") // ERROR
}`, `cannot use "order-42" \(untyped string constant\) as int value in argument to typed.ExecuteChildWorkflow`},

	{"wrong_signal_payload", `
func WrongSignalPayload(c client.Client) {
	typed.SignalWorkflow(context.Background(), c, "id", "", OrderPaid, "paid") // ERROR
}`, `cannot use "paid" \(untyped string constant\) as Payment value in argument to typed.SignalWorkflow`},

	{"wrong_signal_receive_type", `
func WrongSignalReceive(ctx workflow.Context) {
	var cents int
	cents, _ = typed.GetSignalChannel(ctx, OrderPaid).Receive(ctx) // ERROR
	_ = cents
}`, `cannot use .* \(value of struct type Payment\) as int value in assignment`},

	{"update_handler_of_another_signature", `
func WrongUpdateHandler(ctx workflow.Context) {
	typed.SetUpdateHandler(ctx, AddItem, func(ctx workflow.Context, sku string) (int, error) { return 0, nil }) // ERROR
}`, `sku string\) \(int, error\) {…} does not match inferred type func\(ctx .*Context, a Item\) \(int, error\)`},

	{"query_handler_of_another_signature", `
func WrongQueryHandler(ctx workflow.Context) {
	typed.SetQueryHandler0(ctx, Status, func() (int, error) { return 0, nil }) // ERROR
}`, `type func\(\) \(int, error\) of func\(\) \(int, error\) {…} does not match inferred type func\(\) \(string, error\)`},

	{"wrong_update_argument", `
func WrongUpdateArgument(c client.Client) {
	typed.UpdateWorkflow(context.Background(), c, client.UpdateWorkflowOptions{}, AddItem, "sku-1") // ERROR
}`, `cannot use "sku-1" \(untyped string constant\) as Item value in argument to typed.UpdateWorkflow`},

	{"wrong_mock_result", `
func WrongMockResult(env *testsuite.TestWorkflowEnvironment) {
	typedtest.OnActivity(env, Greet, "Ada").Return(42, nil) // ERROR
}`, `cannot use 42 \(untyped int constant\) as string value in argument to .*Return`},

	{"wrong_child_mock_result", `
func WrongChildMockResult(env *testsuite.TestWorkflowEnvironment) {
	typedtest.OnWorkflow(env, Shipping, 42).Return(42, nil) // ERROR
}`, `cannot use 42 \(untyped int constant\) as string value in argument to .*Return`},

	{"wrong_continue_as_new_argument", `
func WrongContinueAsNewArgument(ctx workflow.Context) error {
	return typed.NewContinueAsNewError(ctx, Shipping, "order-42") // ERROR
}`, `cannot use "order-42" \(untyped string constant\) as int value in argument to typed.NewContinueAsNewError`},
}

const snippetImports = `package snippets

import (
	"context"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/workflow"
)

var _ = context.Background
var _ client.Client
var _ *testsuite.TestWorkflowEnvironment
var _ = typed.NewSignal[int]
var _ = typedtest.CompareHistories
var _ workflow.Context
`

func TestWrongCallsDoNotCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package with go build")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	// A package under testdata, inside this module, so that its imports
	// resolve as this module's; go ./... patterns skip testdata.
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "snippets")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.RemoveAll(dir)
		os.Remove("testdata") // when it holds nothing else
	})
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("shared.go", compileShared)
	wantLines := map[string]int{} // file: line of its ERROR mark
	for _, s := range compileSnippets {
		src := snippetImports + s.body + "\n"
		file := s.name + ".go"
		write(file, src)
		for i, line := range strings.Split(src, "\n") {
			if strings.HasSuffix(line, "// ERROR") {
				wantLines[file] = i + 1
			}
		}
	}

	// -e: report every error, not the first ten.
	cmd := exec.Command(goTool, "build", "-gcflags=-e", "-o", os.DevNull, "./"+filepath.ToSlash(dir))
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the wrong calls compiled:\n%s", out)
	}
	errorsByFile := map[string][]string{}
	errorLine := regexp.MustCompile(`^(?:.*/)?([a-z_]+\.go):(\d+):\d+: (.*)$`)
	for _, line := range strings.Split(string(out), "\n") {
		if m := errorLine.FindStringSubmatch(line); m != nil {
			errorsByFile[m[1]] = append(errorsByFile[m[1]], m[2]+": "+m[3])
		}
	}
	if e := errorsByFile["shared.go"]; len(e) > 0 {
		t.Errorf("the right calls do not compile: %v", e)
	}
	for _, s := range compileSnippets {
		file := s.name + ".go"
		got := errorsByFile[file]
		want := regexp.MustCompile(fmt.Sprintf("^%d: .*%s", wantLines[file], s.want))
		if len(got) != 1 || !want.MatchString(got[0]) {
			t.Errorf("%s: the compiler said %q; want one error on line %d matching %q", s.name, got, wantLines[file], s.want)
		}
	}
	if t.Failed() {
		t.Logf("go build said:\n%s", out)
	}
}
