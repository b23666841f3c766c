package rpc

import (
	"context"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"go.temporal.io/api/serviceerror"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// RetryPolicy controls the retry interceptor. Zero fields take the values
// of DefaultRetryPolicy.
type RetryPolicy struct {
	// InitialInterval is the wait before the first retry.
	InitialInterval time.Duration
	// BackoffCoefficient multiplies the wait after each retry.
	BackoffCoefficient float64
	// MaximumInterval caps the wait between attempts.
	MaximumInterval time.Duration
	// Jitter spreads each wait by up to this fraction either way, so that
	// many clients failing together do not retry together.
	Jitter float64
	// MaximumElapsed is how long to keep retrying, counted from the first
	// failure, when the caller's context has no deadline.
	MaximumElapsed time.Duration
	// AttemptTimeout bounds one attempt of an ordinary call.
	AttemptTimeout time.Duration
	// LongPollAttemptTimeout bounds one attempt of a long poll (see
	// IsLongPoll). It must exceed the server's long-poll timeout (about a
	// minute) so that an idle poll ends with the server's empty answer
	// rather than a client-side timeout.
	LongPollAttemptTimeout time.Duration
}

// DefaultRetryPolicy returns the policy used when Options.Retry is zero.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{
		InitialInterval:        200 * time.Millisecond,
		BackoffCoefficient:     2,
		MaximumInterval:        10 * time.Second,
		Jitter:                 0.2,
		MaximumElapsed:         time.Minute,
		AttemptTimeout:         10 * time.Second,
		LongPollAttemptTimeout: 70 * time.Second,
	}
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	d := DefaultRetryPolicy()
	if p.InitialInterval <= 0 {
		p.InitialInterval = d.InitialInterval
	}
	if p.BackoffCoefficient < 1 {
		p.BackoffCoefficient = d.BackoffCoefficient
	}
	if p.MaximumInterval <= 0 {
		p.MaximumInterval = d.MaximumInterval
	}
	if p.Jitter <= 0 || p.Jitter >= 1 {
		p.Jitter = d.Jitter
	}
	if p.MaximumElapsed <= 0 {
		p.MaximumElapsed = d.MaximumElapsed
	}
	if p.AttemptTimeout <= 0 {
		p.AttemptTimeout = d.AttemptTimeout
	}
	if p.LongPollAttemptTimeout <= 0 {
		p.LongPollAttemptTimeout = d.LongPollAttemptTimeout
	}
	return p
}

type noRetriesKey struct{}

// WithoutRetries marks ctx so calls made with it are attempted once. For
// callers that run their own retry loop, and for connection checks that
// must report the server's state now.
func WithoutRetries(ctx context.Context) context.Context {
	return context.WithValue(ctx, noRetriesKey{}, true)
}

func retriesDisabled(ctx context.Context) bool {
	v, _ := ctx.Value(noRetriesKey{}).(bool)
	return v
}

// retryInterceptor bounds every attempt (never beyond the caller's
// deadline) and repeats retryable failures with jittered exponential
// backoff until the caller's deadline, or MaximumElapsed without one.
//
// A worker's task queue poll is repeated here only when the connection
// failed (Unavailable, which watchConnection logs) or the attempt got
// lost: any other failure, retryable or not (Unknown, Internal, a
// ResourceExhausted), goes back at once to the worker's poll loop, which
// logs it and retries after its own backoff. Retried here it would be
// retried in silence for MaximumElapsed plus the poll's attempt timeout,
// about 70 s.
func retryInterceptor(p RetryPolicy, internalIsFinal *atomic.Bool) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		timeout := p.AttemptTimeout
		if IsLongPoll(method, req) {
			timeout = p.LongPollAttemptTimeout
		}
		callerDeadline, callerHasDeadline := ctx.Deadline()
		var firstFailure time.Time
		var lastFailure error // of the attempts before this one
		for attempt := 0; ; attempt++ {
			attemptCtx, cancel := context.WithTimeout(ctx, timeout)
			attemptDeadline, _ := attemptCtx.Deadline()
			err := invoker(attemptCtx, method, req, reply, cc, opts...)
			cancel()
			// contextEnded, not ctx.Err(): gRPC's timer for the caller's
			// deadline may end the attempt a moment before the context's
			// own timer marks it done.
			callerEnded := err != nil && contextEnded(ctx) != nil
			if callerEnded && lastFailure != nil {
				// The caller's context cut this attempt short: what was
				// being retried says more than its DeadlineExceeded.
				return lastFailure
			}
			if err == nil || retriesDisabled(ctx) || callerEnded {
				return err
			}
			if _, fromServer := status.FromError(err); !fromServer {
				// Failed before reaching the wire, e.g. credentials could
				// not be had: repeating at once will not help.
				return err
			}
			// When our per-attempt deadline, not the caller's, was the one
			// in force, DeadlineExceeded means this attempt got lost (the
			// server derives its own deadlines from ours), and the caller
			// still has time for another.
			ownDeadline := !callerHasDeadline || attemptDeadline.Before(callerDeadline)
			lost := ownDeadline && serviceerror.ToStatus(err).Code() == codes.DeadlineExceeded
			if !lost && !IsRetryable(err, internalIsFinal.Load()) {
				return err
			}
			if !lost && isTaskPoll(method) && serviceerror.ToStatus(err).Code() != codes.Unavailable {
				// The worker's poll loop retries it, after logging it.
				return err
			}
			lastFailure = err
			now := time.Now()
			if firstFailure.IsZero() {
				firstFailure = now
			}
			wait := p.backoff(ctx, attempt, now)
			if !p.mayWait(ctx, firstFailure, now, wait) || !Sleep(ctx, wait) {
				return err // past a deadline, the caller makes it DeadlineExceeded
			}
		}
	}
}

// backoff returns the jittered wait before retry number attempt+1. With a
// caller deadline the cap shrinks to a tenth of the time left, so short
// deadlines still get several tries.
func (p RetryPolicy) backoff(ctx context.Context, attempt int, now time.Time) time.Duration {
	limit := p.MaximumInterval
	if deadline, ok := ctx.Deadline(); ok {
		limit = min(limit, max(deadline.Sub(now)/10, p.InitialInterval))
	}
	wait := min(float64(p.InitialInterval)*math.Pow(p.BackoffCoefficient, float64(attempt)), float64(limit))
	wait *= 1 + p.Jitter*(2*rand.Float64()-1)
	return time.Duration(wait)
}

// mayWait reports whether a retry after wait still fits the budget. A
// caller's deadline is the whole budget: the call retries until it ends,
// then returns a *serviceerror.DeadlineExceeded that quotes the last
// failure, as go.temporal.io/sdk does (code written for it asserts that
// type). Without a deadline, MaximumElapsed is.
func (p RetryPolicy) mayWait(ctx context.Context, firstFailure, now time.Time, wait time.Duration) bool {
	if _, ok := ctx.Deadline(); ok {
		return true
	}
	return now.Add(wait).Sub(firstFailure) <= p.MaximumElapsed
}

// Sleep waits d, or until ctx ends; it reports whether d passed. The
// SDK's backoffs wait with it: a call's retries here, the worker
// runtime's polls and local activity attempts.
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
