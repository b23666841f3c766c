package failure

import (
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
)

// TimeoutError reports that an activity, child workflow or workflow ran
// out of time.
type TimeoutError struct {
	origin
	msg                  string
	timeoutType          enumspb.TimeoutType
	cause                error
	lastHeartbeatDetails errorDetails
}

// NewTimeoutError returns a TimeoutError. Pass an *EncodedValues as the only
// detail to attach heartbeat details received from the server.
func NewTimeoutError(message string, timeoutType enumspb.TimeoutType, cause error, lastHeartbeatDetails ...any) error {
	return &TimeoutError{
		msg:                  message,
		timeoutType:          timeoutType,
		cause:                cause,
		lastHeartbeatDetails: newErrorDetails(lastHeartbeatDetails),
	}
}

// NewHeartbeatTimeoutError returns a heartbeat TimeoutError with the given
// last heartbeat details.
func NewHeartbeatTimeoutError(details ...any) error {
	return NewTimeoutError("heartbeat timeout", enumspb.TIMEOUT_TYPE_HEARTBEAT, nil, details...)
}

// Error returns the message and the timeout type, and the cause if any.
func (e *TimeoutError) Error() string { return describeChain(e) }

func (e *TimeoutError) head() string { return fmt.Sprintf("%s (type: %s)", e.msg, e.timeoutType) }

// Message returns the message alone.
func (e *TimeoutError) Message() string { return e.msg }

// TimeoutType says which timeout fired.
func (e *TimeoutError) TimeoutType() enumspb.TimeoutType { return e.timeoutType }

// HasLastHeartbeatDetails reports whether heartbeat details are attached.
func (e *TimeoutError) HasLastHeartbeatDetails() bool {
	return e.lastHeartbeatDetails != nil && e.lastHeartbeatDetails.HasValues()
}

// LastHeartbeatDetails decodes the details of the last heartbeat before the
// timeout, or returns ErrNoData.
func (e *TimeoutError) LastHeartbeatDetails(d ...any) error {
	if !e.HasLastHeartbeatDetails() {
		return ErrNoData
	}
	return e.lastHeartbeatDetails.Get(d...)
}

// Unwrap returns the cause, such as the last attempt's failure.
func (e *TimeoutError) Unwrap() error { return e.cause }
