package frontend

import (
	"context"

	"go.temporal.io/api/workflowservice/v1"
)

// ServerVersion is the version the embedded server reports.
const ServerVersion = "embedded"

// GetSystemInfo reports what the server supports. Eager workflow start
// and build-ID versioning are left out: the server does not do them.
func (f *Frontend) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	return &workflowservice.GetSystemInfoResponse{
		ServerVersion: ServerVersion,
		Capabilities: &workflowservice.GetSystemInfoResponse_Capabilities{
			SignalAndQueryHeader:            true,
			InternalErrorDifferentiation:    true,
			ActivityFailureIncludeHeartbeat: true,
			EncodedFailureAttributes:        true,
			UpsertMemo:                      true,
			SdkMetadata:                     true,
		},
	}, nil
}
