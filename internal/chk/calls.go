package chk

import (
	"fmt"
	"sync"
)

// Calls records the calls a test's hooks make (plugins, interceptors), in
// order; its zero value is ready to use, from any goroutine.
type Calls struct {
	mu    sync.Mutex
	calls []string
}

// Add records a call, described by format and args.
func (c *Calls) Add(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, fmt.Sprintf(format, args...))
}

// Take returns the calls recorded since the last Take.
func (c *Calls) Take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	calls := c.calls
	c.calls = nil
	return calls
}
