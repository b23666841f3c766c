package compat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestEnvParityIsOneSource guards testenvparity/official against
// drift: it must be testenvparity/ours, file for file, with the import
// prefix github.com/durable-go/sdk/ rewritten to go.temporal.io/sdk/ and
// nothing else, so that the same test source runs on both SDKs' test
// environments (go test ./testenvparity/...). With -update it rewrites
// testenvparity/official.
func TestTestEnvParityIsOneSource(t *testing.T) {
	sources, err := filepath.Glob("testenvparity/ours/*_test.go")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no sources in testenvparity/ours: %v", err)
	}
	want := map[string]string{}
	for _, src := range sources {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		want[filepath.Base(src)] = strings.ReplaceAll(string(b), `"github.com/durable-go/sdk/`, `"go.temporal.io/sdk/`)
	}
	if *update {
		old, _ := filepath.Glob("testenvparity/official/*_test.go")
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		for name, code := range want {
			if err := os.WriteFile(filepath.Join("testenvparity/official", name), []byte(code), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	have, _ := filepath.Glob("testenvparity/official/*_test.go")
	if len(have) != len(want) {
		t.Errorf("testenvparity/official has %d files, testenvparity/ours %d: regenerate with go test -run TestTestEnvParityIsOneSource -update .", len(have), len(want))
	}
	for name, code := range want {
		b, err := os.ReadFile(filepath.Join("testenvparity/official", name))
		if err != nil || string(b) != code {
			t.Errorf("testenvparity/official/%s is not testenvparity/ours/%s with the import prefix rewritten: regenerate with go test -run TestTestEnvParityIsOneSource -update .", name, name)
		}
	}
}
