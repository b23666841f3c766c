package resilience

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
)

// dialDirect connects to the shared dev server without any proxy: the
// test's own view of the workflows, unaffected by the faults it injects.
func dialDirect(t *testing.T) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Logger: &lineLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// lineLogger keeps what the SDK logs, one line per record: the level,
// the message, then its key-value pairs.
type lineLogger struct {
	mu    sync.Mutex
	lines []string
}

func (l *lineLogger) record(level, msg string, keyvals []any) {
	var b strings.Builder
	b.WriteString(level + " " + msg)
	for i := 0; i+1 < len(keyvals); i += 2 {
		fmt.Fprintf(&b, " %v=%v", keyvals[i], keyvals[i+1])
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, b.String())
}

func (l *lineLogger) Debug(msg string, keyvals ...any) { l.record("DEBUG", msg, keyvals) }
func (l *lineLogger) Info(msg string, keyvals ...any)  { l.record("INFO", msg, keyvals) }
func (l *lineLogger) Warn(msg string, keyvals ...any)  { l.record("WARN", msg, keyvals) }
func (l *lineLogger) Error(msg string, keyvals ...any) { l.record("ERROR", msg, keyvals) }

// all returns every line logged so far.
func (l *lineLogger) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// count is how many lines contain s.
func (l *lineLogger) count(s string) int {
	n := 0
	for _, line := range l.all() {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

// waitUntil polls cond until it holds, failing t after limit.
func waitUntil(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
