package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
)

// historiesDir is where the recorder writes fixtures (relative to this package).
const historiesDir = "../../testdata/histories"

func loadManifest(t *testing.T) []manifestEntry {
	t.Helper()
	m, err := readManifest(filepath.Join(historiesDir, manifestName))
	if err != nil {
		t.Fatal(err)
	}
	if len(m) == 0 {
		t.Fatalf("no fixtures in %s", filepath.Join(historiesDir, manifestName))
	}
	return m
}

// TestManifestCoversAllFiles checks that every history file has a manifest
// entry and that every fixture of fixtures() was recorded.
func TestManifestCoversAllFiles(t *testing.T) {
	m := loadManifest(t)
	inManifest := map[string]bool{}
	for _, e := range m {
		inManifest[e.File] = true
	}
	files, err := filepath.Glob(filepath.Join(historiesDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		base := filepath.Base(f)
		if base != manifestName && !inManifest[base] {
			t.Errorf("%s is not in %s", base, manifestName)
		}
	}
	for _, f := range fixtures() {
		if !inManifest[f.name+".json"] && !inManifest[f.name+"-run1.json"] {
			t.Errorf("fixture %s has no recorded history", f.name)
		}
	}
}

// TestReplayFixtures replays every recorded history with the official SDK's
// replayer and checks that the manifest entry matches the history.
func TestReplayFixtures(t *testing.T) {
	for _, e := range loadManifest(t) {
		t.Run(strings.TrimSuffix(e.File, ".json"), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(historiesDir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			h, err := client.HistoryFromJSON(bytes.NewReader(data), client.HistoryJSONOptions{})
			if err != nil {
				t.Fatalf("HistoryFromJSON: %v", err)
			}
			if got := len(h.GetEvents()); got != e.Events {
				t.Errorf("events = %d, manifest says %d", got, e.Events)
			}
			if err := checkClean(h.GetEvents(), fixtureOf(t, e.File).activityFailures); err != nil {
				t.Error(err)
			}

			d, _, err := describe(e.File, h.GetEvents())
			if err != nil {
				t.Fatal(err)
			}
			d.Signals = e.Signals
			if !sameJSON(t, d, e) {
				t.Errorf("manifest entry does not match history:\n history:  %s\n manifest: %s", mustJSON(t, d), mustJSON(t, e))
			}

			r := worker.NewWorkflowReplayer()
			registerWorkflows(r)
			if err := r.ReplayWorkflowHistory(nil, h); err != nil {
				t.Fatalf("replay %s: %v", e.File, err)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(mustJSON(t, a)), &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(mustJSON(t, b)), &y); err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, x) == mustJSON(t, y)
}

// fixtureOf is the fixture that recorded file (<name>.json, or
// <name>-runN.json for a run of a continue-as-new chain).
func fixtureOf(t *testing.T, file string) fixture {
	t.Helper()
	name := strings.TrimSuffix(file, ".json")
	for _, f := range fixtures() {
		if f.name == name || (f.multiRun && strings.HasPrefix(name, f.name+"-run")) {
			return f
		}
	}
	t.Fatalf("no fixture records %s", file)
	return fixture{}
}
