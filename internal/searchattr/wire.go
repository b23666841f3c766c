package searchattr

import (
	"errors"
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/converter"
)

// TemporalChangeVersion is the search attribute that workflow versioning
// (GetVersion) maintains. It is a KeywordList even when written without the
// "type" metadata, and user code may not set it.
const TemporalChangeVersion = "TemporalChangeVersion"

// typeMetadataKey is the payload metadata key naming the indexed value type.
const typeMetadataKey = "type"

// Search attribute values are always encoded with the default data converter,
// whatever converter the client uses: the server must read them.
var dataConverter = converter.GetDefaultDataConverter()

// Encode converts typed attributes for the wire, unset keys included (as
// binary/null payloads without a type, which remove the attribute). It
// returns nil when sa holds no key at all.
func Encode(sa SearchAttributes) (*commonpb.SearchAttributes, error) {
	if len(sa.values) == 0 {
		return nil, nil
	}
	fields := make(map[string]*commonpb.Payload, len(sa.values))
	for k, value := range sa.values {
		payload, err := dataConverter.ToPayload(value)
		if err != nil {
			return nil, fmt.Errorf("encode search attribute %q: %w", k.GetName(), err)
		}
		if value != nil {
			payload.Metadata[typeMetadataKey] = []byte(k.GetValueType().String())
		}
		fields[k.GetName()] = payload
	}
	return &commonpb.SearchAttributes{IndexedFields: fields}, nil
}

// EncodeUntyped converts attributes given by name (the deprecated map form)
// for the wire, without type metadata. Values that already are payloads are
// used as they are, so attributes read from workflow info can be passed on.
// A nil map gives nil.
func EncodeUntyped(attributes map[string]any) (*commonpb.SearchAttributes, error) {
	if attributes == nil {
		return nil, nil
	}
	fields := make(map[string]*commonpb.Payload, len(attributes))
	for name, value := range attributes {
		if payload, ok := value.(*commonpb.Payload); ok {
			fields[name] = payload
			continue
		}
		payload, err := dataConverter.ToPayload(value)
		if err != nil {
			return nil, fmt.Errorf("encode search attribute %q: %w", name, err)
		}
		fields[name] = payload
	}
	return &commonpb.SearchAttributes{IndexedFields: fields}, nil
}

// errBothForms reports start options that set attributes in both forms.
var errBothForms = errors.New("cannot specify both SearchAttributes and TypedSearchAttributes")

// EncodeForStart converts the search attributes of a start request (workflow,
// child workflow, schedule action), given in either form but not both.
// Unset attributes mean nothing to a new execution and are dropped; nil is
// returned when nothing is left.
func EncodeForStart(untyped map[string]any, typed SearchAttributes) (*commonpb.SearchAttributes, error) {
	var encoded *commonpb.SearchAttributes
	var err error
	switch {
	case untyped != nil && typed.Size() > 0:
		return nil, errBothForms
	case untyped != nil:
		encoded, err = EncodeUntyped(untyped)
	case typed.Size() > 0:
		encoded, err = Encode(typed)
	}
	if err != nil || encoded == nil {
		return nil, err
	}
	for name, payload := range encoded.IndexedFields {
		if isUnset(payload) {
			delete(encoded.IndexedFields, name)
		}
	}
	if len(encoded.IndexedFields) == 0 {
		return nil, nil
	}
	return encoded, nil
}

func isUnset(payload *commonpb.Payload) bool {
	return string(payload.GetMetadata()[converter.MetadataEncoding]) == converter.MetadataEncodingNil
}

// Decode reads the typed attributes of a workflow's search attributes.
// Attributes without data (removed) are skipped, and so are attributes whose
// type metadata is missing or unknown: they were set in the untyped form and
// are only readable through it. A value that does not decode as its type
// says is an error naming the attribute.
func Decode(attributes *commonpb.SearchAttributes) (SearchAttributes, error) {
	sa := SearchAttributes{values: make(map[SearchAttributeKey]any, len(attributes.GetIndexedFields()))}
	for name, payload := range attributes.GetIndexedFields() {
		if payload.GetData() == nil {
			continue
		}
		// The type is usually "KeywordList" but may be "INDEXED_VALUE_TYPE_KEYWORD_LIST".
		valueType, _ := enumspb.IndexedValueTypeFromString(string(payload.GetMetadata()[typeMetadataKey]))
		if valueType == enumspb.INDEXED_VALUE_TYPE_UNSPECIFIED && name == TemporalChangeVersion {
			valueType = enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST
		}
		k, value, ok := keyAndTarget(name, valueType)
		if !ok {
			continue
		}
		if err := dataConverter.FromPayload(payload, value); err != nil {
			return SearchAttributes{}, fmt.Errorf("decode search attribute %q of type %s: %w", name, valueType, err)
		}
		sa.values[k] = derefValue(value)
	}
	return sa, nil
}

// keyAndTarget returns the typed key for an attribute and a pointer to decode
// its value into.
func keyAndTarget(name string, valueType enumspb.IndexedValueType) (SearchAttributeKey, any, bool) {
	switch valueType {
	case enumspb.INDEXED_VALUE_TYPE_TEXT:
		return NewSearchAttributeKeyString(name), new(string), true
	case enumspb.INDEXED_VALUE_TYPE_KEYWORD:
		return NewSearchAttributeKeyKeyword(name), new(string), true
	case enumspb.INDEXED_VALUE_TYPE_INT:
		return NewSearchAttributeKeyInt64(name), new(int64), true
	case enumspb.INDEXED_VALUE_TYPE_DOUBLE:
		return NewSearchAttributeKeyFloat64(name), new(float64), true
	case enumspb.INDEXED_VALUE_TYPE_BOOL:
		return NewSearchAttributeKeyBool(name), new(bool), true
	case enumspb.INDEXED_VALUE_TYPE_DATETIME:
		return NewSearchAttributeKeyTime(name), new(time.Time), true
	case enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST:
		return NewSearchAttributeKeyKeywordList(name), new([]string), true
	default:
		return nil, nil, false
	}
}

func derefValue(ptr any) any {
	switch p := ptr.(type) {
	case *string:
		return *p
	case *int64:
		return *p
	case *float64:
		return *p
	case *bool:
		return *p
	case *time.Time:
		return *p
	case *[]string:
		return *p
	default:
		return nil
	}
}
