package base

import (
	"fmt"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
)

// EncodeMemo encodes the memo of a workflow start (a client's, a child's,
// a schedule's) with the data converter dc, falling
// back to the default one for values it refuses, as the official SDK does.
func EncodeMemo(dc converter.DataConverter, memo map[string]any) (*commonpb.Memo, error) {
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
