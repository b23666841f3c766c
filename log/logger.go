package log

type (
	// Logger receives the SDK's log messages. keyvals alternate keys and
	// values: "WorkflowID", id, "Attempt", 3.
	Logger interface {
		Debug(msg string, keyvals ...any)
		Info(msg string, keyvals ...any)
		Warn(msg string, keyvals ...any)
		Error(msg string, keyvals ...any)
	}

	// WithLogger is implemented by loggers that can return a child logger
	// which adds keyvals to every entry. It must not change the receiver.
	WithLogger interface {
		With(keyvals ...any) Logger
	}

	// WithSkipCallers is implemented by loggers that report the caller's
	// source location and can return a child logger that skips depth more
	// stack frames, so that wrappers report their caller's location rather
	// than their own. It must not change the receiver.
	WithSkipCallers interface {
		WithCallerSkip(depth int) Logger
	}
)
