package internal

import (
	"fmt"
	"testing"
)

// A run finds each signal's channel by its name, the same one every time,
// whether its channels are few (a list) or many (a map as well), and keeps
// them in the order they were made.
func TestSignalChannelsByName(t *testing.T) {
	var s signalChannels
	const n = 3 * signalScanLimit
	made := map[string]*signalChannel{}
	for i := range n {
		name := fmt.Sprintf("signal-%d", i)
		made[name] = s.get(name)
		for j := 0; j <= i; j++ {
			other := fmt.Sprintf("signal-%d", j)
			if got := s.get(other); got != made[other] || got.Name() != other {
				t.Fatalf("with %d channels, %q found %v, want the one made for it", i+1, other, got.Name())
			}
		}
	}
	if len(s.list) != n || len(s.byName) != n {
		t.Fatalf("%d channels listed, %d mapped, want %d", len(s.list), len(s.byName), n)
	}
	for i, c := range s.list {
		if want := fmt.Sprintf("signal-%d", i); c.Name() != want {
			t.Errorf("channel %d is %q, want %q", i, c.Name(), want)
		}
	}
}
