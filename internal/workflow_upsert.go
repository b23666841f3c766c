package internal

import (
	"errors"
	"fmt"
	"maps"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/searchattr"
)

// UpsertSearchAttributes adds or replaces search attributes of the run.
// Values are encoded as JSON; prefer UpsertTypedSearchAttributes, which
// also tells the server each attribute's type.
func UpsertSearchAttributes(ctx Context, attributes map[string]any) error {
	return runOf(ctx).outbound.UpsertSearchAttributes(ctx, attributes)
}

// UpsertTypedSearchAttributes adds, replaces or (with ValueUnset) removes
// search attributes of the run.
func UpsertTypedSearchAttributes(ctx Context, updates ...searchattr.SearchAttributeUpdate) error {
	r := runOf(ctx)
	if !r.intercepted {
		return r.upsertTypedSearchAttributes(ctx, updates, nil)
	}
	return r.outbound.UpsertTypedSearchAttributes(ctx, passArgs(updates)...)
}

// UpsertSearchAttributesOptions configure
// UpsertTypedSearchAttributesWithOptions.
type UpsertSearchAttributesOptions struct {
	// EventGroups are groups the upsert belongs to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

// UpsertTypedSearchAttributesWithOptions is UpsertTypedSearchAttributes
// with options.
func UpsertTypedSearchAttributesWithOptions(ctx Context, options UpsertSearchAttributesOptions, updates ...searchattr.SearchAttributeUpdate) error {
	return runOf(ctx).outbound.UpsertTypedSearchAttributesWithOptions(ctx, updates, options)
}

var errChangeVersionReserved = errors.New(engine.ChangeVersionSearchAttribute + " is a reserved search attribute, set by GetVersion; use another name")

// upsertUntypedSearchAttributes is UpsertSearchAttributes at the end of
// the interceptor chain.
func (r *workflowRun) upsertUntypedSearchAttributes(ctx Context, attributes map[string]any) error {
	if _, reserved := attributes[engine.ChangeVersionSearchAttribute]; reserved {
		return errChangeVersionReserved
	}
	sa, err := searchattr.EncodeUntyped(attributes)
	if err != nil {
		return fmt.Errorf("UpsertSearchAttributes: %w", err)
	}
	return r.upsertSearchAttributes(ctx, sa, nil)
}

// upsertTypedSearchAttributes is UpsertTypedSearchAttributes (with
// options) at the end of the interceptor chain.
func (r *workflowRun) upsertTypedSearchAttributes(ctx Context, updates []searchattr.SearchAttributeUpdate, groups []EventGroup) error {
	sa, err := searchattr.Encode(searchattr.NewSearchAttributes(updates...))
	if err != nil {
		return fmt.Errorf("UpsertTypedSearchAttributes: %w", err)
	}
	if _, reserved := sa.GetIndexedFields()[engine.ChangeVersionSearchAttribute]; reserved {
		return errChangeVersionReserved
	}
	return r.upsertSearchAttributes(ctx, sa, groups)
}

func (r *workflowRun) upsertSearchAttributes(ctx Context, sa *commonpb.SearchAttributes, groups []EventGroup) error {
	if len(sa.GetIndexedFields()) == 0 {
		return errors.New("no search attributes to upsert")
	}
	if markers := r.eventGroupMarkers(ctx, groups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	r.exec.UpsertSearchAttributes(sa)
	r.info.SearchAttributes = mergeSearchAttributes(r.info.SearchAttributes, sa)
	return nil
}

func mergeSearchAttributes(current, upsert *commonpb.SearchAttributes) *commonpb.SearchAttributes {
	fields := maps.Clone(current.GetIndexedFields())
	if fields == nil {
		fields = make(map[string]*commonpb.Payload)
	}
	maps.Copy(fields, upsert.GetIndexedFields())
	return &commonpb.SearchAttributes{IndexedFields: fields}
}

// withoutUnset drops attributes removed by an upsert (binary/null values),
// which a new run must not receive.
func withoutUnset(sa *commonpb.SearchAttributes) *commonpb.SearchAttributes {
	if sa == nil {
		return nil
	}
	fields := make(map[string]*commonpb.Payload, len(sa.GetIndexedFields()))
	for k, v := range sa.GetIndexedFields() {
		if string(v.GetMetadata()[converter.MetadataEncoding]) != converter.MetadataEncodingNil {
			fields[k] = v
		}
	}
	return &commonpb.SearchAttributes{IndexedFields: fields}
}

// GetTypedSearchAttributes returns the run's search attributes.
func GetTypedSearchAttributes(ctx Context) searchattr.SearchAttributes {
	return runOf(ctx).outbound.GetTypedSearchAttributes(ctx)
}

// typedSearchAttributes is GetTypedSearchAttributes at the end of the
// interceptor chain.
func (r *workflowRun) typedSearchAttributes() searchattr.SearchAttributes {
	sa, err := searchattr.Decode(r.info.SearchAttributes)
	if err != nil {
		r.log().Warn("some search attributes could not be decoded", "Error", err)
	}
	return sa
}

// UpsertMemo adds or replaces memo fields of the run; a nil value removes
// the field.
func UpsertMemo(ctx Context, memo map[string]any) error {
	return runOf(ctx).outbound.UpsertMemo(ctx, memo)
}

// UpsertMemoOptions configure UpsertMemoWithOptions.
type UpsertMemoOptions struct {
	// EventGroups are groups the upsert belongs to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

// UpsertMemoWithOptions is UpsertMemo with options.
func UpsertMemoWithOptions(ctx Context, memo map[string]any, options UpsertMemoOptions) error {
	return runOf(ctx).outbound.UpsertMemoWithOptions(ctx, memo, options)
}

// upsertMemo is UpsertMemo (with options) at the end of the interceptor
// chain.
func (r *workflowRun) upsertMemo(ctx Context, memo map[string]any, groups []EventGroup) error {
	fields := make(map[string]*commonpb.Payload, len(memo))
	for k, v := range memo {
		p, err := r.dc.ToPayload(v)
		if err != nil {
			return fmt.Errorf("UpsertMemo: field %q (%T) cannot be encoded: %w", k, v, err)
		}
		fields[k] = p
	}
	if len(fields) == 0 {
		return errors.New("UpsertMemo: no memo fields to upsert")
	}
	m := &commonpb.Memo{Fields: fields}
	r.exec.TryUseFlag(engine.FlagMemoUserDCEncode)
	if markers := r.eventGroupMarkers(ctx, groups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	r.exec.UpsertMemo(m)
	merged := maps.Clone(r.info.Memo.GetFields())
	if merged == nil {
		merged = make(map[string]*commonpb.Payload)
	}
	for k, v := range fields {
		if v.GetData() == nil {
			delete(merged, k)
		} else {
			merged[k] = v
		}
	}
	r.info.Memo = &commonpb.Memo{Fields: merged}
	return nil
}
