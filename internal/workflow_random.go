package internal

import (
	"io"
	"math/rand/v2"

	"github.com/durable-go/sdk/internal/wfsync"
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
		r.randoms = make(map[string]*wfsync.RandomStream)
	}
	s := wfsync.NewRandomStream(name, func() string { return r.exec.Info().CurrentRunID })
	r.randoms[name] = s
	return s
}
