package doccheck

import (
	"path/filepath"
	"testing"
)

// facades are the public packages whose go doc is what users read.
var facades = []string{"activity", "client", "converter", "interceptor", "log", "temporal", "temporalnexus", "testsuite", "typed", "typed/typedtest", "worker", "workflow"}

// TestFacadesAreDocumented fails for each exported facade name without a
// doc comment, and each alias of a struct or interface whose doc comment
// does not name the type's exported fields or methods.
func TestFacadesAreDocumented(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	checker := NewChecker(root, "github.com/durable-go/sdk")
	for _, dir := range facades {
		problems, err := checker.Check(dir)
		if err != nil {
			t.Fatalf("check %s: %v", dir, err)
		}
		for _, p := range problems {
			t.Error(p)
		}
	}
}
