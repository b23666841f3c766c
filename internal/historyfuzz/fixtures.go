package historyfuzz

import (
	"os"
	"path/filepath"
	"testing"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
)

// Fixtures are the recorded histories of testdata/histories small enough
// to replay many times a second (sequential1000 and pingpong20000 take
// milliseconds to seconds each and teach a fuzzer nothing the small ones
// do not).
var Fixtures = []string{
	"activities.json", "timers.json", "signals.json", "sideeffects.json",
	"mutablesideeffects.json", "versions.json", "continueasnew-run1.json",
	"continueasnew-run2.json", "continueasnew-run3.json", "sequential3.json",
	"pingpong10.json",
}

// LoadFixtures reads Fixtures from dir (the repository's testdata/histories).
func LoadFixtures(tb testing.TB, dir string) []*historypb.History {
	tb.Helper()
	var hs []*historypb.History
	for _, name := range Fixtures {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			tb.Fatal(err)
		}
		var h historypb.History
		if err := (temporalproto.CustomJSONUnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, &h); err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		hs = append(hs, &h)
	}
	return hs
}
