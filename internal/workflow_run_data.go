package internal

import (
	"slices"

	"github.com/durable-go/sdk/internal/failure"
)

// GetLastCompletionResult decodes the result of the previous run of a
// cron or retried workflow into d; ErrNoData when there is none.
func GetLastCompletionResult(ctx Context, d ...any) error {
	r := runOf(ctx)
	if !r.intercepted {
		return r.lastCompletionResult(d)
	}
	return r.outbound.GetLastCompletionResult(ctx, passArgs(d)...)
}

// HasLastCompletionResult reports whether the previous run of a cron or
// retried workflow left a result.
func HasLastCompletionResult(ctx Context) bool {
	return runOf(ctx).outbound.HasLastCompletionResult(ctx)
}

// GetLastError returns the failure of the previous run of a retried or
// cron workflow, or nil.
func GetLastError(ctx Context) error { return runOf(ctx).outbound.GetLastError(ctx) }

// lastCompletionResult is GetLastCompletionResult at the end of the
// interceptor chain.
func (r *workflowRun) lastCompletionResult(d []any) error {
	p := r.exec.Info().LastCompletionResult
	if len(p.GetPayloads()) == 0 {
		return failure.ErrNoData
	}
	return r.dc.FromPayloads(p, d...)
}

// hasLastCompletionResult is HasLastCompletionResult at the end of the
// interceptor chain.
func (r *workflowRun) hasLastCompletionResult() bool {
	return len(r.exec.Info().LastCompletionResult.GetPayloads()) > 0
}

// lastError is GetLastError at the end of the interceptor chain.
func (r *workflowRun) lastError() error {
	f := r.exec.Info().ContinuedFailure
	if f == nil {
		return nil
	}
	return r.fc.FailureToError(f)
}

// GetUnhandledSignalNames lists, sorted, the signals that arrived and were
// not received yet.
func GetUnhandledSignalNames(ctx Context) []string {
	var names []string
	for _, c := range runOf(ctx).signals.list {
		if c.Len() > 0 {
			names = append(names, c.Name())
		}
	}
	slices.Sort(names)
	return names
}

// SetCurrentDetails sets a description of what the workflow is doing now,
// shown in the UI (the workflow's metadata).
func SetCurrentDetails(ctx Context, details string) { runOf(ctx).currentDetails = details }

// GetCurrentDetails returns what SetCurrentDetails set.
func GetCurrentDetails(ctx Context) string { return runOf(ctx).currentDetails }
