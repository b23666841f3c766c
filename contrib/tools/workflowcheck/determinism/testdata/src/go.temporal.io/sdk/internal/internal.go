// Package internal stands in for the SDK's internal package in the
// analyzer's tests: the workflow API's types are aliases of its types, and
// its code uses what workflow code must not, to show that the analyzer
// takes the SDK's own code as deterministic.
package internal

import (
	"sync"
	"time"
)

type Context interface {
	Value(key any) any
}

type Future interface {
	Get(ctx Context, valuePtr any) error
}

type Channel interface {
	Send(ctx Context, v any)
	Receive(ctx Context, valuePtr any) bool
}

type Selector interface {
	AddReceive(c Channel, f func(c Channel, more bool)) Selector
	Select(ctx Context)
}

type EncodedValue interface {
	Get(valuePtr any) error
}

type RegisterWorkflowOptions struct{ Name string }

var mu sync.Mutex

// Sleep blocks the caller; the stand-in uses the Go clock, which the
// analyzer must not look at.
func Sleep(ctx Context, d time.Duration) error {
	mu.Lock()
	defer mu.Unlock()
	time.Sleep(d)
	return nil
}

type TestWorkflowEnvironment struct{}

func (e *TestWorkflowEnvironment) RegisterWorkflow(w any) {}

func (e *TestWorkflowEnvironment) RegisterWorkflowWithOptions(w any, options RegisterWorkflowOptions) {
}

func (e *TestWorkflowEnvironment) ExecuteWorkflow(w any, args ...any) {}
