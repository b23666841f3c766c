package converter

import (
	"context"

	"github.com/durable-go/sdk/internal/wfctx"
)

// WorkflowContext is the workflow package's Context (workflow.Context),
// named here so that converters can receive it without importing the
// workflow package. Its methods are context.Context's, made deterministic:
// Done returns a workflow channel, Err says whether the context was
// canceled, Value returns the value bound to a key, and Deadline reports
// none.
type WorkflowContext = wfctx.Context

// ContextAware may be implemented by a DataConverter that wants to see the
// workflow or activity context it converts for (for example to read a key
// from it). The SDK calls these methods before converting and uses the
// returned converter. Converters are also used without any context, so they
// must not require one.
type ContextAware interface {
	// WithWorkflowContext returns a converter for use inside workflow code.
	WithWorkflowContext(ctx WorkflowContext) DataConverter
	// WithContext returns a converter for use with a Go context, as in
	// activities and clients.
	WithContext(ctx context.Context) DataConverter
}
