package internal

import (
	"crypto/sha256"
	"encoding/binary"
	"io"
	"math/rand/v2"
)

// WorkflowRandomStream is a deterministic pseudorandom source of workflow
// code: one byte sequence that Read takes from and Uint64 takes the next
// 8 bytes of (little-endian), in whatever order they are called.
type WorkflowRandomStream interface {
	rand.Source
	io.Reader
}

// GetRandomStream returns the run's stream of that name, made on first use
// and kept for the run, positioned where earlier draws left it.
//
// The draws are go.temporal.io/sdk's, byte for byte, so a history recorded
// by either SDK replays on the other: the stream is ChaCha8 seeded with
// the SHA-256 of "temporal.sdk.random.v1", the run's current run ID and the
// name, separated by NUL bytes. After a reset the current run ID is the
// reset run's (engine.Info.CurrentRunID), and every stream starts afresh.
func GetRandomStream(ctx Context, name string) WorkflowRandomStream {
	r := runOf(ctx)
	if s, ok := r.randoms[name]; ok {
		return s
	}
	if r.randoms == nil {
		r.randoms = make(map[string]*randomStream)
	}
	s := &randomStream{run: r, name: name}
	r.randoms[name] = s
	return s
}

const randomSeedVersion = "temporal.sdk.random.v1"

// randomStream is a named stream of a run. It is seeded at its first draw
// and again at the first draw after the run's current run ID changed (a
// reset), which draws the same values as seeding every stream when the
// reset's event is applied: no code runs in between.
type randomStream struct {
	run      *workflowRun
	name     string
	seededAs string // the current run ID the source was seeded from
	source   *rand.ChaCha8
}

func (s *randomStream) Read(p []byte) (int, error) {
	return s.current().Read(p)
}

// Uint64 is the next 8 bytes of the stream. ChaCha8's own Uint64 is not
// used: math/rand/v2 leaves how it interleaves with Read undefined.
func (s *randomStream) Uint64() uint64 {
	var b [8]byte
	s.current().Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

func (s *randomStream) current() *rand.ChaCha8 {
	runID := s.run.exec.Info().CurrentRunID
	if s.source == nil || s.seededAs != runID {
		seed := sha256.Sum256([]byte(randomSeedVersion + "\x00" + runID + "\x00" + s.name))
		s.source = rand.NewChaCha8(seed)
		s.seededAs = runID
	}
	return s.source
}
