// Package log defines the Logger interface the SDK writes its diagnostics
// to, optional extensions a Logger may implement (With, caller skipping),
// helpers that use those extensions when present, and an adapter that turns
// a standard library *slog.Logger into a Logger.
package log
