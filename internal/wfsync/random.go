package wfsync

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
)

// NewRandomStream returns the stream of that name of a run whose current
// run ID runID reports.
func NewRandomStream(name string, runID func() string) *RandomStream {
	return &RandomStream{runID: runID, name: name}
}

const randomSeedVersion = "temporal.sdk.random.v1"

// RandomStream is a named stream of a run (workflow.GetRandomStream,
// whose doc says how it draws). It is seeded at its first draw and again
// at the first draw after the run's current run ID changed (a reset),
// which draws the same values as seeding every stream when the reset's
// event is applied: no code runs in between.
type RandomStream struct {
	runID    func() string // the run's current run ID
	name     string
	seededAs string // the current run ID the source was seeded from
	source   *rand.ChaCha8
}

// Read fills p with the stream's next bytes.
func (s *RandomStream) Read(p []byte) (int, error) {
	return s.current().Read(p)
}

// Uint64 is the next 8 bytes of the stream. ChaCha8's own Uint64 is not
// used: math/rand/v2 leaves how it interleaves with Read undefined.
func (s *RandomStream) Uint64() uint64 {
	var b [8]byte
	s.current().Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

func (s *RandomStream) current() *rand.ChaCha8 {
	runID := s.runID()
	if s.source == nil || s.seededAs != runID {
		seed := sha256.Sum256([]byte(randomSeedVersion + "\x00" + runID + "\x00" + s.name))
		s.source = rand.NewChaCha8(seed)
		s.seededAs = runID
	}
	return s.source
}
