package determinism

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

func TestTrustFlagTakesAList(t *testing.T) {
	a := newFlagged()
	if err := a.Flags.Set("trust", "example.com/other, example.com/lib"); err != nil {
		t.Fatal(err)
	}
	if got := a.Flags.Lookup("trust").Value.String(); got != "example.com/other,example.com/lib" {
		t.Fatalf("-trust = %q", got)
	}
	analysistest.Run(t, analysistest.TestData(), a, "example.com/trusting")
}

func TestTrustListMatchesTrees(t *testing.T) {
	l := trustList{"example.com/a", "example.com/b/..."}
	for path, want := range map[string]bool{
		"example.com/a":     true,
		"example.com/a/sub": false,
		"example.com/ab":    false,
		"example.com/b":     true,
		"example.com/b/sub": true,
		"example.com/bc":    false,
	} {
		if got := l.matches(path); got != want {
			t.Errorf("matches(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestSDKPackageKinds(t *testing.T) {
	for path, want := range map[string]sdkPackageKind{
		"github.com/durable-go/sdk/workflow":          sdkWorkflow,
		"github.com/durable-go/sdk/internal/engine":   sdkWorkflow,
		"go.temporal.io/sdk/temporal":                 sdkWorkflow,
		"github.com/durable-go/sdk/client":            sdkNotForWork,
		"go.temporal.io/sdk/activity":                 sdkNotForWork,
		"github.com/durable-go/sdk/examples/hello":    notSDKAPI,
		"github.com/durable-go/sdk/compat":            notSDKAPI,
		"github.com/durable-go/sdk":                   notSDKAPI,
		"github.com/durable-go/sdkextra/workflow":     notSDKAPI,
		"go.temporal.io/api/workflowservice/v1":       notSDKAPI,
		"github.com/durable-go/sdk/workflowcheck/foo": notSDKAPI,
	} {
		if got := sdkKind(path); got != want {
			t.Errorf("sdkKind(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestStdlibIsRecognisedByItsRoots(t *testing.T) {
	for path, want := range map[string]bool{
		"time": true, "net/http": true, "math/rand/v2": true,
		"myapp": false, "myapp/workflows": false, "example.com/x": false,
	} {
		if got := isStdlib(path); got != want {
			t.Errorf("isStdlib(%q) = %v, want %v", path, got, want)
		}
	}
}
