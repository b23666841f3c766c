package doccheck

import (
	"path/filepath"
	"testing"
)

// guideDocs are the docs whose go blocks must compile: the README and the
// user guide.
func guideDocs(t *testing.T, root string) []string {
	docs := []string{"README.md"}
	guide, err := filepath.Glob(filepath.Join(root, "docs", "guide", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range guide {
		rel, err := filepath.Rel(root, doc)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, filepath.ToSlash(rel))
	}
	return docs
}

// TestGuideSnippetsCompile: every go block of the README and the user
// guide compiles, under the rules of snippets.go.
func TestGuideSnippetsCompile(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	problems, skipped, err := CheckSnippets(root, guideDocs(t, root))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	for _, s := range skipped {
		t.Logf("partial, not compiled: %s", s)
	}
}
