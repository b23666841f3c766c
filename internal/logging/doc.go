// Package logging holds the SDK's internal logger constructors: the default
// logger used when the user configures none, and the replay-aware wrapper
// the workflow engine puts around workflow loggers so that replaying
// history does not repeat log lines already written on the first run, and
// the guard around a user's logger that drops the calls that panic.
package logging
