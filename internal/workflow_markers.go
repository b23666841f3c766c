package internal

import (
	"fmt"
	"reflect"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"google.golang.org/protobuf/proto"
)

// Version is a version of workflow code for GetVersion (workflow.Version).
type Version int

// DefaultVersion is the version of code written before GetVersion was
// called for a change.
const DefaultVersion Version = engine.DefaultVersion

// SideEffectOptions configure SideEffect (workflow.SideEffectOptions).
type SideEffectOptions struct {
	// Summary is shown in the UI next to the side effect's marker.
	Summary string
	// EventGroups are groups the marker belongs to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

// MutableSideEffectOptions configure MutableSideEffect.
type MutableSideEffectOptions struct {
	// Summary is shown in the UI next to the side effect's markers.
	Summary string
	// EventGroups are groups the markers belong to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

// GetVersionOptions configure GetVersionWithOptions.
type GetVersionOptions struct {
	// EventGroups are groups the version marker (and its search attribute upsert) belong to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

// GetVersion returns the version of a code change that this run uses, so
// that new code can replay runs started before the change:
//
//	v := workflow.GetVersion(ctx, "use-new-api", workflow.DefaultVersion, 1)
//	if v == workflow.DefaultVersion { oldCode() } else { newCode() }
//
// A run that reaches the call for the first time records maxSupported; a
// replay returns what was recorded, or DefaultVersion for history written
// before the change.
func GetVersion(ctx Context, changeID string, minSupported, maxSupported Version) Version {
	return runOf(ctx).outbound.GetVersion(ctx, changeID, minSupported, maxSupported)
}

// GetVersionWithOptions is GetVersion with options.
func GetVersionWithOptions(ctx Context, changeID string, minSupported, maxSupported Version, options GetVersionOptions) Version {
	return runOf(ctx).outbound.GetVersionWithOptions(ctx, changeID, minSupported, maxSupported, options)
}

// getVersion is GetVersion (with options) at the end of the interceptor
// chain.
func (r *workflowRun) getVersion(ctx Context, changeID string, minSupported, maxSupported Version, groups []EventGroup) Version {
	if markers := r.eventGroupMarkers(ctx, groups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	var prefer func() int // nil: maxSupported
	if provider := r.config.preferredVersion; provider != nil {
		prefer = func() int {
			return int(preferredVersion(provider, PreferredVersionProviderInput{
				WorkflowInfo: r.workflowInfo(), ChangeID: changeID, MinSupported: minSupported, MaxSupported: maxSupported,
			}))
		}
	}
	return Version(r.exec.GetVersionPreferring(changeID, int(minSupported), int(maxSupported), prefer))
}

// SideEffect runs f once and records its result in history; on replay it
// returns the recorded result without running f. Use it for small
// nondeterministic values (a random number, a UUID). f must not fail.
func SideEffect(ctx Context, f func(ctx Context) any) converter.EncodedValue {
	return runOf(ctx).outbound.SideEffect(ctx, f)
}

// SideEffectWithOptions is SideEffect with options.
func SideEffectWithOptions(ctx Context, options SideEffectOptions, f func(ctx Context) any) converter.EncodedValue {
	return runOf(ctx).outbound.SideEffectWithOptions(ctx, options, f)
}

// sideEffect is SideEffect (with options) at the end of the interceptor
// chain.
func (r *workflowRun) sideEffect(ctx Context, f func(ctx Context) any, groups []EventGroup) converter.EncodedValue {
	dc := r.dataConverter(ctx)
	if markers := r.eventGroupMarkers(ctx, groups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	result, err := r.exec.SideEffect(func() (*commonpb.Payloads, error) {
		return dc.ToPayloads(f(ctx))
	})
	if err != nil {
		panic(fmt.Errorf("SideEffect: its result cannot be encoded: %w", err))
	}
	return failure.NewEncodedValue(result, dc)
}

// MutableSideEffect runs f and records its result whenever it differs
// (by equals) from the value recorded last for id; on replay it returns
// the recorded values. Use it for values that change rarely, such as
// configuration.
func MutableSideEffect(ctx Context, id string, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return runOf(ctx).outbound.MutableSideEffect(ctx, id, f, equals)
}

// MutableSideEffectWithOptions is MutableSideEffect with options.
func MutableSideEffectWithOptions(ctx Context, id string, options MutableSideEffectOptions, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return runOf(ctx).outbound.MutableSideEffectWithOptions(ctx, id, options, f, equals)
}

// mutableSideEffect is MutableSideEffect (with options) at the end of the
// interceptor chain.
func (r *workflowRun) mutableSideEffect(ctx Context, id string, f func(ctx Context) any, equals func(a, b any) bool, groups []EventGroup) converter.EncodedValue {
	dc := r.dataConverter(ctx)
	if markers := r.eventGroupMarkers(ctx, groups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	var fresh any
	haveFresh := false
	compute := func() {
		if !haveFresh {
			fresh, haveFresh = f(ctx), true
		}
	}
	result, err := r.exec.MutableSideEffect(id,
		func() (*commonpb.Payloads, error) {
			compute()
			return dc.ToPayloads(fresh)
		},
		func(old *commonpb.Payloads) bool {
			compute()
			if fresh == nil {
				p, err := dc.ToPayloads(nil)
				return err == nil && proto.Equal(p, old)
			}
			prev := reflect.New(reflect.TypeOf(fresh))
			if err := dc.FromPayloads(old, prev.Interface()); err != nil {
				return false
			}
			return equals(fresh, prev.Elem().Interface())
		})
	if err != nil {
		panic(fmt.Errorf("MutableSideEffect(%q): its result cannot be encoded: %w", id, err))
	}
	return failure.NewEncodedValue(result, dc)
}
