// Command workflowcheck reports code that breaks determinism in Temporal
// workflow functions: it runs the analyzer of package determinism over the
// packages named on its command line, as go vet does.
//
//	go run github.com/durable-go/sdk/contrib/tools/workflowcheck ./...
//
// It prints one line per finding, at the offending statement, with the
// call path from the workflow function that reaches it, and exits with
// status 3 when there are findings. Flags:
//
//	-trust=example.com/pure,example.com/lib/...   take these packages as deterministic
//	-test=false                                    leave out _test.go files
//
// It also runs under go vet:
//
//	go vet -vettool=$(command -v workflowcheck) ./...
//
// See the package documentation of determinism for the rules, the
// patterns it accepts, and the //workflowcheck:ignore directive.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/durable-go/sdk/contrib/tools/workflowcheck/determinism"
)

func main() { singlechecker.Main(determinism.Analyzer) }
