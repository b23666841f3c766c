package wfsync

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// TestRandomStreamDrawsOneSequencePerRunID: two streams of one name and
// run ID draw the same bytes, Uint64 taking the next 8 of them
// (little-endian); a stream of another name draws others; a stream whose
// run's current run ID changes (a reset) starts afresh from the new ID's
// seed.
func TestRandomStreamDrawsOneSequencePerRunID(t *testing.T) {
	runID := "run-1"
	current := func() string { return runID }
	a, b := NewRandomStream("s", current), NewRandomStream("s", current)
	first := make([]byte, 16)
	a.Read(first)
	if got := b.Uint64(); got != binary.LittleEndian.Uint64(first[:8]) {
		t.Fatalf("Uint64 drew %x, want the next 8 bytes %x", got, first[:8])
	}
	rest := make([]byte, 8)
	b.Read(rest)
	if !bytes.Equal(rest, first[8:]) {
		t.Fatalf("the streams part: %x then %x", first[8:], rest)
	}
	other := make([]byte, 16)
	NewRandomStream("t", current).Read(other)
	if bytes.Equal(other, first) {
		t.Fatal("streams of two names drew the same bytes")
	}

	runID = "run-2"
	reset, fresh := make([]byte, 16), make([]byte, 16)
	a.Read(reset)
	NewRandomStream("s", current).Read(fresh)
	if !bytes.Equal(reset, fresh) {
		t.Fatalf("after the run ID changed the stream drew %x, want the new seed's first bytes %x", reset, fresh)
	}
}
