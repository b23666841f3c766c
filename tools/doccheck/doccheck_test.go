package doccheck

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestCheckerFindsWhatIsMissing runs the checker on a small module in
// testdata whose facade leaves some names undocumented on purpose.
func TestCheckerFindsWhatIsMissing(t *testing.T) {
	checker := NewChecker(filepath.Join("testdata"), "example.com/mod")
	problems, err := checker.Check("facade")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Name+": "+p.Message)
	}
	want := []string{
		"facade.PartlyDocumented: alias doc does not name the fields and methods Name, Method",
		"facade.HandleMissingEmbedded: alias doc does not name the methods Describe",
		"facade.Stream: alias doc does not name the methods Reader",
		"facade.Undocumented: no doc comment",
		"facade.Settings.Bare: no doc comment",
		"facade.Bare: no doc comment",
		"facade.Settings.BareMethod: no doc comment",
		"facade.Nothing: no doc comment",
		"facade.Global: no doc comment",
		"facade.Misnamed: doc comment does not begin with Misnamed (go doc and search show its first sentence)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%q\nwant:\n%q", got, want)
	}
}

func TestCheckerReportsAMissingAliasTarget(t *testing.T) {
	checker := NewChecker(t.TempDir(), "example.com/mod")
	if _, err := checker.Check("facade"); err == nil {
		t.Error("Check of a directory that does not exist returned no error")
	}
}

func TestMentionsWholeWordsOnly(t *testing.T) {
	for _, tc := range []struct {
		text, member string
		want         bool
	}{
		{"TaskQueue: where it runs.", "TaskQueue", true},
		{"  - ID (default: a UUID)", "ID", true},
		{"RunID names the run.", "ID", false},
		{"the Timeouts", "Timeout", false},
		{"Timeout", "Timeout", true},
	} {
		if got := mentions(tc.text, tc.member); got != tc.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", tc.text, tc.member, got, tc.want)
		}
	}
}
