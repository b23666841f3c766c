package clientimpl

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/propagation"
)

// workflowDataConverter is the client's data converter as it applies to
// one workflow: told the Go context (converter.ContextAware) and the
// workflow it converts for.
func (c *workflowClient) workflowDataConverter(ctx context.Context, workflowID string) converter.DataConverter {
	dc := c.dataConverter
	if aware, ok := dc.(converter.ContextAware); ok {
		dc = aware.WithContext(ctx)
	}
	return clientSerializationContext(dc, c.namespace, workflowID)
}

// converterFor is the client's data converter for one workflow, outside
// any call (to decode results that arrive later).
func (c *workflowClient) converterFor(workflowID string) converter.DataConverter {
	return clientSerializationContext(c.dataConverter, c.namespace, workflowID)
}

func clientSerializationContext(dc converter.DataConverter, namespace, workflowID string) converter.DataConverter {
	return converter.WithDataConverterSerializationContext(dc, converter.WorkflowSerializationContext{
		Namespace:  namespace,
		WorkflowID: workflowID,
	})
}

// workflowFailureConverter is the client's failure converter for one
// workflow.
func (c *workflowClient) workflowFailureConverter(workflowID string) converter.FailureConverter {
	return converter.WithFailureConverterSerializationContext(c.failureConverter, converter.WorkflowSerializationContext{
		Namespace:  c.namespace,
		WorkflowID: workflowID,
	})
}

// clientEncodedValue is a converter.EncodedValue: payloads and the converter
// that decodes them.
type clientEncodedValue struct {
	payloads *commonpb.Payloads
	dc       converter.DataConverter
}

// newClientEncodedValue wraps payloads; dc defaults to the default converter.
func newClientEncodedValue(payloads *commonpb.Payloads, dc converter.DataConverter) converter.EncodedValue {
	if dc == nil {
		dc = converter.GetDefaultDataConverter()
	}
	return &clientEncodedValue{payloads: payloads, dc: dc}
}

// HasValue reports whether there is a payload.
func (v *clientEncodedValue) HasValue() bool { return len(v.payloads.GetPayloads()) > 0 }

// Get decodes the first payload into valuePtr.
func (v *clientEncodedValue) Get(valuePtr any) error {
	if !v.HasValue() {
		return failure.ErrNoData
	}
	return v.dc.FromPayloads(v.payloads, valuePtr)
}

// Payloads returns the payloads as received (converter.ValuesPayloads).
func (v *clientEncodedValue) Payloads() *commonpb.Payloads { return v.payloads }

// NewValue wraps payloads returned by the server (a query result, say) for
// decoding with the default data converter.
func NewValue(payloads *commonpb.Payloads) converter.EncodedValue {
	return newClientEncodedValue(payloads, nil)
}

// NewValues wraps payloads returned by the server (heartbeat details in a
// description, say) for decoding with the default data converter.
func NewValues(payloads *commonpb.Payloads) converter.EncodedValues {
	return failure.NewEncodedValues(payloads, nil)
}

// outgoingHeader is the header of a request about workflowID: what the
// interceptors wrote and the propagators inject, the fields marked for it
// encoded with the codec of the client's data converter for that workflow
// (see propagation.ClientOutgoingHeader).
func (c *workflowClient) outgoingHeader(ctx context.Context, workflowID string) (*commonpb.Header, error) {
	return propagation.ClientOutgoingHeader(ctx, c.propagators, func() converter.PayloadCodec {
		return propagation.HeaderCodec(c.converterFor(workflowID))
	})
}
