package testenv

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testMachinery are the packages a production binary must not link: the
// test environment, what only it uses, and the dev-server helper.
var testMachinery = []string{
	"github.com/stretchr/testify",
	"github.com/durable-go/sdk/internal/testenv",
	"github.com/durable-go/sdk/internal/testserver",
	"github.com/durable-go/sdk/internal/devserver",
}

// goList runs go list in the module's root directory.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...) // go test puts its go first on PATH
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

func isTestMachinery(pkg string) bool {
	return slices.ContainsFunc(testMachinery, func(m string) bool { return pkg == m || strings.HasPrefix(pkg, m+"/") })
}

// TestProductionPackagesLinkNoTestMachinery: a program that imports the
// packages a worker or a client needs links neither the test environment
// nor testify, the in-memory server or the dev-server helper.
func TestProductionPackagesLinkNoTestMachinery(t *testing.T) {
	for _, dep := range goList(t, "-deps", "./client", "./worker", "./workflow", "./activity") {
		if isTestMachinery(dep) {
			t.Errorf("client, worker, workflow and activity link %s: it is test machinery; "+
				"go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./client ./worker ./workflow ./activity shows who imports it", dep)
		}
	}
}

// TestOnlyTestsuiteImportsTheTestEnvironment: the test environment is
// reached through package testsuite alone.
func TestOnlyTestsuiteImportsTheTestEnvironment(t *testing.T) {
	const testenv = "github.com/durable-go/sdk/internal/testenv"
	for _, line := range goList(t, "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg, imports := fields[0], fields[1:]
		if slices.Contains(imports, testenv) && pkg != "github.com/durable-go/sdk/testsuite" {
			t.Errorf("%s imports %s: only package testsuite may (its types are reached as testsuite's)", pkg, testenv)
		}
	}
}
