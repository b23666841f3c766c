package searchattr

import (
	"maps"
	"time"
)

// SearchAttributes is an immutable collection of typed search attribute
// values. Build one with NewSearchAttributes. A key may also be present as
// unset, which asks the server to remove the attribute; Get*, ContainsKey,
// Size and GetUntypedValues do not see unset keys.
type SearchAttributes struct {
	// values maps each key to its value, or to nil when unset.
	values map[SearchAttributeKey]any
}

// SearchAttributeUpdate is one change to a SearchAttributes being built.
type SearchAttributeUpdate func(*SearchAttributes)

// NewSearchAttributes returns the collection made by applying the updates in
// order.
func NewSearchAttributes(updates ...SearchAttributeUpdate) SearchAttributes {
	sa := SearchAttributes{values: make(map[SearchAttributeKey]any, len(updates))}
	for _, update := range updates {
		update(&sa)
	}
	return sa
}

func set(k SearchAttributeKey, value any) SearchAttributeUpdate {
	return func(sa *SearchAttributes) { sa.put(k, value) }
}

func unset(k SearchAttributeKey) SearchAttributeUpdate {
	return func(sa *SearchAttributes) { sa.put(k, nil) }
}

func (sa *SearchAttributes) put(k SearchAttributeKey, value any) {
	if sa.values == nil {
		sa.values = map[SearchAttributeKey]any{}
	}
	sa.values[k] = value
}

// get returns the value of a key that is present and set.
func get[T any](sa SearchAttributes, k SearchAttributeKey) (T, bool) {
	value, ok := sa.values[k].(T)
	return value, ok
}

// GetString returns the value of a Text attribute and whether it is set.
func (sa SearchAttributes) GetString(k SearchAttributeKeyString) (string, bool) {
	return get[string](sa, k)
}

// GetKeyword returns the value of a Keyword attribute and whether it is set.
func (sa SearchAttributes) GetKeyword(k SearchAttributeKeyKeyword) (string, bool) {
	return get[string](sa, k)
}

// GetBool returns the value of a Bool attribute and whether it is set.
func (sa SearchAttributes) GetBool(k SearchAttributeKeyBool) (bool, bool) {
	return get[bool](sa, k)
}

// GetInt64 returns the value of an Int attribute and whether it is set.
func (sa SearchAttributes) GetInt64(k SearchAttributeKeyInt64) (int64, bool) {
	return get[int64](sa, k)
}

// GetFloat64 returns the value of a Double attribute and whether it is set.
func (sa SearchAttributes) GetFloat64(k SearchAttributeKeyFloat64) (float64, bool) {
	return get[float64](sa, k)
}

// GetTime returns the value of a Datetime attribute and whether it is set.
func (sa SearchAttributes) GetTime(k SearchAttributeKeyTime) (time.Time, bool) {
	return get[time.Time](sa, k)
}

// GetKeywordList returns a copy of the value of a KeywordList attribute and
// whether it is set.
func (sa SearchAttributes) GetKeywordList(k SearchAttributeKeyKeywordList) ([]string, bool) {
	values, ok := get[[]string](sa, k)
	if !ok {
		return nil, false
	}
	return append([]string(nil), values...), true
}

// ContainsKey reports whether the key is present and set.
func (sa SearchAttributes) ContainsKey(k SearchAttributeKey) bool {
	return sa.values[k] != nil
}

// Size returns the number of set attributes.
func (sa SearchAttributes) Size() int {
	n := 0
	for _, value := range sa.values {
		if value != nil {
			n++
		}
	}
	return n
}

// GetUntypedValues returns a copy of the set attributes, keyed by their
// typed keys.
func (sa SearchAttributes) GetUntypedValues() map[SearchAttributeKey]any {
	result := make(map[SearchAttributeKey]any, len(sa.values))
	for k, value := range sa.values {
		switch v := value.(type) {
		case nil:
		case []string:
			result[k] = append([]string(nil), v...)
		default:
			result[k] = v
		}
	}
	return result
}

// Copy returns an update that sets every attribute set in sa. Keys unset in
// sa are left alone.
func (sa SearchAttributes) Copy() SearchAttributeUpdate {
	values := sa.GetUntypedValues()
	return func(target *SearchAttributes) {
		if target.values == nil {
			target.values = make(map[SearchAttributeKey]any, len(values))
		}
		maps.Copy(target.values, values)
	}
}
