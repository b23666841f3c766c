package logging

import (
	"io"
	"log/slog"
	"os"

	"github.com/durable-go/sdk/log"
)

// NewDefaultLogger returns the logger used when none is configured: slog's
// text format on stderr, Info level and above.
func NewDefaultLogger() log.Logger {
	return NewTextLogger(os.Stderr, slog.LevelInfo)
}

// NewTextLogger returns a logger writing slog's text format to w, dropping
// messages below level.
func NewTextLogger(w io.Writer, level slog.Level) log.Logger {
	handler := slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})
	return log.NewStructuredLogger(slog.New(handler))
}
