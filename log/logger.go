package log

// Logger receives the SDK's log messages: the worker's, the client's, and
// those workflow and activity code writes through workflow.GetLogger and
// activity.GetLogger. Set it with client.Options.Logger; NewStructuredLogger
// adapts a *slog.Logger.
//
// keyvals alternate keys and values, as with slog:
//
//	logger.Info("Charged card", "OrderID", id, "Attempt", 3)
//
// Implementations must be safe for concurrent use.
type Logger interface {
	// Debug logs detail useful while developing, such as each task polled.
	Debug(msg string, keyvals ...any)
	// Info logs normal events worth keeping, such as a worker starting.
	Info(msg string, keyvals ...any)
	// Warn logs something unexpected that the SDK recovered from.
	Warn(msg string, keyvals ...any)
	// Error logs a failure that needs attention.
	Error(msg string, keyvals ...any)
}

// WithLogger is implemented by loggers that can return a child logger which
// adds keyvals to every entry. With (the function) uses it when present.
type WithLogger interface {
	// With returns a logger that adds keyvals to every entry it writes.
	// It must not change the receiver.
	With(keyvals ...any) Logger
}

// WithSkipCallers is implemented by loggers that report the caller's source
// location, so that code wrapping the logger reports its own caller's
// location rather than the wrapper's. Skip (the function) uses it when
// present.
type WithSkipCallers interface {
	// WithCallerSkip returns a logger that skips depth more stack frames
	// when it finds the caller. It must not change the receiver.
	WithCallerSkip(depth int) Logger
}
