package simpleplugin

import (
	"fmt"
	"sync"
)

// hookLog records the calls a test's hooks make, in order.
type hookLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *hookLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, fmt.Sprintf(format, args...))
}

func (l *hookLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	calls := l.calls
	l.calls = nil
	return calls
}
