package wfsync

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
)

// WithoutDeadlockDetection returns a converter whose conversions in
// workflow code stop the deadlock clock of the run's dispatcher while
// they run (workflow.DataConverterWithoutDeadlockDetection). Elsewhere it
// converts as dc does.
func WithoutDeadlockDetection(dc converter.DataConverter) converter.DataConverter {
	return &noDeadlockConverter{dc: dc}
}

// noDeadlockConverter is WithoutDeadlockDetection's converter.
type noDeadlockConverter struct {
	dc    converter.DataConverter
	pause func() (resume func()) // set when bound to a workflow context
}

func (c *noDeadlockConverter) WithWorkflowContext(ctx converter.WorkflowContext) converter.DataConverter {
	dc := c.dc
	if aware, ok := dc.(converter.ContextAware); ok {
		dc = aware.WithWorkflowContext(ctx)
	}
	return &noDeadlockConverter{dc: dc, pause: RuntimeOf(ctx).Dispatcher().PauseDeadlockDetection}
}

// WithSerializationContext tells the converter it wraps, so that a
// serialization-aware converter stays one when wrapped.
func (c *noDeadlockConverter) WithSerializationContext(sc converter.SerializationContext) converter.DataConverter {
	return &noDeadlockConverter{dc: converter.WithDataConverterSerializationContext(c.dc, sc), pause: c.pause}
}

func (c *noDeadlockConverter) WithContext(ctx context.Context) converter.DataConverter {
	if aware, ok := c.dc.(converter.ContextAware); ok {
		return &noDeadlockConverter{dc: aware.WithContext(ctx)}
	}
	return c
}

// paused runs f with the deadlock clock stopped, when bound to a workflow.
func (c *noDeadlockConverter) paused(f func()) {
	if c.pause != nil {
		defer c.pause()()
	}
	f()
}

func (c *noDeadlockConverter) ToPayload(value any) (p *commonpb.Payload, err error) {
	c.paused(func() { p, err = c.dc.ToPayload(value) })
	return p, err
}

func (c *noDeadlockConverter) FromPayload(payload *commonpb.Payload, valuePtr any) (err error) {
	c.paused(func() { err = c.dc.FromPayload(payload, valuePtr) })
	return err
}

func (c *noDeadlockConverter) ToPayloads(values ...any) (p *commonpb.Payloads, err error) {
	c.paused(func() { p, err = c.dc.ToPayloads(values...) })
	return p, err
}

func (c *noDeadlockConverter) FromPayloads(payloads *commonpb.Payloads, valuePtrs ...any) (err error) {
	c.paused(func() { err = c.dc.FromPayloads(payloads, valuePtrs...) })
	return err
}

func (c *noDeadlockConverter) ToString(input *commonpb.Payload) (s string) {
	c.paused(func() { s = c.dc.ToString(input) })
	return s
}

func (c *noDeadlockConverter) ToStrings(input *commonpb.Payloads) (s []string) {
	c.paused(func() { s = c.dc.ToStrings(input) })
	return s
}
