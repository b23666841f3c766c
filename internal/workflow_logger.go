package internal

import (
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/log"
)

// runLogger is a workflow run's logger (GetLogger): the worker's logger,
// with the run's identity added to every message, silent while the run
// replays history unless the worker logs in replay. It is a field of the
// run, not a logger made for it: log.With would give every run a copy of
// the worker's handler, hundreds of bytes that a cached run would keep
// for messages it rarely writes. So the identity is added per message.
type runLogger struct {
	run  *workflowRun
	next log.Logger // the worker's logger, told to skip runLogger's frame
}

var (
	_ log.WithLogger      = (*runLogger)(nil)
	_ log.WithSkipCallers = (*runLogger)(nil)
)

func (l *runLogger) Debug(msg string, keyvals ...any) {
	if l.live() {
		l.next.Debug(msg, l.run.logKeyvals(keyvals)...)
	}
}

func (l *runLogger) Info(msg string, keyvals ...any) {
	if l.live() {
		l.next.Info(msg, l.run.logKeyvals(keyvals)...)
	}
}

func (l *runLogger) Warn(msg string, keyvals ...any) {
	if l.live() {
		l.next.Warn(msg, l.run.logKeyvals(keyvals)...)
	}
}

func (l *runLogger) Error(msg string, keyvals ...any) {
	if l.live() {
		l.next.Error(msg, l.run.logKeyvals(keyvals)...)
	}
}

// With returns a logger of its own, which carries the run's identity and
// keyvals; it stays silent in replay like this one.
func (l *runLogger) With(keyvals ...any) log.Logger {
	tagged := log.With(l.run.config.logger, l.run.logKeyvals(keyvals)...)
	if l.run.config.logDuringReplay {
		return tagged
	}
	return logging.NewReplayAwareLogger(tagged, l.run.exec.IsReplaying)
}

func (l *runLogger) WithCallerSkip(depth int) log.Logger {
	return &runLogger{run: l.run, next: log.Skip(l.next, depth)}
}

// live reports whether messages are written now.
func (l *runLogger) live() bool {
	return l.run.config.logDuringReplay || !l.run.exec.IsReplaying()
}

// logKeyvals puts the run's identity ahead of a message's keyvals.
func (r *workflowRun) logKeyvals(keyvals []any) []any {
	i := r.info
	return append([]any{"Namespace", i.Namespace, "TaskQueue", i.TaskQueueName,
		"WorkflowType", i.WorkflowType.Name, "WorkflowID", i.WorkflowExecution.ID, "RunID", i.WorkflowExecution.RunID}, keyvals...)
}
