package temporal

import "github.com/durable-go/sdk/internal/searchattr"

type (
	// SearchAttributes is an immutable collection of typed search attribute
	// values, built with NewSearchAttributes.
	SearchAttributes = searchattr.SearchAttributes

	// SearchAttributeUpdate is one change to search attributes: a key's
	// ValueSet or ValueUnset, or a collection's Copy.
	SearchAttributeUpdate = searchattr.SearchAttributeUpdate

	// SearchAttributeKey is a typed search attribute key.
	SearchAttributeKey = searchattr.SearchAttributeKey

	// SearchAttributeKeyString is the key of a Text (full-text) attribute.
	SearchAttributeKeyString = searchattr.SearchAttributeKeyString

	// SearchAttributeKeyKeyword is the key of a Keyword attribute.
	SearchAttributeKeyKeyword = searchattr.SearchAttributeKeyKeyword

	// SearchAttributeKeyBool is the key of a Bool attribute.
	SearchAttributeKeyBool = searchattr.SearchAttributeKeyBool

	// SearchAttributeKeyInt64 is the key of an Int attribute.
	SearchAttributeKeyInt64 = searchattr.SearchAttributeKeyInt64

	// SearchAttributeKeyFloat64 is the key of a Double attribute.
	SearchAttributeKeyFloat64 = searchattr.SearchAttributeKeyFloat64

	// SearchAttributeKeyTime is the key of a Datetime attribute.
	SearchAttributeKeyTime = searchattr.SearchAttributeKeyTime

	// SearchAttributeKeyKeywordList is the key of a KeywordList attribute.
	SearchAttributeKeyKeywordList = searchattr.SearchAttributeKeyKeywordList
)

// NewSearchAttributeKeyString returns the key of a Text attribute.
func NewSearchAttributeKeyString(name string) SearchAttributeKeyString {
	return searchattr.NewSearchAttributeKeyString(name)
}

// NewSearchAttributeKeyKeyword returns the key of a Keyword attribute.
func NewSearchAttributeKeyKeyword(name string) SearchAttributeKeyKeyword {
	return searchattr.NewSearchAttributeKeyKeyword(name)
}

// NewSearchAttributeKeyBool returns the key of a Bool attribute.
func NewSearchAttributeKeyBool(name string) SearchAttributeKeyBool {
	return searchattr.NewSearchAttributeKeyBool(name)
}

// NewSearchAttributeKeyInt64 returns the key of an Int attribute.
func NewSearchAttributeKeyInt64(name string) SearchAttributeKeyInt64 {
	return searchattr.NewSearchAttributeKeyInt64(name)
}

// NewSearchAttributeKeyFloat64 returns the key of a Double attribute.
func NewSearchAttributeKeyFloat64(name string) SearchAttributeKeyFloat64 {
	return searchattr.NewSearchAttributeKeyFloat64(name)
}

// NewSearchAttributeKeyTime returns the key of a Datetime attribute.
func NewSearchAttributeKeyTime(name string) SearchAttributeKeyTime {
	return searchattr.NewSearchAttributeKeyTime(name)
}

// NewSearchAttributeKeyKeywordList returns the key of a KeywordList attribute.
func NewSearchAttributeKeyKeywordList(name string) SearchAttributeKeyKeywordList {
	return searchattr.NewSearchAttributeKeyKeywordList(name)
}

// NewSearchAttributes returns the search attributes made by applying the
// updates in order.
func NewSearchAttributes(attributes ...SearchAttributeUpdate) SearchAttributes {
	return searchattr.NewSearchAttributes(attributes...)
}
