package engine

import "testing"

// A flag set holds the flags that exist (under 64) and any a newer SDK may
// write, and nothing else.
func TestFlagSet(t *testing.T) {
	var s flagSet
	for _, f := range []uint32{1, 9, 63, 64, 1000} {
		if s.has(f) {
			t.Fatalf("flag %d before it was added", f)
		}
		s.add(f)
		if !s.has(f) {
			t.Fatalf("flag %d missing after it was added", f)
		}
	}
	for _, f := range []uint32{0, 2, 8, 10, 62, 65, 999} {
		if s.has(f) {
			t.Errorf("flag %d was never added", f)
		}
	}
}
