// Package features holds the cross-SDK features suite's tests that this
// module runs on both SDKs: harness is a small runner for them, versioning
// the versioning features, nexus the Nexus features. Each keeps its source
// in ours; official is generated from it.
package features

import (
	"flag"
	"go/format"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the official copies from ours")

// sdkImport matches an import of this module's packages.
var sdkImport = regexp.MustCompile(`"github\.com/durable-go/sdk/([^"]*)"`)

// officialCopy is src with the SDK's packages imported from
// go.temporal.io/sdk and this directory's ours packages from official;
// the test harness (internal/) stays this module's. The result is
// formatted, as the rewrite changes the order of imports.
func officialCopy(src []byte) ([]byte, error) {
	rewritten := sdkImport.ReplaceAllStringFunc(string(src), func(quoted string) string {
		path := strings.Trim(quoted, `"`)
		rel := strings.TrimPrefix(path, "github.com/durable-go/sdk/")
		switch {
		case strings.HasPrefix(rel, "compat/features/"):
			return `"` + strings.Replace(path, "/ours", "/official", 1) + `"`
		case strings.HasPrefix(rel, "internal/"), strings.HasPrefix(rel, "compat/"):
			return quoted
		}
		return `"go.temporal.io/sdk/` + rel + `"`
	})
	return format.Source([]byte(rewritten))
}

// TestFeaturesAreOneSource guards harness/official, versioning/official
// and nexus/official against drift: each must be its ours, file for
// file, through officialCopy and nothing else, so that the same features
// run on both SDKs. With -update it rewrites the official trees:
// go test -run TestFeaturesAreOneSource -update .
func TestFeaturesAreOneSource(t *testing.T) {
	for _, dir := range []string{"harness", "versioning", "nexus"} {
		want := map[string][]byte{}
		ours := filepath.Join(dir, "ours")
		official := filepath.Join(dir, "official")
		err := filepath.WalkDir(ours, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(ours, path)
			if want[rel], err = officialCopy(src); err != nil {
				t.Errorf("%s: %v", path, err)
			}
			return nil
		})
		if err != nil || len(want) == 0 {
			t.Fatalf("no sources in %s: %v", ours, err)
		}
		if *update {
			if err := os.RemoveAll(official); err != nil {
				t.Fatal(err)
			}
			for rel, code := range want {
				path := filepath.Join(official, rel)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, code, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		have := 0
		_ = filepath.WalkDir(official, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
				have++
			}
			return nil
		})
		if have != len(want) {
			t.Errorf("%s has %d files, %s %d: regenerate with go test -run TestFeaturesAreOneSource -update .", official, have, ours, len(want))
		}
		for rel, code := range want {
			b, err := os.ReadFile(filepath.Join(official, rel))
			if err != nil || string(b) != string(code) {
				t.Errorf("%s is not %s through officialCopy: regenerate with go test -run TestFeaturesAreOneSource -update .", filepath.Join(official, rel), filepath.Join(ours, rel))
			}
		}
	}
}
