package temporal

import "github.com/durable-go/sdk/internal/searchattr"

// SearchAttributes is an immutable set of typed search attribute values:
// the indexed fields of a workflow that visibility queries
// (client.Client.ListWorkflow) filter on. Build one with
// NewSearchAttributes, for client.StartWorkflowOptions or
// workflow.ChildWorkflowOptions; read a workflow's own with
// workflow.GetTypedSearchAttributes.
//
// Its methods read values by typed key, each returning the value and
// whether it is set: GetString, GetKeyword, GetBool, GetInt64, GetFloat64,
// GetTime, GetKeywordList. ContainsKey reports whether a key is set, Size
// counts the set attributes, GetUntypedValues returns them in a map keyed
// by their typed keys, and Copy returns an update that sets them all (to
// start from an existing set in NewSearchAttributes).
type SearchAttributes = searchattr.SearchAttributes

// SearchAttributeUpdate is one change to search attributes: made by a
// key's ValueSet or ValueUnset, or by SearchAttributes.Copy; given to
// NewSearchAttributes or workflow.UpsertTypedSearchAttributes.
type SearchAttributeUpdate = searchattr.SearchAttributeUpdate

// SearchAttributeKey is a typed search attribute key of any type. GetName
// returns the attribute's name, GetValueType its indexed value type
// (Text, Keyword, Int, ...), GetReflectType the Go type of its values.
type SearchAttributeKey = searchattr.SearchAttributeKey

// SearchAttributeKeyString is the key of a Text attribute, searched by
// words (full text). ValueSet(string) makes an update that sets it,
// ValueUnset one that removes it.
type SearchAttributeKeyString = searchattr.SearchAttributeKeyString

// SearchAttributeKeyKeyword is the key of a Keyword attribute, matched as
// a whole (an ID, a status). ValueSet(string) makes an update that sets
// it, ValueUnset one that removes it.
type SearchAttributeKeyKeyword = searchattr.SearchAttributeKeyKeyword

// SearchAttributeKeyBool is the key of a Bool attribute. ValueSet(bool)
// makes an update that sets it, ValueUnset one that removes it.
type SearchAttributeKeyBool = searchattr.SearchAttributeKeyBool

// SearchAttributeKeyInt64 is the key of an Int attribute. ValueSet(int64)
// makes an update that sets it, ValueUnset one that removes it.
type SearchAttributeKeyInt64 = searchattr.SearchAttributeKeyInt64

// SearchAttributeKeyFloat64 is the key of a Double attribute.
// ValueSet(float64) makes an update that sets it, ValueUnset one that
// removes it.
type SearchAttributeKeyFloat64 = searchattr.SearchAttributeKeyFloat64

// SearchAttributeKeyTime is the key of a Datetime attribute.
// ValueSet(time.Time) makes an update that sets it, ValueUnset one that
// removes it.
type SearchAttributeKeyTime = searchattr.SearchAttributeKeyTime

// SearchAttributeKeyKeywordList is the key of a KeywordList attribute, a
// list of keywords. ValueSet([]string) makes an update that sets it (to a
// copy), ValueUnset one that removes it.
type SearchAttributeKeyKeywordList = searchattr.SearchAttributeKeyKeywordList

// NewSearchAttributeKeyString returns the key of the Text attribute name.
// The attribute must be registered in the namespace with that type.
func NewSearchAttributeKeyString(name string) SearchAttributeKeyString {
	return searchattr.NewSearchAttributeKeyString(name)
}

// NewSearchAttributeKeyKeyword returns the key of the Keyword attribute
// name. Declare keys once, as package variables:
//
//	var CustomerID = temporal.NewSearchAttributeKeyKeyword("CustomerID")
func NewSearchAttributeKeyKeyword(name string) SearchAttributeKeyKeyword {
	return searchattr.NewSearchAttributeKeyKeyword(name)
}

// NewSearchAttributeKeyBool returns the key of the Bool attribute name.
func NewSearchAttributeKeyBool(name string) SearchAttributeKeyBool {
	return searchattr.NewSearchAttributeKeyBool(name)
}

// NewSearchAttributeKeyInt64 returns the key of the Int attribute name.
func NewSearchAttributeKeyInt64(name string) SearchAttributeKeyInt64 {
	return searchattr.NewSearchAttributeKeyInt64(name)
}

// NewSearchAttributeKeyFloat64 returns the key of the Double attribute
// name.
func NewSearchAttributeKeyFloat64(name string) SearchAttributeKeyFloat64 {
	return searchattr.NewSearchAttributeKeyFloat64(name)
}

// NewSearchAttributeKeyTime returns the key of the Datetime attribute
// name.
func NewSearchAttributeKeyTime(name string) SearchAttributeKeyTime {
	return searchattr.NewSearchAttributeKeyTime(name)
}

// NewSearchAttributeKeyKeywordList returns the key of the KeywordList
// attribute name.
func NewSearchAttributeKeyKeywordList(name string) SearchAttributeKeyKeywordList {
	return searchattr.NewSearchAttributeKeyKeywordList(name)
}

// NewSearchAttributes returns the search attributes made by applying the
// updates in order, a later update of a key winning:
//
//	attrs := temporal.NewSearchAttributes(CustomerID.ValueSet("c-42"), Priority.ValueSet(2))
func NewSearchAttributes(attributes ...SearchAttributeUpdate) SearchAttributes {
	return searchattr.NewSearchAttributes(attributes...)
}
