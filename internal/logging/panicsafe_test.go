package logging

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/durable-go/sdk/log"
)

// panickyLogger panics in every method while panicking is set, and
// records what it logs otherwise.
type panickyLogger struct {
	panicking bool
	keyvals   []any
	lines     *[]string
}

func (l *panickyLogger) log(msg string, keyvals []any) {
	if l.panicking {
		panic("the log sink is gone")
	}
	line := msg
	for _, kv := range append(append([]any(nil), l.keyvals...), keyvals...) {
		line += fmt.Sprint(" ", kv)
	}
	*l.lines = append(*l.lines, line)
}

func (l *panickyLogger) Debug(msg string, keyvals ...any) { l.log(msg, keyvals) }
func (l *panickyLogger) Info(msg string, keyvals ...any)  { l.log(msg, keyvals) }
func (l *panickyLogger) Warn(msg string, keyvals ...any)  { l.log(msg, keyvals) }
func (l *panickyLogger) Error(msg string, keyvals ...any) { l.log(msg, keyvals) }

func (l *panickyLogger) With(keyvals ...any) log.Logger {
	if l.panicking {
		panic("With is broken too")
	}
	return &panickyLogger{keyvals: append(append([]any(nil), l.keyvals...), keyvals...), lines: l.lines}
}

// A logger that panics has its calls dropped, never its caller ended; the
// first panic is reported once on the fallback, with its stack, for every
// logger derived from it.
func TestPanicSafeLoggerDropsPanickingCallsAndReportsTheFirst(t *testing.T) {
	var fallback bytes.Buffer
	var lines []string
	l := newPanicSafeLogger(&panickyLogger{panicking: true, lines: &lines}, &fallback)

	l.Info("polling failed", "Error", "unavailable")
	l.Debug("a")
	l.Warn("b")
	l.Error("c")
	child := log.With(l, "TaskQueue", "orders")
	child.Error("d")
	log.Skip(child, 2).Warn("e")

	report := fallback.String()
	if strings.Count(report, "durable-go: the configured logger") != 1 ||
		!strings.Contains(report, `the configured logger (client.Options.Logger) panicked in Info("polling failed"): the log sink is gone`) ||
		!strings.Contains(report, "panicsafe_test.go") {
		t.Errorf("the fallback got %q; want one report of the first panic, with its stack", report)
	}
	if len(lines) != 0 {
		t.Errorf("the panicking logger logged %q", lines)
	}
	if NewPanicSafeLogger(l) != l {
		t.Error("a logger already safe was wrapped again")
	}
}

// When the logger's own With panics, the child adds the key-values
// itself; a logger that works is called as it is.
func TestPanicSafeLoggerKeepsWithWorking(t *testing.T) {
	var fallback bytes.Buffer
	var lines []string
	user := &panickyLogger{panicking: true, lines: &lines}
	l := newPanicSafeLogger(user, &fallback)
	child := log.With(l, "TaskQueue", "orders")
	user.panicking = false
	child.Info("started", "Worker", 1)
	if len(lines) != 1 || lines[0] != "started TaskQueue orders Worker 1" {
		t.Errorf("a child made while With panicked logged %q, want its key-values and the call's", lines)
	}
	if !strings.Contains(fallback.String(), "panicked in With: With is broken too") {
		t.Errorf("the fallback got %q", fallback.String())
	}

	lines = nil
	log.With(l, "Namespace", "default").Warn("fine")
	if len(lines) != 1 || lines[0] != "fine Namespace default" {
		t.Errorf("a working With gave %q", lines)
	}
}

// The guard adds a frame and tells the logger to skip it: the source a
// logger reports is still the caller's.
func TestPanicSafeLoggerKeepsTheCallersSource(t *testing.T) {
	var buf bytes.Buffer
	handler := slog.NewTextHandler(&buf, &slog.HandlerOptions{AddSource: true})
	l := NewPanicSafeLogger(log.NewStructuredLogger(slog.New(handler)))
	l.Info("here")
	log.With(l, "k", "v").Info("there")
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if !strings.Contains(line, "panicsafe_test.go") {
			t.Errorf("the source of %q is not the caller's", line)
		}
	}
}

// Loggers used from many goroutines at once report once and race on
// nothing.
func TestPanicSafeLoggerIsSafeForConcurrentUse(t *testing.T) {
	var fallback lockedBuffer
	var lines []string
	l := newPanicSafeLogger(&panickyLogger{panicking: true, lines: &lines}, &fallback)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				log.With(l, "k", "v").Error("x")
			}
		})
	}
	wg.Wait()
	if n := strings.Count(fallback.String(), "durable-go: the configured logger"); n != 1 {
		t.Errorf("%d reports, want 1", n)
	}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
