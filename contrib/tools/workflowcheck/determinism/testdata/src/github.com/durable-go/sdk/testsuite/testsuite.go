// Package testsuite stands in for the SDK's test environment in the
// analyzer's tests.
package testsuite

import "github.com/durable-go/sdk/internal"

type TestWorkflowEnvironment = internal.TestWorkflowEnvironment

type WorkflowTestSuite struct{}

func (s *WorkflowTestSuite) NewTestWorkflowEnvironment() *TestWorkflowEnvironment { return nil }
