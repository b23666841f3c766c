package logging

import "github.com/durable-go/sdk/log"

// NewReplayAwareLogger returns a logger that forwards to logger except
// while isReplaying reports true, when it drops every message. isReplaying
// is called on each message, so it must be cheap and safe to call from the
// goroutine that logs.
func NewReplayAwareLogger(logger log.Logger, isReplaying func() bool) log.Logger {
	// Our methods add one frame between the caller and logger.
	return &replayAwareLogger{next: log.Skip(logger, 1), isReplaying: isReplaying}
}

type replayAwareLogger struct {
	next        log.Logger
	isReplaying func() bool
}

var (
	_ log.WithLogger      = (*replayAwareLogger)(nil)
	_ log.WithSkipCallers = (*replayAwareLogger)(nil)
)

func (l *replayAwareLogger) Debug(msg string, keyvals ...any) {
	if !l.isReplaying() {
		l.next.Debug(msg, keyvals...)
	}
}

func (l *replayAwareLogger) Info(msg string, keyvals ...any) {
	if !l.isReplaying() {
		l.next.Info(msg, keyvals...)
	}
}

func (l *replayAwareLogger) Warn(msg string, keyvals ...any) {
	if !l.isReplaying() {
		l.next.Warn(msg, keyvals...)
	}
}

func (l *replayAwareLogger) Error(msg string, keyvals ...any) {
	if !l.isReplaying() {
		l.next.Error(msg, keyvals...)
	}
}

// With keeps the replay check on the child.
func (l *replayAwareLogger) With(keyvals ...any) log.Logger {
	return &replayAwareLogger{next: log.With(l.next, keyvals...), isReplaying: l.isReplaying}
}

func (l *replayAwareLogger) WithCallerSkip(depth int) log.Logger {
	return &replayAwareLogger{next: log.Skip(l.next, depth), isReplaying: l.isReplaying}
}
