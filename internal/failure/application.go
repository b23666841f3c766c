package failure

import (
	"fmt"
	"time"
)

// ApplicationErrorCategory classifies an application error for logging and
// metrics.
type ApplicationErrorCategory int

const (
	// ApplicationErrorCategoryUnspecified is an ordinary error.
	ApplicationErrorCategoryUnspecified ApplicationErrorCategory = iota
	// ApplicationErrorCategoryBenign is expected in normal operation: it is
	// logged at a lower level and not counted as a failure in metrics.
	ApplicationErrorCategoryBenign
)

// ApplicationErrorOptions are the optional attributes of an ApplicationError.
type ApplicationErrorOptions struct {
	// NonRetryable stops retries whatever the retry policy says.
	NonRetryable bool
	// Cause is the error that led to this one.
	Cause error
	// Details are values the handler of the error can decode.
	Details []any
	// NextRetryDelay overrides the retry policy's delay before the next
	// attempt; zero keeps the policy's. Servers before 1.24.2 ignore it.
	NextRetryDelay time.Duration
	// Category sets how the error is logged and counted.
	Category ApplicationErrorCategory
}

// ApplicationError is an error raised by workflow or activity code. Any
// other Go error crossing the wire becomes one, with the Go type name as its
// type.
type ApplicationError struct {
	origin
	msg            string
	errType        string
	nonRetryable   bool
	cause          error
	details        errorDetails
	nextRetryDelay time.Duration
	category       ApplicationErrorCategory
}

// NewApplicationError returns a retryable ApplicationError.
func NewApplicationError(message, errType string, details ...any) error {
	return NewApplicationErrorWithOptions(message, errType, ApplicationErrorOptions{Details: details})
}

// NewApplicationErrorWithCause returns a retryable ApplicationError caused by cause.
func NewApplicationErrorWithCause(message, errType string, cause error, details ...any) error {
	return NewApplicationErrorWithOptions(message, errType, ApplicationErrorOptions{Cause: cause, Details: details})
}

// NewNonRetryableApplicationError returns an ApplicationError that is never
// retried.
func NewNonRetryableApplicationError(message, errType string, cause error, details ...any) error {
	return NewApplicationErrorWithOptions(message, errType, ApplicationErrorOptions{
		NonRetryable: true, Cause: cause, Details: details,
	})
}

// NewApplicationErrorWithOptions returns an ApplicationError with all
// attributes given.
func NewApplicationErrorWithOptions(message, errType string, options ApplicationErrorOptions) error {
	return &ApplicationError{
		msg:            message,
		errType:        errType,
		nonRetryable:   options.NonRetryable,
		cause:          options.Cause,
		details:        newErrorDetails(options.Details),
		nextRetryDelay: options.NextRetryDelay,
		category:       options.Category,
	}
}

// Error returns the message, with the type, retryability and cause when set.
func (e *ApplicationError) Error() string { return describeChain(e) }

// head is the error's message without its cause.
func (e *ApplicationError) head() string {
	if e.errType == "" {
		return e.msg
	}
	return fmt.Sprintf("%s (type: %s, retryable: %v)", e.msg, e.errType, !e.nonRetryable)
}

// Message returns the message alone.
func (e *ApplicationError) Message() string { return e.msg }

// Type returns the error type: the one given to the constructor, or the Go
// type name of the error this one was converted from (such as "MyError").
// Retry policies list non-retryable types by this name.
func (e *ApplicationError) Type() string { return e.errType }

// NonRetryable reports whether the error stops retries.
func (e *ApplicationError) NonRetryable() bool { return e.nonRetryable }

// HasDetails reports whether the error carries details.
func (e *ApplicationError) HasDetails() bool { return e.details != nil && e.details.HasValues() }

// Details decodes the details into the given pointers, or returns ErrNoData.
func (e *ApplicationError) Details(d ...any) error {
	if !e.HasDetails() {
		return ErrNoData
	}
	return e.details.Get(d...)
}

// NextRetryDelay returns the requested delay before the next retry; zero
// means the retry policy decides.
func (e *ApplicationError) NextRetryDelay() time.Duration { return e.nextRetryDelay }

// Category returns the error's category.
func (e *ApplicationError) Category() ApplicationErrorCategory { return e.category }

// Unwrap returns the cause.
func (e *ApplicationError) Unwrap() error { return e.cause }
