package workflow

import "github.com/durable-go/sdk/converter"

// ContextAware may be implemented by a DataConverter that wants to see the
// context of each conversion (a key chosen by a value of the workflow's
// context, say): the SDK converts through WithContext's or
// WithWorkflowContext's result. It is converter.ContextAware.
type ContextAware = converter.ContextAware
