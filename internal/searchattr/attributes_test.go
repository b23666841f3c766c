package searchattr

import (
	"reflect"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
)

var (
	textKey    = NewSearchAttributeKeyString("Text")
	keywordKey = NewSearchAttributeKeyKeyword("Keyword")
	boolKey    = NewSearchAttributeKeyBool("Bool")
	intKey     = NewSearchAttributeKeyInt64("Int")
	floatKey   = NewSearchAttributeKeyFloat64("Float")
	timeKey    = NewSearchAttributeKeyTime("Time")
	listKey    = NewSearchAttributeKeyKeywordList("List")
	when       = time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC)
)

func fullAttributes() SearchAttributes {
	return NewSearchAttributes(
		textKey.ValueSet("some text"),
		keywordKey.ValueSet("kw"),
		boolKey.ValueSet(true),
		intKey.ValueSet(-42),
		floatKey.ValueSet(2.5),
		timeKey.ValueSet(when),
		listKey.ValueSet([]string{"a", "b"}),
	)
}

func TestKeys(t *testing.T) {
	tests := []struct {
		key       SearchAttributeKey
		valueType enumspb.IndexedValueType
		goType    reflect.Type
	}{
		{textKey, enumspb.INDEXED_VALUE_TYPE_TEXT, reflect.TypeFor[string]()},
		{keywordKey, enumspb.INDEXED_VALUE_TYPE_KEYWORD, reflect.TypeFor[string]()},
		{boolKey, enumspb.INDEXED_VALUE_TYPE_BOOL, reflect.TypeFor[bool]()},
		{intKey, enumspb.INDEXED_VALUE_TYPE_INT, reflect.TypeFor[int64]()},
		{floatKey, enumspb.INDEXED_VALUE_TYPE_DOUBLE, reflect.TypeFor[float64]()},
		{timeKey, enumspb.INDEXED_VALUE_TYPE_DATETIME, reflect.TypeFor[time.Time]()},
		{listKey, enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, reflect.TypeFor[[]string]()},
	}
	for _, tt := range tests {
		if tt.key.GetValueType() != tt.valueType || tt.key.GetReflectType() != tt.goType || tt.key.GetName() == "" {
			t.Errorf("%T: %v %v %q", tt.key, tt.key.GetValueType(), tt.key.GetReflectType(), tt.key.GetName())
		}
	}
}

func TestGetters(t *testing.T) {
	sa := fullAttributes()
	if v, ok := sa.GetString(textKey); !ok || v != "some text" {
		t.Errorf("GetString = %q %v", v, ok)
	}
	if v, ok := sa.GetKeyword(keywordKey); !ok || v != "kw" {
		t.Errorf("GetKeyword = %q %v", v, ok)
	}
	if v, ok := sa.GetBool(boolKey); !ok || !v {
		t.Errorf("GetBool = %v %v", v, ok)
	}
	if v, ok := sa.GetInt64(intKey); !ok || v != -42 {
		t.Errorf("GetInt64 = %v %v", v, ok)
	}
	if v, ok := sa.GetFloat64(floatKey); !ok || v != 2.5 {
		t.Errorf("GetFloat64 = %v %v", v, ok)
	}
	if v, ok := sa.GetTime(timeKey); !ok || !v.Equal(when) {
		t.Errorf("GetTime = %v %v", v, ok)
	}
	list, ok := sa.GetKeywordList(listKey)
	if !ok || !reflect.DeepEqual(list, []string{"a", "b"}) {
		t.Errorf("GetKeywordList = %v %v", list, ok)
	}
	list[0] = "changed"
	if again, _ := sa.GetKeywordList(listKey); again[0] != "a" {
		t.Error("GetKeywordList exposes the stored slice")
	}
	if sa.Size() != 7 || !sa.ContainsKey(intKey) {
		t.Errorf("Size = %d", sa.Size())
	}
	// Same name, other type: another key.
	if sa.ContainsKey(NewSearchAttributeKeyString("Keyword")) {
		t.Error("key matched by name alone")
	}
	if _, ok := sa.GetInt64(NewSearchAttributeKeyInt64("Missing")); ok {
		t.Error("missing key found")
	}
}

func TestUnsetAndCopy(t *testing.T) {
	input := []string{"x"}
	base := NewSearchAttributes(listKey.ValueSet(input), intKey.ValueSet(1))
	input[0] = "mutated"
	if list, _ := base.GetKeywordList(listKey); list[0] != "x" {
		t.Error("ValueSet keeps the caller's slice")
	}
	derived := NewSearchAttributes(base.Copy(), intKey.ValueUnset(), boolKey.ValueSet(false))
	if derived.ContainsKey(intKey) || derived.Size() != 2 {
		t.Errorf("after unset: size %d", derived.Size())
	}
	if _, ok := derived.GetInt64(intKey); ok {
		t.Error("unset key readable")
	}
	if !base.ContainsKey(intKey) {
		t.Error("Copy shares state with its source")
	}
	values := derived.GetUntypedValues()
	if len(values) != 2 || values[boolKey] != false {
		t.Errorf("GetUntypedValues = %v", values)
	}
	// Copy does not erase: keys unset in the source stay as they were.
	withUnset := NewSearchAttributes(intKey.ValueUnset())
	merged := NewSearchAttributes(intKey.ValueSet(3), withUnset.Copy())
	if v, ok := merged.GetInt64(intKey); !ok || v != 3 {
		t.Errorf("Copy of an unset key erased a value: %v %v", v, ok)
	}
	var zero SearchAttributes
	zero.Copy()(&zero)
	base.Copy()(&zero)
	if zero.Size() != 2 {
		t.Error("Copy into a zero SearchAttributes")
	}
}
