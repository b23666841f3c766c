package searchattr

import (
	"reflect"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
)

// SearchAttributeKey is a typed search attribute key.
type SearchAttributeKey interface {
	// GetName returns the attribute's name.
	GetName() string
	// GetValueType returns the attribute's indexed value type.
	GetValueType() enumspb.IndexedValueType
	// GetReflectType returns the Go type of the attribute's values.
	GetReflectType() reflect.Type
}

// key is embedded in every typed key. Keys are map keys in SearchAttributes,
// so a key is its name and type: two keys of the same name and type are the
// same key.
type key struct {
	name      string
	valueType enumspb.IndexedValueType
}

// GetName returns the attribute's name.
func (k key) GetName() string { return k.name }

// GetValueType returns the attribute's indexed value type.
func (k key) GetValueType() enumspb.IndexedValueType { return k.valueType }

// GetReflectType returns the Go type of the attribute's values.
func (k key) GetReflectType() reflect.Type { return goType(k.valueType) }

func goType(t enumspb.IndexedValueType) reflect.Type {
	switch t {
	case enumspb.INDEXED_VALUE_TYPE_TEXT, enumspb.INDEXED_VALUE_TYPE_KEYWORD:
		return reflect.TypeFor[string]()
	case enumspb.INDEXED_VALUE_TYPE_INT:
		return reflect.TypeFor[int64]()
	case enumspb.INDEXED_VALUE_TYPE_DOUBLE:
		return reflect.TypeFor[float64]()
	case enumspb.INDEXED_VALUE_TYPE_BOOL:
		return reflect.TypeFor[bool]()
	case enumspb.INDEXED_VALUE_TYPE_DATETIME:
		return reflect.TypeFor[time.Time]()
	case enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST:
		return reflect.TypeFor[[]string]()
	default:
		return nil
	}
}

// SearchAttributeKeyString is the key of a Text attribute, indexed for
// full-text search.
type SearchAttributeKeyString struct{ key }

// SearchAttributeKeyKeyword is the key of a Keyword attribute, matched as a
// whole.
type SearchAttributeKeyKeyword struct{ key }

// SearchAttributeKeyBool is the key of a Bool attribute.
type SearchAttributeKeyBool struct{ key }

// SearchAttributeKeyInt64 is the key of an Int attribute.
type SearchAttributeKeyInt64 struct{ key }

// SearchAttributeKeyFloat64 is the key of a Double attribute.
type SearchAttributeKeyFloat64 struct{ key }

// SearchAttributeKeyTime is the key of a Datetime attribute.
type SearchAttributeKeyTime struct{ key }

// SearchAttributeKeyKeywordList is the key of a KeywordList attribute.
type SearchAttributeKeyKeywordList struct{ key }

// NewSearchAttributeKeyString returns the key of a Text attribute.
func NewSearchAttributeKeyString(name string) SearchAttributeKeyString {
	return SearchAttributeKeyString{key{name, enumspb.INDEXED_VALUE_TYPE_TEXT}}
}

// NewSearchAttributeKeyKeyword returns the key of a Keyword attribute.
func NewSearchAttributeKeyKeyword(name string) SearchAttributeKeyKeyword {
	return SearchAttributeKeyKeyword{key{name, enumspb.INDEXED_VALUE_TYPE_KEYWORD}}
}

// NewSearchAttributeKeyBool returns the key of a Bool attribute.
func NewSearchAttributeKeyBool(name string) SearchAttributeKeyBool {
	return SearchAttributeKeyBool{key{name, enumspb.INDEXED_VALUE_TYPE_BOOL}}
}

// NewSearchAttributeKeyInt64 returns the key of an Int attribute.
func NewSearchAttributeKeyInt64(name string) SearchAttributeKeyInt64 {
	return SearchAttributeKeyInt64{key{name, enumspb.INDEXED_VALUE_TYPE_INT}}
}

// NewSearchAttributeKeyFloat64 returns the key of a Double attribute.
func NewSearchAttributeKeyFloat64(name string) SearchAttributeKeyFloat64 {
	return SearchAttributeKeyFloat64{key{name, enumspb.INDEXED_VALUE_TYPE_DOUBLE}}
}

// NewSearchAttributeKeyTime returns the key of a Datetime attribute.
func NewSearchAttributeKeyTime(name string) SearchAttributeKeyTime {
	return SearchAttributeKeyTime{key{name, enumspb.INDEXED_VALUE_TYPE_DATETIME}}
}

// NewSearchAttributeKeyKeywordList returns the key of a KeywordList attribute.
func NewSearchAttributeKeyKeywordList(name string) SearchAttributeKeyKeywordList {
	return SearchAttributeKeyKeywordList{key{name, enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST}}
}

// ValueSet returns an update setting the attribute to value.
func (k SearchAttributeKeyString) ValueSet(value string) SearchAttributeUpdate { return set(k, value) }

// ValueUnset returns an update removing the attribute.
func (k SearchAttributeKeyString) ValueUnset() SearchAttributeUpdate { return unset(k) }

// ValueSet returns an update setting the attribute to value.
func (k SearchAttributeKeyKeyword) ValueSet(value string) SearchAttributeUpdate { return set(k, value) }

// ValueUnset returns an update removing the attribute.
func (k SearchAttributeKeyKeyword) ValueUnset() SearchAttributeUpdate { return unset(k) }

// ValueSet returns an update setting the attribute to value.
func (k SearchAttributeKeyBool) ValueSet(value bool) SearchAttributeUpdate { return set(k, value) }

// ValueUnset returns an update removing the attribute.
func (k SearchAttributeKeyBool) ValueUnset() SearchAttributeUpdate { return unset(k) }

// ValueSet returns an update setting the attribute to value.
func (k SearchAttributeKeyInt64) ValueSet(value int64) SearchAttributeUpdate { return set(k, value) }

// ValueUnset returns an update removing the attribute.
func (k SearchAttributeKeyInt64) ValueUnset() SearchAttributeUpdate { return unset(k) }

// ValueSet returns an update setting the attribute to value.
func (k SearchAttributeKeyFloat64) ValueSet(value float64) SearchAttributeUpdate {
	return set(k, value)
}

// ValueUnset returns an update removing the attribute.
func (k SearchAttributeKeyFloat64) ValueUnset() SearchAttributeUpdate { return unset(k) }

// ValueSet returns an update setting the attribute to value.
func (k SearchAttributeKeyTime) ValueSet(value time.Time) SearchAttributeUpdate { return set(k, value) }

// ValueUnset returns an update removing the attribute.
func (k SearchAttributeKeyTime) ValueUnset() SearchAttributeUpdate { return unset(k) }

// ValueSet returns an update setting the attribute to a copy of values.
func (k SearchAttributeKeyKeywordList) ValueSet(values []string) SearchAttributeUpdate {
	return set(k, append([]string(nil), values...))
}

// ValueUnset returns an update removing the attribute.
func (k SearchAttributeKeyKeywordList) ValueUnset() SearchAttributeUpdate { return unset(k) }
