package log

// With returns a Logger that adds keyvals to every entry. It uses the
// logger's own With when it implements WithLogger, and otherwise wraps it.
func With(logger Logger, keyvals ...any) Logger {
	if wl, ok := logger.(WithLogger); ok {
		return wl.With(keyvals...)
	}
	return &prefixLogger{
		// The wrapper's methods add one frame between the caller and logger.
		next:    Skip(logger, 1),
		keyvals: append([]any(nil), keyvals...),
	}
}

// Skip returns a Logger that skips depth more stack frames when it reports
// the caller's location, if logger implements WithSkipCallers; otherwise it
// returns logger unchanged.
func Skip(logger Logger, depth int) Logger {
	if sl, ok := logger.(WithSkipCallers); ok {
		return sl.WithCallerSkip(depth)
	}
	return logger
}

// prefixLogger prepends fixed keyvals to every entry for loggers that
// cannot do it themselves.
type prefixLogger struct {
	next    Logger
	keyvals []any
}

var (
	_ WithLogger      = (*prefixLogger)(nil)
	_ WithSkipCallers = (*prefixLogger)(nil)
)

func (l *prefixLogger) Debug(msg string, keyvals ...any) { l.next.Debug(msg, l.join(keyvals)...) }
func (l *prefixLogger) Info(msg string, keyvals ...any)  { l.next.Info(msg, l.join(keyvals)...) }
func (l *prefixLogger) Warn(msg string, keyvals ...any)  { l.next.Warn(msg, l.join(keyvals)...) }
func (l *prefixLogger) Error(msg string, keyvals ...any) { l.next.Error(msg, l.join(keyvals)...) }

func (l *prefixLogger) With(keyvals ...any) Logger {
	return &prefixLogger{next: l.next, keyvals: l.join(keyvals)}
}

func (l *prefixLogger) WithCallerSkip(depth int) Logger {
	return &prefixLogger{next: Skip(l.next, depth), keyvals: l.keyvals}
}

// join always allocates, so loggers derived from the same parent never
// share (and overwrite) a backing array.
func (l *prefixLogger) join(keyvals []any) []any {
	out := make([]any, 0, len(l.keyvals)+len(keyvals))
	out = append(out, l.keyvals...)
	return append(out, keyvals...)
}
