package logging

import "github.com/durable-go/sdk/log"

// keyvalsLogger adds keyvals ahead of every message's own. Unlike
// log.With, it makes no copy of the next logger's handler, which costs
// more than most tasks log: an activity's logger is made for every
// activity task.
type keyvalsLogger struct {
	next    log.Logger // told to skip keyvalsLogger's frame
	keyvals []any
}

var (
	_ log.WithLogger      = (*keyvalsLogger)(nil)
	_ log.WithSkipCallers = (*keyvalsLogger)(nil)
)

// WithKeyvals returns a logger that adds keyvals to logger's messages,
// ahead of their own, and reports its caller's line.
func WithKeyvals(logger log.Logger, keyvals ...any) log.Logger {
	return &keyvalsLogger{next: log.Skip(logger, 1), keyvals: keyvals}
}

func (l *keyvalsLogger) Debug(msg string, keyvals ...any) { l.next.Debug(msg, l.join(keyvals)...) }
func (l *keyvalsLogger) Info(msg string, keyvals ...any)  { l.next.Info(msg, l.join(keyvals)...) }
func (l *keyvalsLogger) Warn(msg string, keyvals ...any)  { l.next.Warn(msg, l.join(keyvals)...) }
func (l *keyvalsLogger) Error(msg string, keyvals ...any) { l.next.Error(msg, l.join(keyvals)...) }

func (l *keyvalsLogger) With(keyvals ...any) log.Logger {
	return &keyvalsLogger{next: l.next, keyvals: l.join(keyvals)}
}

func (l *keyvalsLogger) WithCallerSkip(depth int) log.Logger {
	return &keyvalsLogger{next: log.Skip(l.next, depth), keyvals: l.keyvals}
}

func (l *keyvalsLogger) join(keyvals []any) []any {
	return append(l.keyvals[:len(l.keyvals):len(l.keyvals)], keyvals...)
}
