package doccheck

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestCheckPathsFindsTheBrokenOnes runs the path check on a small tree in
// testdata/paths whose docs name good paths, things that are no paths
// (Go expressions, URLs, placeholders, other modules' files), and a few
// broken paths on purpose.
func TestCheckPathsFindsTheBrokenOnes(t *testing.T) {
	problems, err := CheckPaths(filepath.Join("testdata", "paths"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	want := []string{
		"README.md:10: internal/pkg/gone.go does not exist",
		"README.md:10: docs/moved.md does not exist",
		"README.md:13: scripts/missing.sh does not exist",
		"README.md:24: docs/reference-missing.md does not exist",
		"docs/guide/intro.md:3: other.md does not exist",
		"internal/pkg/doc.go:3: internal/pkg/renamed.go does not exist",
		"internal/pkg/doc.go:5: scripts/listed-missing.sh does not exist",
		"internal/pkg/doc.go:6: internal/pkg/continued-missing.go does not exist",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%q\nwant:\n%q", got, want)
	}
}

func TestPathExistsRecognisesPathsOnly(t *testing.T) {
	p, _, err := newPathChecker(filepath.Join("testdata", "paths"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tok  string
		want bool // exists, or is no path
	}{
		{"internal/pkg/file.go", true},
		{"(internal/pkg/file.go),", true},
		{"internal/pkg/file.go:12:3:", true},
		{"internal/pkg.Exported", true},
		{"./internal/pkg/...", true},
		{"github.com/durable-go/sdk/internal/pkg", true},
		{"log/slog", true}, // the standard library's
		{"a/b", true},
		{"x+y/z", true},
		{"https://example.com/a.go", true},
		{"internal/NAME/x.go", true},
		{"_test.go", true},
		{"elsewhere/main.go", true},
		{"go.temporal.io/sdk/internal/internal_worker.go", true},
		{"file.go", true},
		{"pkg/file.go", true},
		{"internal/pkg/gone.go", false},
		{"internal/pkg.Gone", true}, // the package exists
		{"internal/gone.Name", false},
		{"pkg/gone.go", false},
		{"gone.go", false},
		{"scripts/gone.sh", false},
	} {
		if got := p.pathExists(tc.tok, "docs"); got != tc.want {
			t.Errorf("pathExists(%q) = %v, want %v", tc.tok, got, tc.want)
		}
	}
}

// TestDocsNameExistingPaths fails for each path that a doc of the
// repository names and that does not exist: a file moved or renamed
// without its docs.
func TestDocsNameExistingPaths(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	problems, err := CheckPaths(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
