package rpc

import (
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/errordetails/v1"
	"go.temporal.io/api/serviceerror"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// IsRetryable reports whether a failed call is worth repeating unchanged.
// internalIsFinal is true once the server has said (through its
// InternalErrorDifferentiation capability) that it returns Internal only
// for errors that will not go away.
func IsRetryable(err error, internalIsFinal bool) bool {
	st := serviceerror.ToStatus(err)
	switch st.Code() {
	case codes.Unavailable, codes.Unknown:
		return true
	case codes.Aborted:
		// Lost completion pages are recovered by resending all pages,
		// which only the worker can do.
		return !hasDetail[*errordetails.WorkflowTaskCompletionBufferLostFailure](st)
	case codes.ResourceExhausted:
		return !IsMessageTooLarge(err) && !isNamespaceRateLimit(st)
	case codes.Internal:
		return !internalIsFinal
	}
	return false
}

// IsMessageTooLarge reports whether gRPC refused a message for exceeding
// the size limit, a failure that repeating the same call cannot fix.
func IsMessageTooLarge(err error) bool {
	st := serviceerror.ToStatus(err)
	if st.Code() != codes.ResourceExhausted {
		return false
	}
	msg := st.Message()
	for _, prefix := range []string{
		"grpc: received message larger than max",
		"grpc: message after decompression larger than max",
		"grpc: received message after decompression larger than max",
		"grpc: trying to send message larger than max",
		"grpc: message too large",
		"trying to send message larger than max",
	} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

// isNamespaceRateLimit spots a namespace's own request quota being hit.
// Retrying at our pace only spends more of the same quota; the caller (a
// worker's poll loop, or the user) decides how long to back off.
func isNamespaceRateLimit(st *status.Status) bool {
	for _, d := range st.Details() {
		f, ok := d.(*errordetails.ResourceExhaustedFailure)
		if !ok || f.GetScope() != enumspb.RESOURCE_EXHAUSTED_SCOPE_NAMESPACE {
			continue
		}
		switch f.GetCause() {
		case enumspb.RESOURCE_EXHAUSTED_CAUSE_RPS_LIMIT,
			enumspb.RESOURCE_EXHAUSTED_CAUSE_APS_LIMIT,
			enumspb.RESOURCE_EXHAUSTED_CAUSE_OPS_LIMIT:
			return true
		}
	}
	return false
}

func hasDetail[T any](st *status.Status) bool {
	for _, d := range st.Details() {
		if _, ok := d.(T); ok {
			return true
		}
	}
	return false
}
