package mocks

import "github.com/stretchr/testify/mock"

// NewEncodedValue makes a Value mock that, when the test ends, checks that
// every expectation set with On was met. It is NewValue under the name
// go.temporal.io/sdk/mocks gives it.
func NewEncodedValue(t interface {
	mock.TestingT
	Cleanup(func())
}) *Value {
	return NewValue(t)
}
