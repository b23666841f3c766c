package compat

import (
	"go/format"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestCrossSDKWorkflowsAreTheRecordedCode guards crosssdk_workflows_test.go
// against drift: it must be tools/recordhistories/workflows.go twice, once
// per SDK, with the workflows renamed (…Official, …Ours), continue-as-new by
// type name, and the activities and signal name kept once.
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
		"MutableSideEffectsWorkflow", "VersionsWorkflow", "ContinueAsNewWorkflow", "SequentialActivitiesWorkflow",
		"PingPongWorkflow", "activityOptions", "sideEffectCounter"}
	variant := func(suffix, pkg string, withShared bool) string {
		c := strings.Replace(code, "NewContinueAsNewError(ctx, ContinueAsNewWorkflow, next)", `NewContinueAsNewError(ctx, "ContinueAsNewWorkflow", next)`, 1)
		for _, n := range renamed {
			c = regexp.MustCompile(`\b`+n+`\b`).ReplaceAllString(c, n+suffix)
		}
		c = strings.ReplaceAll(c, `"ContinueAsNewWorkflow`+suffix+`"`, `"ContinueAsNewWorkflow"`)
		c = strings.ReplaceAll(c, "workflow.", pkg+".")
		if !withShared {
			for _, shared := range []string{`(?s)// Greet returns.*?\n}\n`, `(?s)// Shout returns.*?\n}\n`, `(?s)// Increment returns.*?\n}\n`, `(?s)// SignalsSignalName is.*?\n\n`} {
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
	if string(want) != string(have) {
		t.Fatal("compat/crosssdk_workflows_test.go has drifted from tools/recordhistories/workflows.go; regenerate it with the rules of this test")
	}
}
