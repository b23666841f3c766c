package log

import (
	"context"
	"log/slog"
	"runtime"
	"time"
)

// NewStructuredLogger adapts a *slog.Logger to Logger. The adapter supports
// With and caller skipping, so the source location slog records (with
// HandlerOptions.AddSource) is the code that called the SDK logger, not the
// adapter. A nil logger means slog.Default().
func NewStructuredLogger(logger *slog.Logger) Logger {
	if logger == nil {
		logger = slog.Default()
	}
	return &slogAdapter{logger: logger}
}

type slogAdapter struct {
	logger *slog.Logger
	// skip counts frames, added by wrappers, between the user's call and
	// the level method of this adapter.
	skip int
}

var (
	_ WithLogger      = (*slogAdapter)(nil)
	_ WithSkipCallers = (*slogAdapter)(nil)
)

func (a *slogAdapter) Debug(msg string, keyvals ...any) { a.log(slog.LevelDebug, msg, keyvals) }
func (a *slogAdapter) Info(msg string, keyvals ...any)  { a.log(slog.LevelInfo, msg, keyvals) }
func (a *slogAdapter) Warn(msg string, keyvals ...any)  { a.log(slog.LevelWarn, msg, keyvals) }
func (a *slogAdapter) Error(msg string, keyvals ...any) { a.log(slog.LevelError, msg, keyvals) }

func (a *slogAdapter) With(keyvals ...any) Logger {
	return &slogAdapter{logger: a.logger.With(keyvals...), skip: a.skip}
}

func (a *slogAdapter) WithCallerSkip(depth int) Logger {
	return &slogAdapter{logger: a.logger, skip: a.skip + depth}
}

// log must be called directly by a level method: the frame count below
// assumes runtime.Callers, log and the level method sit above the caller.
func (a *slogAdapter) log(level slog.Level, msg string, keyvals []any) {
	ctx := context.Background()
	if !a.logger.Enabled(ctx, level) {
		return
	}
	var pcs [1]uintptr
	runtime.Callers(3+a.skip, pcs[:])
	record := slog.NewRecord(time.Now(), level, msg, pcs[0])
	record.Add(keyvals...)
	_ = a.logger.Handler().Handle(ctx, record)
}
