package doccheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	docs := guideDocs(t, root)
	// Every fence is read: a block the reader missed would go unchecked.
	for _, doc := range docs {
		snippets, err := ReadSnippets(root, doc)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		if fences := strings.Count(string(data), "```go\n"); len(snippets) != fences {
			t.Errorf("%s: %d go blocks read, %d fences", doc, len(snippets), fences)
		}
	}
	problems, skipped, err := CheckSnippets(root, docs)
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

// TestCheckSnippetsAppliesTheRules runs the check on testdata/snippets:
// snippets that compile under the rules, and one of each kind of error.
func TestCheckSnippetsAppliesTheRules(t *testing.T) {
	problems, skipped, err := CheckSnippets(filepath.Join("testdata", "snippets"), []string{"guide.md"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(p.Pos.Filename), p.Pos.Line, p.Message))
	}
	pkgFile, err := filepath.Abs(filepath.Join("testdata", "snippets", "pkg", "pkg.go"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.ToSlash(pkgFile) + `:13: invalid operation: "shipped " + Describe(order) (mismatched types untyped string and int)`,
		`guide.md:26: cannot use "three" (untyped string constant) as int value in variable declaration`,
		`guide.md:33: expected statement, found '...'`,
		`guide.md:40: declared and not used: unused`,
		`guide.md:47: undefined: unknownpkg`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if want := []string{"guide.md:77: shows the shape only"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped: %q, want %q", skipped, want)
	}
}

func TestReadSnippetsRefusesAnUnknownKey(t *testing.T) {
	_, err := ReadSnippets(filepath.Join("testdata", "snippets"), "badmarker.md")
	if err == nil || !strings.Contains(err.Error(), `unknown key "inside"`) {
		t.Errorf("ReadSnippets of a comment with an unknown key: %v, want an error naming it", err)
	}
}
