package failure

// CanceledErrorOptions are the attributes of a CanceledError.
type CanceledErrorOptions struct {
	// Message defaults to "canceled".
	Message string
	// Details are values the handler of the error can decode.
	Details []any
	// Cause is the error that led to the cancellation.
	Cause error
}

// CanceledError reports that a workflow, activity or other operation was
// canceled.
type CanceledError struct {
	origin
	msg     string
	cause   error
	details errorDetails
}

// NewCanceledError returns a CanceledError with the given details.
func NewCanceledError(details ...any) error {
	return NewCanceledErrorWithOptions(CanceledErrorOptions{Details: details})
}

// NewCanceledErrorWithOptions returns a CanceledError with all attributes given.
func NewCanceledErrorWithOptions(options CanceledErrorOptions) error {
	msg := options.Message
	if msg == "" {
		msg = "canceled"
	}
	return &CanceledError{msg: msg, cause: options.Cause, details: newErrorDetails(options.Details)}
}

// Error returns the message.
func (e *CanceledError) Error() string { return e.msg }

// HasDetails reports whether the error carries details.
func (e *CanceledError) HasDetails() bool { return e.details != nil && e.details.HasValues() }

// Details decodes the details into the given pointers, or returns ErrNoData.
func (e *CanceledError) Details(d ...any) error {
	if !e.HasDetails() {
		return ErrNoData
	}
	return e.details.Get(d...)
}

// Unwrap returns the cause.
func (e *CanceledError) Unwrap() error { return e.cause }
