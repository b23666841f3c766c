package compat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersioningAPIIsOneSource guards versioningapi/official against
// drift: it must be versioningapi/ours, file for file, with the import of
// the client package rewritten to go.temporal.io/sdk/client and nothing
// else (the test harness stays this module's), so that the same calls run
// on both SDKs' clients (go test ./versioningapi/...). With -update it
// rewrites versioningapi/official.
func TestVersioningAPIIsOneSource(t *testing.T) {
	sources, err := filepath.Glob("versioningapi/ours/*_test.go")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no sources in versioningapi/ours: %v", err)
	}
	want := map[string]string{}
	for _, src := range sources {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		want[filepath.Base(src)] = strings.ReplaceAll(string(b), `"github.com/durable-go/sdk/client"`, `"go.temporal.io/sdk/client"`)
	}
	if *update {
		for name, code := range want {
			if err := os.WriteFile(filepath.Join("versioningapi/official", name), []byte(code), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	have, _ := filepath.Glob("versioningapi/official/*_test.go")
	if len(have) != len(want) {
		t.Errorf("versioningapi/official has %d files, versioningapi/ours %d: regenerate with go test -run TestVersioningAPIIsOneSource -update .", len(have), len(want))
	}
	for name, code := range want {
		b, err := os.ReadFile(filepath.Join("versioningapi/official", name))
		if err != nil || string(b) != code {
			t.Errorf("versioningapi/official/%s is not versioningapi/ours/%s with the client import rewritten: regenerate with go test -run TestVersioningAPIIsOneSource -update .", name, name)
		}
	}
}
