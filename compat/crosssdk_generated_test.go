package compat

import (
	"flag"
	"go/format"
	"os"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite crosssdk_workflows_test.go from tools/recordhistories/workflows.go")

// TestCrossSDKWorkflowsAreTheRecordedCode guards crosssdk_workflows_test.go
// against drift: it must be tools/recordhistories/workflows.go twice, once
// per SDK, with the workflows renamed (…Official, …Ours), continue-as-new
// and child workflows by type name (the renamed functions are registered
// under the recorded names), and the activities and signal names kept
// once. With -update it rewrites the file (keeping its header: the package
// doc and imports).
func TestCrossSDKWorkflowsAreTheRecordedCode(t *testing.T) {
	src, err := os.ReadFile("../tools/recordhistories/workflows.go")
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("crosssdk_workflows_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	code = code[strings.Index(code, "import ("):]
	code = code[strings.Index(code, ")")+1:]
	renamed := []string{"ActivitiesWorkflow", "TimersWorkflow", "SignalsWorkflow", "SideEffectsWorkflow",
		"MutableSideEffectsWorkflow", "RandomStreamsWorkflow", "VersionsWorkflow", "ContinueAsNewWorkflow", "SequentialActivitiesWorkflow",
		"PingPongWorkflow", "NegativeTimersWorkflow", "MismatchedArgsWorkflow", "activityOptions", "sideEffectCounter",
		"GreetChildWorkflow", "FailingChildWorkflow", "SleepingChildWorkflow", "ListeningChildWorkflow",
		"ChildResultsWorkflow", "ChildCancelWorkflow", "ParentClosePoliciesWorkflow", "ChildSignalsWorkflow",
		"ExternalCancelWorkflow", "DuplicateChildWorkflow", "CancelTogetherWorkflow", "BadMemoChildWorkflow", "TakenIDChildWorkflow", "AbandoningChildWorkflow", "childOutcome", "externalOutcome", "startOutcome"}
	variant := func(suffix, pkg string, withShared bool) string {
		c := strings.Replace(code, "NewContinueAsNewError(ctx, ContinueAsNewWorkflow, next)", `NewContinueAsNewError(ctx, "ContinueAsNewWorkflow", next)`, 1)
		c = regexp.MustCompile(`(ExecuteChildWorkflow\(\w+, )(\w+)\b`).ReplaceAllString(c, `$1"$2"`)
		for _, n := range renamed {
			c = regexp.MustCompile(`([^"])\b`+n+`\b`).ReplaceAllString(c, "${1}"+n+suffix)
		}
		c = regexp.MustCompile(`\bworkflow\.([A-Z])`).ReplaceAllString(c, pkg+".$1")
		c = regexp.MustCompile(`\btemporal\.([A-Z])`).ReplaceAllString(c, pkg+"temporal.$1")
		if !withShared {
			for _, shared := range []string{`(?s)// Greet returns.*?\n}\n`, `(?s)// Shout returns.*?\n}\n`, `(?s)// Increment returns.*?\n}\n`,
				`(?s)// SignalsSignalName is.*?\n\n`, `(?s)// NoteSignalName is.*?\n\n`} {
				c = regexp.MustCompile(shared).ReplaceAllString(c, "")
			}
		}
		return c
	}
	header := string(have[:strings.Index(string(have), ")\n")+2])
	want, err := format.Source([]byte(header + variant("Official", "official", true) + variant("Ours", "ours", false)))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("crosssdk_workflows_test.go", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(want) != string(have) {
		t.Fatal("compat/crosssdk_workflows_test.go has drifted from tools/recordhistories/workflows.go; regenerate it: cd compat && go test -run TestCrossSDKWorkflowsAreTheRecordedCode -update .")
	}
}
