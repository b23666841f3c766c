// Package helpers holds helpers that workflows of another package call.
package helpers

import (
	"math/rand"
	"os"
	"time"

	"example.com/deep"
	"github.com/durable-go/sdk/workflow"
)

// Outer reaches time.Now two calls down, in a third package.
func Outer() int { // want Outer:"nondeterministic\\(time.Now called at deep/deep.go:8 via helpers.middle -> deep.Now\\)"
	return middle()
}

func middle() int {
	return deep.Now().Second() + deep.Double(1)
}

// Pure is deterministic: no fact.
func Pure(a, b int) int { return a + b + deep.Double(b) }

// Pick is generic: calls of its instances carry its fact.
func Pick[T any](items []T) T { // want Pick:"nondeterministic\\(math/rand.Intn called at helpers/helpers.go:\\d+\\)"
	return items[rand.Intn(len(items))]
}

// Store saves to a file.
type Store struct{ path string }

// NewStore is deterministic: no fact.
func NewStore(path string) *Store { return &Store{path: path} }

// Save writes a file.
func (s *Store) Save(data []byte) error { // want Save:"nondeterministic\\(os.WriteFile called at helpers/helpers.go:\\d+\\)"
	return os.WriteFile(s.path, data, 0o600)
}

// RegisteredElsewhere is a workflow registered by another package.
func RegisteredElsewhere(ctx workflow.Context) (string, error) { // want RegisteredElsewhere:"nondeterministic\\(time.Sleep called at helpers/helpers.go:\\d+\\)"
	time.Sleep(time.Millisecond) // want `time.Sleep called: RegisteredElsewhere; use workflow.Sleep`
	return "done", nil
}

// Step is a workflow helper with a workflow.Context, deterministic.
func Step(ctx workflow.Context) error {
	return workflow.Sleep(ctx, time.Second)
}
