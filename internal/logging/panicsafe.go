package logging

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/durable-go/sdk/log"
)

// NewPanicSafeLogger returns a logger that forwards to logger, and drops
// a call that panics instead of letting the panic go on. The SDK logs
// from goroutines of its own (polls, heartbeats, Stop), where a panic in
// the user's logger would end the process (it does with
// go.temporal.io/sdk); in a workflow's code it would fail the task, and
// again at each retry. The first panic is reported on stderr, with its
// stack, so that the bug is seen; the others are dropped in silence. The
// loggers its With and WithCallerSkip make share that report. A logger
// that already is one is returned as it is.
func NewPanicSafeLogger(logger log.Logger) log.Logger {
	return newPanicSafeLogger(logger, os.Stderr)
}

func newPanicSafeLogger(logger log.Logger, fallback io.Writer) log.Logger {
	if l, ok := logger.(*panicSafeLogger); ok {
		return l
	}
	// Our methods add one frame between the caller and logger.
	l := &panicSafeLogger{report: &panicReport{fallback: fallback}}
	l.next = l.skip(logger, 1)
	return l
}

type panicSafeLogger struct {
	next   log.Logger
	report *panicReport
}

var (
	_ log.WithLogger      = (*panicSafeLogger)(nil)
	_ log.WithSkipCallers = (*panicSafeLogger)(nil)
)

func (l *panicSafeLogger) Debug(msg string, keyvals ...any) {
	defer l.recover("Debug", msg)
	l.next.Debug(msg, keyvals...)
}

func (l *panicSafeLogger) Info(msg string, keyvals ...any) {
	defer l.recover("Info", msg)
	l.next.Info(msg, keyvals...)
}

func (l *panicSafeLogger) Warn(msg string, keyvals ...any) {
	defer l.recover("Warn", msg)
	l.next.Warn(msg, keyvals...)
}

func (l *panicSafeLogger) Error(msg string, keyvals ...any) {
	defer l.recover("Error", msg)
	l.next.Error(msg, keyvals...)
}

// With keeps the guard on the child. If the logger's own With panics,
// the child adds keyvals itself.
func (l *panicSafeLogger) With(keyvals ...any) (child log.Logger) {
	defer func() {
		if p := recover(); p != nil {
			l.report.panicked("With", "", p)
			child = &panicSafeLogger{next: log.With(methodsOnly{l.next}, keyvals...), report: l.report}
		}
	}()
	return &panicSafeLogger{next: log.With(l.next, keyvals...), report: l.report}
}

func (l *panicSafeLogger) WithCallerSkip(depth int) log.Logger {
	return &panicSafeLogger{next: l.skip(l.next, depth), report: l.report}
}

// skip is log.Skip, or logger as it is if its WithCallerSkip panics.
func (l *panicSafeLogger) skip(logger log.Logger, depth int) (skipped log.Logger) {
	defer func() {
		if p := recover(); p != nil {
			l.report.panicked("WithCallerSkip", "", p)
			skipped = logger
		}
	}()
	return log.Skip(logger, depth)
}

// recover, deferred by a log method, drops the call if it panicked.
func (l *panicSafeLogger) recover(method, msg string) {
	if p := recover(); p != nil {
		l.report.panicked(method, msg, p)
	}
}

// methodsOnly hides a logger's With and WithCallerSkip, for log.With to
// add the key-values itself.
type methodsOnly struct{ log.Logger }

// panicReport reports the first panic of a logger on its fallback.
type panicReport struct {
	fallback io.Writer
	once     sync.Once
}

func (r *panicReport) panicked(method, msg string, p any) {
	r.once.Do(func() {
		call := method
		if msg != "" {
			call = fmt.Sprintf("%s(%q)", method, msg)
		}
		// The logger is what failed: this is the one line that does not
		// go through it.
		_, _ = fmt.Fprintf(r.fallback, "durable-go: the configured logger (client.Options.Logger) panicked in %s: %v\n"+
			"The SDK drops log calls that panic, and reports only this first one. The panic's stack:\n%s",
			call, p, debug.Stack())
	})
}
