// Package searchattr holds the typed search attribute keys and values that
// package temporal exposes, and their conversion to and from the wire's
// common.v1.SearchAttributes: json/plain payloads made by the default data
// converter, with a "type" metadata key naming the indexed value type
// ("Keyword", "Text", "Int", "Double", "Bool", "Datetime", "KeywordList"),
// as every Temporal SDK writes them. An unset attribute is a binary/null
// payload without "type", which the server reads as a removal.
package searchattr
