package internal

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/wfsync"
)

// dataConverterKey holds the converter WithDataConverter set.
type dataConverterKey struct{}

// WithDataConverter returns a context whose workflow calls (activities,
// local activities, child workflows, external signals, continue-as-new,
// side effects) encode their arguments and decode their results with dc
// instead of the worker's data converter.
func WithDataConverter(ctx Context, dc converter.DataConverter) Context {
	if dc == nil {
		panic("workflow.WithDataConverter: the data converter is nil")
	}
	return WithValue(ctx, dataConverterKey{}, dc)
}

// dataConverter is what workflow code converts with in ctx: the converter
// WithDataConverter set, else the worker's; told the workflow context
// when it is converter.ContextAware, as go.temporal.io/sdk tells it.
func (r *workflowRun) dataConverter(ctx Context) converter.DataConverter {
	dc := r.config.dc
	if set, ok := ctx.Value(dataConverterKey{}).(converter.DataConverter); ok {
		dc = set
	}
	if aware, ok := dc.(converter.ContextAware); ok {
		dc = aware.WithWorkflowContext(ctx)
	}
	return dc
}

// DataConverterWithoutDeadlockDetection returns a converter whose
// conversions in workflow code stop the deadlock clock while they run,
// for converters that legitimately take long (a remote codec, a key
// service). Elsewhere it converts as dc does.
func DataConverterWithoutDeadlockDetection(dc converter.DataConverter) converter.DataConverter {
	return &noDeadlockConverter{dc: dc}
}

type noDeadlockConverter struct {
	dc    converter.DataConverter
	pause func() (resume func()) // set when bound to a workflow context
}

func (c *noDeadlockConverter) WithWorkflowContext(ctx converter.WorkflowContext) converter.DataConverter {
	dc := c.dc
	if aware, ok := dc.(converter.ContextAware); ok {
		dc = aware.WithWorkflowContext(ctx)
	}
	return &noDeadlockConverter{dc: dc, pause: wfsync.RuntimeOf(ctx).Dispatcher().PauseDeadlockDetection}
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
