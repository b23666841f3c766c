package determinism_test

import (
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/durable-go/sdk/contrib/tools/workflowcheck/determinism"
)

// The packages under testdata/src hold one file per rule, with the
// findings expected on each line in "want" comments, and the facts
// expected on the functions and variables other packages see.

func TestRules(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "example.com/wf")
}

func TestHelperPackagesExportFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "example.com/deep", "example.com/helpers", "example.com/lib")
}

func TestRegisteredWorkflows(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "example.com/registrar")
}

func TestOfficialSDKWorkflowAPI(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "example.com/ported")
}

func TestTrustedPackagesAreNotFollowed(t *testing.T) {
	a := determinism.New(determinism.Config{Trusted: []string{"example.com/lib"}})
	analysistest.Run(t, analysistest.TestData(), a, "example.com/trusting")
}

func TestResultNamesTheWorkflows(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "example.com/registrar")
	wants := map[string][]string{
		"example.com/registrar":                              {"Start.func1", "(*Workflows).Run"},
		"example.com/registrar [example.com/registrar.test]": {"Start.func1", "(*Workflows).Run", "TestWorkflow.func1", "TestLiteralNames.func2"},
	}
	for _, r := range results {
		want, ok := wants[r.Action.Package.ID]
		if !ok {
			continue // the generated test main
		}
		delete(wants, r.Action.Package.ID)
		if got := r.Action.Result.(*determinism.Result).Workflows; !slices.Equal(got, want) {
			t.Errorf("%s: workflows %q, want %q", r.Action.Package.ID, got, want)
		}
	}
	if len(wants) > 0 {
		t.Errorf("no result for %v", wants)
	}
}

func TestWorkflowsOfTheSameModuleAreReportedWhereTheyAre(t *testing.T) {
	dir := filepath.Join(analysistest.TestData(), "modular")
	analysistest.Run(t, dir, determinism.Analyzer, "example.com/modular/...")
}
