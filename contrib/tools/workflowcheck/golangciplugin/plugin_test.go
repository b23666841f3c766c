package golangciplugin_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis/analysistest"

	_ "github.com/durable-go/sdk/contrib/tools/workflowcheck/golangciplugin"
)

func TestPluginIsRegisteredAndTakesItsSettings(t *testing.T) {
	newPlugin, err := register.GetPlugin("workflowcheck")
	if err != nil {
		t.Fatal(err)
	}
	// Settings arrive as golangci-lint decoded them from YAML.
	p, err := newPlugin(map[string]any{"trust": []any{"example.com/lib"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", p.GetLoadMode(), register.LoadModeTypesInfo)
	}
	analyzers, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(analyzers) != 1 || analyzers[0].Name != "workflowcheck" {
		t.Fatalf("analyzers %v, want workflowcheck alone", analyzers)
	}
	// With example.com/lib trusted, the workflow calling it has no finding.
	testdata, err := filepath.Abs("../determinism/testdata")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, analyzers[0], "example.com/trusting")
}

func TestPluginWithoutSettings(t *testing.T) {
	newPlugin, _ := register.GetPlugin("workflowcheck")
	if _, err := newPlugin(nil); err != nil {
		t.Fatalf("no settings: %v", err)
	}
}

func TestPluginRejectsUnknownSettings(t *testing.T) {
	newPlugin, _ := register.GetPlugin("workflowcheck")
	_, err := newPlugin(map[string]any{"trusted": []any{"example.com/lib"}})
	if err == nil || !strings.Contains(err.Error(), "the only setting is trust") {
		t.Fatalf("err = %v, want one naming the trust setting", err)
	}
}
