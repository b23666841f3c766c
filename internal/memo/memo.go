// Package memo encodes the memo of a workflow start: the unindexed fields a
// client, a parent workflow or a schedule gives a workflow it starts, which
// its runs read back (workflow.GetInfo) and visibility lists.
package memo

import (
	"fmt"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
)

// Encode encodes the memo of a workflow start (a client's, a child's,
// a schedule's) with the data converter dc, falling
// back to the default one for values it refuses, as the official SDK does.
func Encode(dc converter.DataConverter, memo map[string]any) (*commonpb.Memo, error) {
	if memo == nil {
		return nil, nil
	}
	fields := make(map[string]*commonpb.Payload, len(memo))
	for key, value := range memo {
		payload, err := dc.ToPayload(value)
		if err != nil {
			var fallbackErr error
			if payload, fallbackErr = converter.GetDefaultDataConverter().ToPayload(value); fallbackErr != nil {
				return nil, fmt.Errorf("memo %q (%T) cannot be encoded: %w", key, value, err)
			}
		}
		fields[key] = payload
	}
	return &commonpb.Memo{Fields: fields}, nil
}
