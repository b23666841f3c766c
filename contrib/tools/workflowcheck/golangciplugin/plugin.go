// Package golangciplugin makes workflowcheck a golangci-lint module plugin
// (golangci-lint's "Module Plugin System"): importing it registers the
// analyzer under the name "workflowcheck".
//
// Build a golangci-lint that includes it with golangci-lint custom, from a
// .custom-gcl.yml at the root of your module:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/durable-go/sdk/contrib/tools/workflowcheck
//	    import: github.com/durable-go/sdk/contrib/tools/workflowcheck/golangciplugin
//	    version: latest            # or path: ./path/to/workflowcheck for a local copy
//
// then enable it in .golangci.yml and run the binary golangci-lint custom
// wrote (./custom-gcl by default):
//
//	version: "2"
//	linters:
//	  enable:
//	    - workflowcheck
//	  settings:
//	    custom:
//	      workflowcheck:
//	        type: module
//	        description: reports nondeterministic code in Temporal workflows
//	        settings:
//	          trust:                          # optional: packages taken as deterministic
//	            - example.com/pure/...
//
// golangci-lint analyses each package with the facts of its dependencies,
// so findings in helpers of other packages are followed as by the
// standalone command.
package golangciplugin

import (
	"fmt"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/durable-go/sdk/contrib/tools/workflowcheck/determinism"
)

func init() { register.Plugin("workflowcheck", New) }

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// Trust lists import paths whose functions are taken as deterministic;
	// an entry ending in "/..." covers the packages below it too.
	Trust []string `json:"trust"`
}

// New makes the plugin from its settings; golangci-lint calls it.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("workflowcheck: bad settings in .golangci.yml (the only setting is trust, a list of import paths): %w", err)
	}
	return &plugin{config: determinism.Config{Trusted: s.Trust}}, nil
}

type plugin struct{ config determinism.Config }

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{determinism.New(p.config)}, nil
}

// GetLoadMode asks for type information: the analyzer needs types to
// resolve calls and facts.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
