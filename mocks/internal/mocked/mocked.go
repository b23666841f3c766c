// Package mocked declares the interfaces that package mocks generates mocks
// of and that no public package declares whole. They live apart from package
// mocks so that mockery can load them while the mocks themselves are stale
// and do not compile.
package mocked

import "github.com/durable-go/sdk/converter"

// EncodedValue is what the Value mock is generated from: a value that
// decodes (converter.EncodedValue) and hands out its payloads
// (converter.ValuesPayloads), as the SDK's own encoded values do, so that
// converter.GetPayloads works on the mock too.
type EncodedValue interface {
	converter.EncodedValue
	converter.ValuesPayloads
}
