package propagation

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal/wfctx"
)

// Context is the workflow context (workflow.Context).
type Context = wfctx.Context

type (
	// HeaderWriter sets header fields of an outgoing request.
	HeaderWriter interface {
		Set(key string, value *commonpb.Payload)
	}

	// HeaderReader reads header fields of an incoming request.
	HeaderReader interface {
		Get(key string) (*commonpb.Payload, bool)
		// ForEachKey calls the function with each key and its value,
		// stopping at the first error, which it returns.
		ForEachKey(func(string, *commonpb.Payload) error) error
	}
)

// Propagator is what the functions here call of a context propagator:
// the root's ContextPropagator (workflow.ContextPropagator), declared
// there so that its methods name the API's Context as
// go.temporal.io/sdk's do. A propagator that also has
// EncodeHeaders() bool returning true (a CodecContextPropagator) has its
// fields go through the payload codec.
type Propagator interface {
	Inject(ctx context.Context, writer HeaderWriter) error
	Extract(ctx context.Context, reader HeaderReader) (context.Context, error)
	InjectFromWorkflow(ctx Context, writer HeaderWriter) error
	ExtractToWorkflow(ctx Context, reader HeaderReader) (Context, error)
}
