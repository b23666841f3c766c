package failure

// CanceledError reports that an operation was canceled.
type CanceledError struct{}

// NewCanceledError returns a CanceledError.
func NewCanceledError(details ...any) error { return &CanceledError{} }

func (e *CanceledError) Error() string { return "canceled" }
