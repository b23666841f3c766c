package determinism_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/durable-go/sdk/contrib/tools/workflowcheck/determinism"
)

// fixture is added to examples/hello for the test, through an overlay: a
// workflow on the real SDK that does what workflow code must not.
const fixture = `package main

import (
	"context"
	"time"

	"github.com/durable-go/sdk/workflow"
)

func Clocked(ctx workflow.Context) (time.Time, error) {
	var stamp time.Time
	err := workflow.SideEffect(ctx, func(ctx workflow.Context) any { return time.Now() }).Get(&stamp)
	workflow.Go(ctx, func(ctx workflow.Context) { go func() {}() })
	return stamp.Add(time.Since(stamp)), err
}

func fixtureStamp(ctx context.Context, at time.Time) (string, error) { return at.String(), nil }

func Misstamped(ctx workflow.Context) error {
	return workflow.ExecuteActivity(ctx, fixtureStamp, "now").Get(ctx, nil)
}
`

// TestRepositoryWorkflows runs the analyzer, as the command does, over the
// repository's example and the worker's test workflows on the real SDK:
// it finds them, reports nothing the tests did not mark as intended, and
// finds what the fixture does wrong (its activity's first parameter is the
// real context.Context, which takes no argument).
func TestRepositoryWorkflows(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the SDK and its dependencies from source")
	}
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	fixtureFile := filepath.Join(root, "examples", "hello", "workflowcheck_fixture.go")
	cfg := &packages.Config{
		Mode:    packages.LoadAllSyntax | packages.NeedModule,
		Dir:     root,
		Tests:   true,
		Overlay: map[string][]byte{fixtureFile: []byte(fixture)},
	}
	pkgs, err := packages.Load(cfg, "./examples/...", "./worker")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the packages do not load")
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{determinism.Analyzer}, pkgs, &checker.Options{SanityCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	workflows := map[string][]string{}
	var findings []string
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			t.Fatalf("%s: %v", act.Package.ID, act.Err)
		}
		workflows[act.Package.ID] = act.Result.(*determinism.Result).Workflows
		for _, d := range act.Diagnostics {
			posn := act.Package.Fset.Position(d.Pos)
			findings = append(findings, filepath.Base(posn.Filename)+": "+d.Message)
		}
	}
	slices.Sort(findings)
	findings = slices.Compact(findings) // the test variant repeats the package's own
	want := []string{
		"workflowcheck_fixture.go: ExecuteActivity: argument 1 is string, but activity fixtureStamp's parameter is time.Time; the activity decodes it into time.Time, and fails if it cannot",
		"workflowcheck_fixture.go: go statement starts a native goroutine: Clocked; use workflow.Go",
		"workflowcheck_fixture.go: time.Since called: Clocked; use workflow.Now(ctx).Sub",
	}
	if !slices.Equal(findings, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(findings, "\n"), strings.Join(want, "\n"))
	}
	if got := workflows["github.com/durable-go/sdk/examples/hello"]; !slices.Contains(got, "Greeting") || !slices.Contains(got, "Clocked") {
		t.Errorf("examples/hello: workflows %q, want Greeting and Clocked", got)
	}
	testWorkflows := workflows["github.com/durable-go/sdk/worker_test [github.com/durable-go/sdk/worker.test]"]
	for _, name := range []string{"SignalsWorkflow", "SideEffectsWorkflow", "threeSteps", "(*orderTaggerWorkflow).ExecuteWorkflow"} {
		if !slices.Contains(testWorkflows, name) {
			t.Errorf("worker tests: workflows %q, want %s among them", testWorkflows, name)
		}
	}
}
