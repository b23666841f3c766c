package workflow

import (
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/propagation"
)

// ContextAware may be implemented by a DataConverter that wants to see the
// context of each conversion (a key chosen by a value of the workflow's
// context, say): the SDK converts through WithContext's or
// WithWorkflowContext's result. It is converter.ContextAware.
type ContextAware = converter.ContextAware

// WithDataConverter returns a context whose workflow calls (activities,
// local activities, child workflows, external signals, continue-as-new,
// side effects) encode their arguments and decode their results with dc
// instead of the worker's data converter.
func WithDataConverter(ctx Context, dc converter.DataConverter) Context {
	return internal.WithDataConverter(ctx, dc)
}

// DataConverterWithoutDeadlockDetection returns a converter whose
// conversions in workflow code stop the deadlock clock while they run,
// for converters that legitimately take long (a remote codec, a key
// service). Elsewhere it converts as c does.
func DataConverterWithoutDeadlockDetection(c converter.DataConverter) converter.DataConverter {
	return internal.DataConverterWithoutDeadlockDetection(c)
}

// ContextPropagator carries values (a trace, a tenant, a user) from the
// context of the code that starts a workflow or an activity into the
// context the workflow or activity runs with, through headers. Set it in
// client.Options.ContextPropagators; it then applies to everything that
// client and its workers start: workflows, activities, child workflows,
// signals, queries and updates.
//
// Its methods: Inject writes the values of a Go context (the client's
// caller, or an activity) into a header, and Extract reads them back into
// the Go context of an activity, or of client code receiving them;
// InjectFromWorkflow and ExtractToWorkflow do the same for workflow
// contexts. Values travel as payloads; Extract and ExtractToWorkflow must
// accept headers that lack them.
type ContextPropagator = internal.ContextPropagator

// CodecContextPropagator is a ContextPropagator whose EncodeHeaders, when
// it returns true, sends its header fields through the payload codec of
// the client's data converter (converter.PayloadCodecProvider), as
// payloads are: encoded after Inject and InjectFromWorkflow, decoded for
// Extract and ExtractToWorkflow, so that values such as tenant IDs or
// tokens are stored encrypted in histories. Fields other code writes stay
// as they are. Workers that receive them need the same codec and
// propagator.
type CodecContextPropagator = internal.CodecContextPropagator

// HeaderWriter is where a ContextPropagator writes: Set stores a payload
// under a key, replacing what was there.
type HeaderWriter = propagation.HeaderWriter

// HeaderReader is where a ContextPropagator reads: Get returns the payload
// of a key and whether there is one, and ForEachKey calls its handler with
// each key and payload, stopping at the first error, which it returns.
type HeaderReader = propagation.HeaderReader
