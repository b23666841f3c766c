// Package deep is a helper two packages away from the workflows.
package deep

import "time"

// Now reads the Go clock.
func Now() time.Time { // want Now:"nondeterministic\\(time.Now called at deep/deep.go:8\\)"
	return time.Now()
}

// Double is deterministic: no fact.
func Double(n int) int { return 2 * n }
