package updates

import (
	"flag"
	"go/format"
	"os"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite account_workflows_test.go from tools/recordhistories/update_workflows.go")

// TestAccountWorkflowsAreTheRecordedCode guards account_workflows_test.go
// against drift: it must be tools/recordhistories/update_workflows.go
// (the code of the update fixtures) twice, once per SDK, with the workflow
// renamed (…Official, …Ours; both are registered under the recorded name)
// and the update and signal names kept once. With -update it rewrites the
// file, keeping its header (the comment and imports).
func TestAccountWorkflowsAreTheRecordedCode(t *testing.T) {
	src, err := os.ReadFile("../../tools/recordhistories/update_workflows.go")
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("account_workflows_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	code = code[strings.Index(code, "import ("):]
	code = code[strings.Index(code, ")")+1:]
	variant := func(suffix, pkg string, withNames bool) string {
		c := code
		if !withNames {
			c = regexp.MustCompile(`(?s)// The updates and the signal of AccountWorkflow\.\nconst \(.*?\n\)\n`).ReplaceAllString(c, "")
		}
		c = regexp.MustCompile(`\bAccountWorkflow\b`).ReplaceAllString(c, "AccountWorkflow"+suffix)
		c = regexp.MustCompile(`\bworkflow\.([A-Z])`).ReplaceAllString(c, pkg+".$1")
		c = regexp.MustCompile(`\btemporal\.([A-Z])`).ReplaceAllString(c, pkg+"temporal.$1")
		return c
	}
	header := string(have[:strings.Index(string(have), ")\n")+2])
	want, err := format.Source([]byte(header + variant("Official", "official", true) + variant("Ours", "ours", false)))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("account_workflows_test.go", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(want) != string(have) {
		t.Fatal("compat/updates/account_workflows_test.go has drifted from tools/recordhistories/update_workflows.go; regenerate it: cd compat/updates && go test -run TestAccountWorkflowsAreTheRecordedCode -update .")
	}
}
