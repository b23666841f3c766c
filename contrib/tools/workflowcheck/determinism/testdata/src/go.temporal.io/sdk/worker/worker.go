// Package worker stands in for the SDK's worker package in the analyzer's
// tests.
package worker

import "go.temporal.io/sdk/workflow"

type Worker interface {
	RegisterWorkflow(w any)
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
	RegisterActivity(a any)
}

func New(taskQueue string) Worker { return nil }
