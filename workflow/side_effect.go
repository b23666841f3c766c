package workflow

import (
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
)

// Version is a version of a code change, as GetVersion returns it: the
// versions a change goes through are numbered from 1, and DefaultVersion
// (-1) is the code before the change.
type Version = internal.Version

// DefaultVersion is what GetVersion returns for a run whose history was
// written before the change was made: the code before the change.
const DefaultVersion Version = internal.DefaultVersion

// GetVersion lets a workflow change its code while runs that started with
// the old code are still open, and replay them correctly. changeID names
// the change; minSupported and maxSupported are the oldest and newest
// versions of it the code still runs.
//
// The first time a run reaches the call, it records maxSupported in
// history and returns it. A run that recorded a version gets that version
// back on every replay; a run that passed this point before the call
// existed gets DefaultVersion. Branch on the result:
//
//	v := workflow.GetVersion(ctx, "charge-via-new-api", workflow.DefaultVersion, 1)
//	if v == workflow.DefaultVersion {
//		err = workflow.ExecuteActivity(ctx, ChargeOld, order).Get(ctx, nil)
//	} else {
//		err = workflow.ExecuteActivity(ctx, Charge, order).Get(ctx, nil)
//	}
//
// A later change of the same place raises maxSupported (2, ...); once no
// open run uses the oldest version, raise minSupported and delete its
// branch. A recorded version outside [minSupported, maxSupported] fails
// the workflow task with a non-determinism error that says which, and the
// task is retried (so a worker with the right code can take it).
func GetVersion(ctx Context, changeID string, minSupported, maxSupported Version) Version {
	return internal.GetVersion(ctx, changeID, minSupported, maxSupported)
}

// GetVersionOptions configure GetVersionWithOptions.
//
//   - EventGroups: more event groups for the version record (and its search
//     attribute update), besides the Context's (see WithEventGroups).
//     Default: none.
type GetVersionOptions = internal.GetVersionOptions

// GetVersionWithOptions is GetVersion with options.
func GetVersionWithOptions(ctx Context, changeID string, minSupported, maxSupported Version, options GetVersionOptions) Version {
	return internal.GetVersionWithOptions(ctx, changeID, minSupported, maxSupported, options)
}

// SideEffectOptions configure SideEffectWithOptions.
//
//   - Summary: a short text the UI shows for the side effect's record.
//   - EventGroups: more event groups for the record, besides the Context's
//     (see WithEventGroups). Default: none.
type SideEffectOptions = internal.SideEffectOptions

// MutableSideEffectOptions configure MutableSideEffectWithOptions.
//
//   - Summary: a short text the UI shows for the side effect's records.
//   - EventGroups: more event groups for the records, besides the Context's
//     (see WithEventGroups). Default: none.
type MutableSideEffectOptions = internal.MutableSideEffectOptions

// SideEffect runs f once, records the value it returns in the workflow's
// history, and returns it encoded; on replay it returns the recorded value
// without running f. Use it for small nondeterministic values such as a
// random number or a UUID:
//
//	var id string
//	err := workflow.SideEffect(ctx, func(workflow.Context) any {
//		return uuid.NewString()
//	}).Get(&id)
//
// f must not fail (it has no error result) and must not call other
// workflow functions. Anything that can fail or takes time belongs in an
// activity or a local activity. A value that cannot be encoded panics,
// failing the workflow task.
func SideEffect(ctx Context, f func(ctx Context) any) converter.EncodedValue {
	return internal.SideEffect(ctx, f)
}

// SideEffectWithOptions is SideEffect with options: a Summary for the UI.
func SideEffectWithOptions(ctx Context, options SideEffectOptions, f func(ctx Context) any) converter.EncodedValue {
	return internal.SideEffectWithOptions(ctx, options, f)
}

// MutableSideEffect runs f every time it is called, replays included, and
// records its value in history only when it differs, by equals, from the
// value last recorded for id; it returns the recorded value. Use it for a
// value that changes rarely and that the workflow reads often, such as a
// setting: history grows only with the changes, and a replay sees each
// value where the original run saw it. equals receives the new and the
// recorded value.
func MutableSideEffect(ctx Context, id string, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return internal.MutableSideEffect(ctx, id, f, equals)
}

// MutableSideEffectWithOptions is MutableSideEffect with options: a Summary
// for the UI.
func MutableSideEffectWithOptions(ctx Context, id string, options MutableSideEffectOptions, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return internal.MutableSideEffectWithOptions(ctx, id, options, f, equals)
}

// WorkflowRandomStream is a deterministic pseudorandom stream, as
// GetRandomStream returns it. It is both a math/rand/v2 Source (its Uint64
// method returns the next 8 bytes, little-endian) and an io.Reader (its
// Read method fills a buffer with the next bytes); both take from one
// sequence of bytes, in any order. Wrap it with rand.New for the usual
// helpers.
//
// NOTE: Experimental
type WorkflowRandomStream = internal.WorkflowRandomStream

// GetRandomStream returns the run's pseudorandom stream of that name (made
// at the first call, then the same stream, where earlier draws left it).
// Its values depend only on the run and the name, so replay draws them
// again instead of recording them: draws are not in the history, and
// replay must make the same draws in the same order. Do not draw in a
// query handler or an update validator (see IsReadOnly). A reset run
// repeats the draws up to the reset point and then starts new sequences;
// a continued-as-new run gets its own.
//
// The values are go.temporal.io/sdk's, so histories replay across the
// SDKs. Use a name of your own (a package path) so that libraries do not
// share streams by accident.
//
//	r := rand.New(workflow.GetRandomStream(ctx, "example.com/shop/discounts"))
//	discount := r.IntN(10)
//
// NOTE: Experimental
func GetRandomStream(ctx Context, name string) WorkflowRandomStream {
	return internal.GetRandomStream(ctx, name)
}
